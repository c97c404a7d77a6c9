// The display tree (ParseResult.root): what a dropped element leaves behind.
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { compileLibrary, createStreamParser, loadLanguage, parse, type ElementNode } from "../../src/lang/index.ts";
import { SMALL_LIBRARY } from "./library-fixture.ts";

await loadLanguage();
const lib = compileLibrary(SMALL_LIBRARY);
const names = (items: unknown) => (items as (ElementNode | null)[]).map((c) => (c === null ? null : c.component ?? c));
const children = (program: string) => names(parse(program, lib).root!.props.children);

test("dropped elements leave arrays, not nulls: a reference to nothing, a missing or null required property, an unknown component, a cycle", () => {
  assert.deepEqual(children('root = Stack([Text("a"), ghost, Text("b")])'), ["Text", "Text"]);
  assert.deepEqual(children('root = Stack([b, Text("a")])\nb = Button()'), ["Text"]);
  assert.deepEqual(children('root = Stack([Button(null), Text("a")])'), ["Text"]);
  assert.deepEqual(children('root = Stack([Foo("x"), Text("a")])'), ["Text"]);
  assert.deepEqual(children('root = Stack([a, Text("a")])\na = b\nb = a'), ["Text"]);
  // Inside nested arrays and value statements too.
  const table = parse('root = Stack([Table([Col("a"), Col(), nope], rows)])\nrows = [[Foo(), 1]]', lib).root!;
  const t = (table.props.children as ElementNode[])[0];
  assert.deepEqual(names(t.props.columns), ["Col"]);
  assert.deepEqual(t.props.rows, [[1]]);
});

test("a literal null stays in an array; a dropped element in an optional or object slot is null", () => {
  assert.deepEqual(children('root = Stack([Text("a"), null])'), ["Text", null]);
  const card = parse('root = Stack([Col("a", {width: ghost}), Card("t", ghost)])', lib).root!;
  const [col, c] = card.props.children as ElementNode[];
  assert.deepEqual(col.props.meta, { width: null });
  assert.equal(c.props.children, null);
});

test("a statement not yet streamed leaves the array it is referenced from", () => {
  const stream = createStreamParser(lib);
  const shown = stream.push('root = Stack([a, b, Text("x")])\na = Text("first")\n');
  assert.deepEqual(names(shown.root!.props.children), ["Text", "Text"]);
  assert.deepEqual((shown.root!.props.children as ElementNode[]).map((c) => c.props.text), ["first", "x"]);
});
