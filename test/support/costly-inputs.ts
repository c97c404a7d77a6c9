// Run as a child process by test/repair/costly-inputs.test.ts: inputs that once made the parser
// or the sanitizer read the same text again and again, read through parse(), inspect() and
// repair() (and one Responses history, turned into a chat request); prints what each gave as one
// JSON line. As it was, the action calls would have taken
// longer than the universe is old, and every other input minutes.
import { compileLibrary, inspect, loadLanguage, parse } from "../../src/lang/index.ts";
import { repair } from "../../src/repair/index.ts";
import { toChatRequest } from "../../src/responses/to-chat.ts";
import type { Item } from "../../src/responses/types.ts";
import { SMALL_LIBRARY } from "../lang/library-fixture.ts";

const head = 'root = Stack([Text("x"), y])\ny = ';
const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join("\n");
export const COSTLY_INPUTS: Record<string, string> = {
  // An ActionCall read its array and failed at what follows it; ComponentCall read it again.
  "cut-off action calls": head + "Action([".repeat(400),
  "action calls that are component calls": head + "Action([".repeat(400) + "1" + "] + 1)".repeat(400),
  "the same across lines": head + "Action([".repeat(400) + "1" + "]\n + 1)".repeat(400),
  // Every quote inside a string that never closes opened another one, read to the line's end.
  "a line of escaped quotes": head + "1\n" + '"' + '\\"'.repeat(200_000),
  "escaped quotes in a bracket": head + '("' + '\\"'.repeat(200_000),
  "single quotes": head + "1\n'" + "\\'".repeat(200_000),
  // The sanitizer walked the tree once per level for each node, for each error.
  "unknown components nested to the limit":
    "root = Stack([" + lines(20, (i) => `y${i}`).replace(/\n/g, ", ") + "])\n" + lines(20, (i) => `y${i} = ` + "Nope([".repeat(599) + "])".repeat(599)),
  // It read the whole text again for each rewrite of a broken line.
  "cut-off lines": "root = Stack([])\n" + lines(10_000, (i) => `a${i} = Stack([`),
  // Each error's node was found by a scan of the array holding it, and each edit checked
  // against every edit kept before it.
  "references to nothing in one array": "root = Stack([" + Array.from({ length: 100_000 }, (_, i) => `b${i}`).join(", ") + "])",
  // The nearest name to a reference to nothing: an edit distance over every pair of letters.
  "a long reference to nothing and a long orphan": "root = Stack([" + "a".repeat(100_000) + "])\n" + "b".repeat(100_000) + ' = Text("x", "m")',
  // Two thousand of each, no two close: a "did you mean" over every pair, a distance per pair.
  "references to nothing and orphans spelt backwards":
    "root = Stack([" +
    Array.from({ length: 2_000 }, (_, i) => `abcdefghijklmnopqrst${i}`).join(", ") +
    "])\n" +
    lines(2_000, (i) => `tsrqponmlkjihgfedcba${i} = Text("x", "m")`),
  "unknown components in one array": "root = Stack([" + Array.from({ length: 100_000 }, () => 'Txt("x")').join(", ") + "])",
  // A named argument was looked for in every call of a broken line, its inside tried up to every
  // `)` after it, each with a `:` in a string read by the parser.
  "colons in the strings of a broken line's calls": head + "Stack([" + Array.from({ length: 3_000 }, (_, i) => `Text("a: ${i}")`).join(", ") + "] ~)",
  // A bracket left out was looked for before every comma of the list, each place a reading of the
  // whole line, and two at once for every pair.
  "a bracket left out of a long list": "root = Stack([" + Array.from({ length: 5_000 }, () => 'Text("x")').join(", ") + ', "column")',
};

// A Responses history of many parallel tool calls: each call was appended to a copy of the turn's
// list of calls, so the turn cost the square of its calls.
export const PARALLEL_CALLS = 300_000;
function parallelCalls(): Item[] {
  const items: Item[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "Go" }], id: "msg_0", status: "completed" }];
  for (let i = 0; i < PARALLEL_CALLS; i++)
    items.push({ type: "function_call", call_id: `call_${i}`, name: "lookup", arguments: "{}", id: `fc_${i}`, status: "completed" });
  for (let i = 0; i < PARALLEL_CALLS; i++) items.push({ type: "function_call_output", call_id: `call_${i}`, output: "1", id: `fco_${i}`, status: "completed" });
  return items;
}

// A library whose one prop is an array of arrays 40 deep, of numbers.
let deep: Record<string, unknown> = { type: "number" };
for (let i = 0; i < 40; i++) deep = { type: "array", items: deep };
export const DEEP_LIBRARY = { root: "Deep", schema: { $defs: { Deep: { properties: { v: deep }, required: ["v"] } } } };

// Inputs read with DEEP_LIBRARY.
export const COSTLY_DEEP_INPUTS: Record<string, string> = {
  // Each level twice the one below it, through references: the checker walked it as a tree
  // (2^40 leaves) to find the one string that does not fit.
  "references that share their parts": 'root = Deep(x0)\nx0 = [x1, "bad"]\n' + lines(39, (i) => `x${i + 1} = [x${i + 2}, x${i + 2}]`) + "\nx40 = 1",
  // The same, every part fitting: the fast verdict (WebAssembly) walked it as a tree.
  "references that share their parts, all fitting": "root = Deep(x0)\n" + lines(40, (i) => `x${i} = [x${i + 1}, x${i + 1}]`) + "\nx40 = 1",
  // A number 30 levels down where the schema wants arrays 40 deep: one mismatch for each of the
  // 2^30 ways to reach it (the checker reports MAX_MISMATCHES of them).
  "a mismatch reached in 2^30 ways": "root = Deep(x0)\n" + lines(30, (i) => `x${i} = [x${i + 1}, x${i + 1}]`) + "\nx30 = 1",
};

// A library of 60,000 components, each with a prop that takes the next one (`$ref`): the verdict's
// tables gave every such prop a bit for each component of the library (3.6 billion bits), and
// were assembled by spreading a list as arguments, which overflowed the stack.
export function manyRefs(): Record<string, unknown> {
  const n = 60_000;
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) defs[`C${i}`] = { properties: { a: { $ref: `#/$defs/C${(i + 1) % n}` } } };
  return { schema: { $defs: defs } };
}

// A library of one component with 200,000 props, every one required: compileLibrary looked each
// prop up in the list of required ones.
export function manyRequiredProps(): Record<string, unknown> {
  const names = Array.from({ length: 200_000 }, (_, i) => `p${i}`);
  return { root: "Big", schema: { $defs: { Big: { properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])), required: names } } } };
}

if (import.meta.main) {
  await loadLanguage();
  const small = compileLibrary(SMALL_LIBRARY);
  const deepLib = compileLibrary(DEEP_LIBRARY);
  const out: Record<string, unknown> = {};
  const inputs = [
    ...Object.entries(COSTLY_INPUTS).map(([name, text]) => [name, text, small] as const),
    ...Object.entries(COSTLY_DEEP_INPUTS).map(([name, text]) => [name, text, deepLib] as const),
  ];
  for (const [name, text, lib] of inputs) {
    const fix = repair(text, lib);
    out[name] = {
      parse: [...new Set(parse(text, lib).errors.map((e) => e.code))],
      inspect: inspect(text, lib).errors.length,
      repair: fix.status,
      left: fix.unfixed_errors.length,
    };
  }
  out["many required props"] = compileLibrary(manyRequiredProps())
    .components.get("Big")!
    .props.filter((p) => p.required).length;
  const refs = compileLibrary(manyRefs());
  out["many components that take one another"] = [parse("root = C1(C2(C3()))", refs).errors.length, parse("root = C1(C3())", refs).errors.map((e) => e.code)];
  const chat = toChatRequest(parallelCalls(), { model: "m", summaryOf: () => "" });
  out["parallel tool calls"] = chat.messages
    .map((m) => `${m.role}:${m.tool_calls?.length ?? 0}`)
    .slice(0, 3)
    .concat(String(chat.messages.length));
  console.log(JSON.stringify(out));
}
