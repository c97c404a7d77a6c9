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
  "unknown components nested to the limit": 'root = Stack([' + lines(20, (i) => `y${i}`).replace(/\n/g, ", ") + "])\n" + lines(20, (i) => `y${i} = ` + "Nope([".repeat(599) + "])".repeat(599)),
  // It read the whole text again for each rewrite of a broken line.
  "cut-off lines": "root = Stack([])\n" + lines(10_000, (i) => `a${i} = Stack([`),
};

// A Responses history of many parallel tool calls: each call was appended to a copy of the turn's
// list of calls, so the turn cost the square of its calls.
export const PARALLEL_CALLS = 300_000;
function parallelCalls(): Item[] {
  const items: Item[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "Go" }], id: "msg_0", status: "completed" }];
  for (let i = 0; i < PARALLEL_CALLS; i++) items.push({ type: "function_call", call_id: `call_${i}`, name: "lookup", arguments: "{}", id: `fc_${i}`, status: "completed" });
  for (let i = 0; i < PARALLEL_CALLS; i++) items.push({ type: "function_call_output", call_id: `call_${i}`, output: "1", id: `fco_${i}`, status: "completed" });
  return items;
}

if (import.meta.main) {
  await loadLanguage();
  const lib = compileLibrary(SMALL_LIBRARY);
  const out: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(COSTLY_INPUTS)) {
    const fix = repair(text, lib);
    out[name] = { parse: [...new Set(parse(text, lib).errors.map((e) => e.code))], inspect: inspect(text, lib).errors.length, repair: fix.status, left: fix.unfixed_errors.length };
  }
  const chat = toChatRequest(parallelCalls(), { model: "m", summaryOf: () => "" });
  out["parallel tool calls"] = chat.messages.map((m) => `${m.role}:${m.tool_calls?.length ?? 0}`).slice(0, 3).concat(String(chat.messages.length));
  console.log(JSON.stringify(out));
}
