// How deep programs may nest: 1,200 levels of brackets, calls, prefix operators and ternaries
// (MAX_NESTING), within the native stack of every engine, and in the JavaScript that reads the
// tree (checker, display tree, stream, sanitizer). Past the limit: "nested too deep".
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { compileLibrary, createStreamParser, inspect, loadLanguage, parse } from "../../src/lang/index.ts";
import { MAX_NESTING } from "../../src/lang/generated/rules.ts";
import { repair } from "../../src/repair/index.ts";
import { SMALL_LIBRARY } from "./library-fixture.ts";

await loadLanguage();
const lib = compileLibrary(SMALL_LIBRARY);

// `levels` levels in all, the root call and its list included.
const calls = (n: number) => "root = " + "Stack([".repeat(n) + "])".repeat(n);
const arrays = (levels: number) => "root = Stack([" + "[".repeat(levels - 2) + "]".repeat(levels - 2) + "])";
const objects = (levels: number) => "root = Stack([" + "{a: ".repeat(levels - 2) + "1" + "}".repeat(levels - 2) + "])";
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
  // Every parse several times: the engines' first tiers (larger frames) and their optimized ones.
  for (let round = 0; round < 30; round++) {
    for (const text of [calls(500), calls(600), arrays(1000), arrays(MAX_NESTING), objects(MAX_NESTING), parens(MAX_NESTING), ternaries(MAX_NESTING), nots(MAX_NESTING)]) {
      const result = parse(text, lib);
      assert.deepEqual(result.errors.filter((e) => e.code === "syntax"), [], text.slice(0, 40));
    }
  }
  const deep = parse(calls(600), lib);
  assert.deepEqual(deep.errors, []);
  assert.equal(depthOf(deep.root), 600);
});

test("past the limit the error says nested too deep, and the limit", () => {
  for (const text of [calls(601), arrays(MAX_NESTING + 1), objects(MAX_NESTING + 1), parens(MAX_NESTING + 1), nots(MAX_NESTING + 1), "root = " + "[".repeat(50_000)]) {
    const errors = parse(text, lib).errors;
    assert.equal(errors[0].code, "syntax");
    assert.match(errors[0].message, /^nested too deep: expected at most 1200 levels of brackets, calls, prefix operators and ternaries inside one another, got more: "root = /);
    assert.equal(errors[0].statementId, "root");
    assert.match(errors[1].message, /got a `root` line that does not read as a statement$/);
  }
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
  const text = 'root = Stack([a, b])\na = Text("x")\n' + calls(700).replace("root", "deep") + '\nb = Text("y")\n' + arrays(MAX_NESTING + 5).replace("root", "also") + "\n";
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
