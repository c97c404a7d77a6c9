// Compiles the grammar to WebAssembly through AssemblyScript, and renders the generated
// TypeScript modules that carry the result. Deterministic: the same grammar gives the same bytes.
import asc from "assemblyscript/asc";
import { readFileSync } from "node:fs";
import { compileGrammar, MAX_DEPTH } from "./compile.ts";
import { layoutAssemblyScript, layoutModule, VERDICT_LAYOUT, type VerdictLayout } from "./verdict-layout.ts";

/** Where verdict.as imports the layout from (the generated file, without `.as`), relative to src/grammar. */
export const LAYOUT_AS = "generated/verdict-layout";

// brokenLine: the stream asks whether reading a broken line looked at the end of its text.
export const START_RULES = ["Program", "Line_statement", "brokenLine"];
// Rules that retry at every position after a failure (an unclosed bracket in a broken line), and
// what a bracket reads, taken whole by the brackets around one that does not close (ui.ohm). The
// three kinds of items share a table: each is read only just past its own opening bracket.
export const MEMO_RULES = ["bracketed", ["parenItems", "squareItems", "curlyItems"]];
// ActionCall reads an array, and when what follows it is not `)`, ComponentCall reads the same
// array again: `Action([Action([...] + 1)] + 1)` and cut-off `Action([Action([` took time
// exponential in their depth.
export const RECALL_RULES = ["ArrayLit"];
// A quoted string that never closes decides the strings opened at each quote inside it.
export const FAIL_SPAN_RULES = ["string_double", "string_single"];
// A unit read inside a broken line's bracket: counted, so that tests can bound the work of
// recovery (engine.ts: recoveryUnitsRead).
export const COUNT_RULES = ["bracketChar"];
// Rules that nest what they hold, each application one level of the nesting depth (MAX_DEPTH in
// compile.ts): brackets, calls, a prefix operator, a ternary's tail; `bracketed` in broken lines.
// An object's entry counts one too (an object two levels, as a component call with its list):
// objects nested in a later entry (`{a: 1, b: {a: 1, b: ...}}`) take the loop over the entries
// and the entry's key on the native stack, and overflowed it before 1,200 levels counted one.
// The `unclosed…` rules read what `bracketed` at their place has just read (remembered): they count
// a level, as the bracket does, so that every recursion passes through a counted rule.
export const NEST_RULES = [
  "Group",
  "ArrayLit",
  "ObjectLit",
  "Entry",
  "ActionCall",
  "BuiltinCall",
  "ComponentCall",
  "PostfixOp_index",
  "Unary_op",
  "TernaryTail",
  "bracketed",
  "unclosedParen",
  "unclosedSquare",
  "unclosedCurly",
];
// Nodes that are one level of an expression tree: what reads the tree (src/lang/ast.ts, the checker,
// the display tree) descends one level for each. A binary, postfix or ternary node counts above
// its first operand, which the nesting count cannot see.
export const HEIGHT_RULES = [
  "ArrayLit",
  "ObjectLit",
  "ComponentCall",
  "BuiltinCall",
  "ActionCall",
  "Expr",
  "Unary_op",
  "Postfix",
  "Or",
  "And",
  "Equality",
  "Comparison",
  "Additive",
  "Multiplicative",
];
// Rules whose tail nests: each right operand of a binary operator counts one level, as each of
// them keeps the operator's loop and the chain of the rules below it on the native stack (a
// chain of them through parentheses, `1 + (1 + (...))`, took twice the stack of plain ones).
export const NEST_TAILS = ["Or", "And", "Equality", "Comparison", "Additive", "Multiplicative"];
// Recursive rules whose code is inlined where they are applied, one native frame fewer per level
// of nesting (the recursion still goes through the functions of the others).
export const INLINE_RULES = ["Items", "Primary", "Entries", "Entry"];

export interface BuiltGrammar {
  wasm: Uint8Array;
  rules: string[];
  /** `src/lang/generated/ui-wasm.ts`: the module's bytes, for every runtime and the browser. */
  wasmModule: string;
  /** `src/lang/generated/rules.ts`: rule ids as the tree records them. */
  rulesModule: string;
  /** `src/lang/generated/verdict-layout.ts`: the verdict tables' layout, for the writer. */
  layoutModule: string;
  /** `src/grammar/generated/verdict-layout.as`: the same layout, for the reader (verdict.as). */
  layoutAs: string;
}

export interface BuildOptions {
  /** The verdict tables' layout (tests pass another, to see that a change reaches the module). */
  layout?: VerdictLayout;
  /** AssemblyScript appended after the verdict, its exports the module's (tests read the tables through it). */
  extra?: string;
}

export async function buildGrammar(grammarSource: string, { layout = VERDICT_LAYOUT, extra = "" }: BuildOptions = {}): Promise<BuiltGrammar> {
  const compiled = compileGrammar(grammarSource, {
    startRules: START_RULES,
    memoRules: MEMO_RULES,
    recallRules: RECALL_RULES,
    failSpanRules: FAIL_SPAN_RULES,
    countRules: COUNT_RULES,
    heightRules: HEIGHT_RULES,
    nestRules: NEST_RULES,
    inlineRules: INLINE_RULES,
    nestTails: NEST_TAILS,
  });
  // The verdict (verdict.as) reads the parser's tree: it follows the parser in one module, with
  // the rule ids as constants, and imports the table layout's constants from their own module.
  const ruleIds = compiled.rules.map((rule, id) => `const RULE_${rule}: i32 = ${id};`).join("\n");
  const verdict = readFileSync(new URL("./verdict.as", import.meta.url), "utf8");
  const layoutAs = layoutAssemblyScript(layout);
  const sources: Record<string, string> = { "ui.ts": `${compiled.source}\n${ruleIds}\n${verdict}\n${extra}`, [`${LAYOUT_AS}.ts`]: layoutAs };
  const options = [
    // -O2: with the parser's expressions inlined, -O3 made the parse slower on V8 (0.44 -> 0.49 ms
    // per 100k) and no faster on JavaScriptCore.
    ["--optimizeLevel", "2"],
    ["--shrinkLevel", "0"],
    ["--runtime", "stub"],
    ["--noAssert"],
    // 128-bit SIMD: strings and names are scanned eight units at a time.
    ["--enable", "simd"],
    // WASM_DEBUG=1 keeps function names, for profilers (perf with node --perf-prof). The default
    // build, which the committed bytes are checked against, has none.
    process.env.WASM_DEBUG === "1" ? ["--debug"] : [],
  ].flat();
  // One entry (ui.ts: its exports are the module's); the layout is read only where it is imported.
  const written: Record<string, Uint8Array | string> = {};
  const result = await asc.main(["ui.ts", "--outFile", "ui.wasm", ...options], {
    readFile: (name: string) => sources[name] ?? null,
    writeFile: (name: string, contents: Uint8Array | string) => {
      written[name] = contents;
    },
    listFiles: () => [],
  });
  const binary = written["ui.wasm"];
  if (result.error || !(binary instanceof Uint8Array)) {
    throw new Error(`asc failed: ${result.error?.message}\n${result.stderr.toString()}`);
  }
  const wasm = binary;
  const header = "// Generated by `npm run build:grammar` from grammar/ui.ohm. Do not edit.\n";
  const wasmModule = `${header}export const UI_WASM_BASE64 =\n  "${Buffer.from(wasm).toString("base64")}";\n`;
  const rulesModule =
    header +
    `export const RULE_NAMES = ${JSON.stringify(compiled.rules)} as const;\n` +
    `export const START_RULES = ${JSON.stringify(START_RULES)} as const;\n` +
    `/** Rules whose applications each parse counts (the module's applications(k)). */\n` +
    `export const COUNT_RULES = ${JSON.stringify(COUNT_RULES)} as const;\n` +
    `/** How deep brackets, calls, operators and ternaries may nest (each counts one level). */\n` +
    `export const MAX_NESTING = ${MAX_DEPTH};\n` +
    `export const RULE: Record<string, number> = Object.fromEntries(RULE_NAMES.map((name, id) => [name, id]));\n`;
  return { wasm, rules: compiled.rules, wasmModule, rulesModule, layoutModule: layoutModule(layout), layoutAs };
}
