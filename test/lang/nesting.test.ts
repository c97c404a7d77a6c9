// How deep programs may nest: 1,200 levels of brackets, calls, operators and ternaries
// (MAX_NESTING), within the native stack of every engine, and in the JavaScript that reads the
// tree (checker, display tree, stream, sanitizer). Past the limit: "nested too deep".
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { NESTINGS, nestedProgram, repetitionsWithin } from "../support/nestings.mjs";
import { compileLibrary, createStreamParser, inspect, loadLanguage, parse } from "../../src/lang/index.ts";
import { MAX_NESTING, START_RULES } from "../../src/lang/generated/rules.ts";
import { UI_WASM_BASE64 } from "../../src/lang/generated/ui-wasm.ts";
import { repair } from "../../src/repair/index.ts";
import { SMALL_LIBRARY } from "./library-fixture.ts";

await loadLanguage();
const lib = compileLibrary(SMALL_LIBRARY);

// `levels` levels in all, the root call and its list included.
const calls = (n: number) => "root = " + "Stack([".repeat(n) + "])".repeat(n);
const arrays = (levels: number) => "root = Stack([" + "[".repeat(levels - 2) + "]".repeat(levels - 2) + "])";
// An object counts two levels, itself and its entry: `levels` even.
const objects = (levels: number) => "root = Stack([" + "{a: ".repeat(levels / 2 - 1) + "1" + "}".repeat(levels / 2 - 1) + "])";
const parens = (levels: number) => "root = Stack([Text(" + "(".repeat(levels - 3) + '"x"' + ")".repeat(levels - 3) + ")])";
const ternaries = (levels: number) => "root = Stack([" + "$a ? 1 : ".repeat(levels - 2) + "2])";
const nots = (levels: number) => "root = Stack([" + "!".repeat(levels - 2) + "$a])";
const depthOf = (root: unknown): number => {
  let depth = 0;
  for (let node = root as { props?: { children?: unknown[] } } | undefined; node?.props?.children; node = node.props.children[0] as typeof node) depth++;
  return depth;
};

test("500 nested component calls and 1,000 nested arrays parse, as do 1,200 levels of any nesting", () => {
  assert.equal(MAX_NESTING, 1200);
  const deepest = NESTINGS.map((kind) => nestedProgram(kind, repetitionsWithin(kind, MAX_NESTING)));
  // Every parse several times: the engines' first tiers (larger frames) and their optimized ones.
  for (let round = 0; round < 30; round++) {
    for (const text of [
      calls(500),
      calls(600),
      arrays(1000),
      arrays(MAX_NESTING),
      objects(MAX_NESTING),
      parens(MAX_NESTING),
      ternaries(MAX_NESTING),
      nots(MAX_NESTING),
      ...deepest,
    ]) {
      const result = parse(text, lib);
      assert.deepEqual(
        result.errors.filter((e) => e.code === "syntax"),
        [],
        text.slice(0, 40),
      );
    }
  }
  const deep = parse(calls(600), lib);
  assert.deepEqual(deep.errors, []);
  assert.equal(depthOf(deep.root), 600);
});

test("past the limit the error says nested too deep, and the limit", () => {
  const past = NESTINGS.map((kind) => nestedProgram(kind, repetitionsWithin(kind, MAX_NESTING) + 1));
  for (const text of [
    calls(601),
    arrays(MAX_NESTING + 1),
    objects(MAX_NESTING + 2),
    parens(MAX_NESTING + 1),
    nots(MAX_NESTING + 1),
    ...past,
    "root = " + "[".repeat(50_000),
  ]) {
    const errors = parse(text, lib).errors;
    assert.equal(errors[0].code, "syntax", text.slice(0, 40));
    assert.match(
      errors[0].message,
      /^nested too deep: expected at most 1200 levels of brackets, calls, operators and ternaries inside one another, got more: "root = /,
    );
    assert.equal(errors[0].statementId, "root");
    assert.match(errors[1].message, /got a `root` line that does not read as a statement$/);
  }
});

// Every kind of nesting, right at the limit and one repetition past it, read by an instance of
// the parser of its own (so that the answer is the parser's, not the engine's catch of a native
// stack overflow). A binary operator's right operand counts one level: a chain of them through
// parentheses (`1 + (1 + (...))`) takes twice the native stack of plain parentheses, and every
// operator of the language in one repetition seven times; counted as one level, they overflowed
// the native stack before the limit (JavaScriptCore at about 840 and 240 repetitions).
const instance = (
  await WebAssembly.instantiate(
    Uint8Array.from(atob(UI_WASM_BASE64), (c) => c.charCodeAt(0)),
    { env: { abort() {} } },
  )
).instance;
const raw = instance.exports as {
  memory: WebAssembly.Memory;
  prepare(capacity: number): number;
  parse(which: number, from: number, to: number): number;
  overflowed(): number;
};
const input = raw.prepare(1 << 17);
function parseRaw(text: string): { end: number; overflow: boolean } {
  const view = new Uint16Array(raw.memory.buffer, input, text.length);
  for (let i = 0; i < text.length; i++) view[i] = text.charCodeAt(i);
  const end = raw.parse(START_RULES.indexOf("Program"), 0, text.length); // a native stack overflow throws
  return { end, overflow: raw.overflowed() !== 0 };
}

test("every kind of nesting parses right at the limit, and past it the parser's own count says nested too deep", () => {
  for (let round = 0; round < 10; round++) {
    for (const kind of NESTINGS) {
      const within = repetitionsWithin(kind, MAX_NESTING);
      const deepest = nestedProgram(kind, within);
      assert.deepEqual(parseRaw(deepest), { end: deepest.length, overflow: false }, kind.name);
      assert.deepEqual(parseRaw(nestedProgram(kind, within + 1)), { end: -1, overflow: true }, kind.name);
    }
  }
  // The chains the limit was first off for, by the repetitions a reader would count.
  const plus = NESTINGS.find((kind) => kind.name === "+ through parentheses")!;
  assert.equal(repetitionsWithin(plus, MAX_NESTING), 599);
  assert.equal(parseRaw("root = " + "1 + (".repeat(600) + "1" + ")".repeat(600)).overflow, false);
  assert.equal(parseRaw("root = " + "1 + (".repeat(601) + "1" + ")".repeat(601)).overflow, true);
});

test("the checker, the display tree, the stream, inspect and the sanitizer read the deepest programs", () => {
  for (const text of [calls(600), arrays(MAX_NESTING), objects(MAX_NESTING)]) {
    // A misspelt component deep inside sends the program through the checker and the sanitizer.
    const broken = text.replace("Stack([Stack([Stack([", "Stack([Stack([Stak([").replace("root = Stack([[[", "root = Stack([[[Txt(), ");
    for (const program of [text, broken]) {
      const result = parse(program, lib);
      void result.root;
      const stream = createStreamParser(lib);
      for (let i = 0; i < program.length; i += 97) void stream.push(program.slice(i, i + 97)).root;
      assert.equal(JSON.stringify(stream.end()), JSON.stringify(result));
      assert.equal(inspect(program, lib).statements.length, 1);
      void repair(program, lib);
    }
  }
  assert.equal(repair(calls(600).replace("Stack([Stack([Stack([", "Stack([Stack([Stak(["), lib).status, "fixed");
});

test("a statement nested too deep is one broken line: the statements around it are read, in parse() and in the stream", () => {
  const text =
    'root = Stack([a, b])\na = Text("x")\n' + calls(700).replace("root", "deep") + '\nb = Text("y")\n' + arrays(MAX_NESTING + 5).replace("root", "also") + "\n";
  const result = parse(text, lib);
  assert.deepEqual(
    result.errors.map((e) => `${e.code}:${e.statementId}`),
    ["syntax:deep", "syntax:also"],
  );
  assert.match(result.errors[0].message, /^nested too deep/);
  assert.equal(result.statements, 3);
  for (const size of [64, 500, 4000]) {
    const stream = createStreamParser(lib);
    for (let i = 0; i < text.length; i += size) stream.push(text.slice(i, i + size));
    assert.equal(JSON.stringify(stream.end()), JSON.stringify(result), `chunks of ${size}`);
  }
});
