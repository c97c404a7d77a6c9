// The display tree (ParseResult.root): what a dropped element leaves behind.
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { compileLibrary, createStreamParser, loadLanguage, parse, type ElementNode } from "../../src/lang/index.ts";
import { SMALL_LIBRARY } from "./library-fixture.ts";
import { statementsBuilt } from "../../src/lang/materialize.ts";

await loadLanguage();
const lib = compileLibrary(SMALL_LIBRARY);
const names = (items: unknown) => (items as (ElementNode | null)[]).map((c) => (c === null ? null : (c.component ?? c)));
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
  assert.deepEqual(
    (shown.root!.props.children as ElementNode[]).map((c) => c.props.text),
    ["first", "x"],
  );
});

test("a value shared through references is built once: the same object wherever it is used", () => {
  const root = parse('root = Stack([a, Stack([a, b])])\na = Text("shared")\nb = [a, a]', lib).root!;
  const [first, inner] = root.props.children as ElementNode[];
  const [second, list] = inner.props.children as [ElementNode, ElementNode[]];
  assert.equal(first, second);
  assert.equal(list[0], first);
  assert.equal(list[1], first);
});

test("30 levels of x_i = [x_(i+1), x_(i+1)] build 31 values, not 2^30", () => {
  const levels = Array.from({ length: 30 }, (_, i) => `x${i} = [x${i + 1}, x${i + 1}]`);
  const program = ["root = Stack([x0])", ...levels, 'x30 = Text("leaf")'].join("\n");
  const result = parse(program, lib);
  const before = statementsBuilt();
  let node = (result.root!.props.children as unknown[])[0] as unknown[];
  assert.equal(statementsBuilt() - before, 32); // root, x0 … x30
  for (let i = 0; i < 30; i++) {
    const [a, b] = node as unknown[][];
    assert.equal(a, b);
    node = a;
  }
  assert.equal((node as unknown as ElementNode).component, "Text");
});

test("streamed, a finished statement is built once: reading root after every push rebuilds only what the push changed", () => {
  const n = 400;
  const lines = [
    `root = Stack([${Array.from({ length: n }, (_, i) => `t${i}`).join(", ")}])`,
    ...Array.from({ length: n }, (_, i) => `t${i} = Text("row ${i}")`),
  ];
  const stream = createStreamParser(lib);
  const before = statementsBuilt();
  let kept: ElementNode | undefined;
  for (const line of lines) {
    const root = stream.push(line + "\n").root;
    const children = (root?.props.children ?? []) as ElementNode[];
    // t0 ended two pushes ago: the same object in every later read.
    if (children.length >= 3) {
      kept ??= children[0];
      assert.equal(children[0], kept);
    }
  }
  const builds = statementsBuilt() - before;
  // Each row once (and once more while it is the open statement), root once per push: about 3n,
  // where building the tree afresh at every read costs n^2 / 2 (80,000 here).
  assert.ok(builds <= 4 * n, `${builds} statement builds for ${n} rows`);
  assert.equal((stream.end().root!.props.children as unknown[]).length, n);
});

test("an older result read after a newer one still shows its own tree", () => {
  const stream = createStreamParser(lib);
  const early = stream.push('root = Stack([a, b])\na = Text("one")\n');
  const late = stream.push('b = Text("two")\n');
  assert.deepEqual(names(late.root!.props.children), ["Text", "Text"]);
  assert.deepEqual(names(early.root!.props.children), ["Text"]);
});

test("streamed, a statement built again from what it kept shows what a fresh build shows, at every push", () => {
  // Forward references, items dropped until defined, a required argument defined late, objects
  // and nested arrays holding references, a cycle, a name defined again, `root` over many, and
  // an argument first looked up only once the required one before it is defined (`late`), and a
  // statement wide enough to be built again in parts (`wide`, 16 references or more).
  const program = [
    "root = Stack([s0, s1, s2, s3, Card(title, [t0, t1]), Stack([[s1, s2], s0]), cyc, late, wide])",
    'wide = Stack([Col(lbl2, {width: wid2}), s0, s1, s2, s3, t0, t1, late, s0, s1, s2, s3, t0, t1, [late, cyc], Card(title, [t1]), Col("k", {width: w})])',
    "s0 = Text(word)",
    'word = "first"',
    's1 = Table([Col(label, {width: w}), Col("b")], rows)',
    'label = "head"',
    "w = 3",
    "rows = [[1, w], [s0]]",
    't0 = Text("t")',
    "cyc = Stack([cyc2])",
    "cyc2 = Stack([cyc])",
    'title = "card"',
    's2 = Button("go", act, 2)',
    "t1 = Button(title)",
    'word = "again"',
    "s3 = Stack([s0, t0])",
    "late = Col(lbl, {width: wid})",
    'lbl = "x"',
    "wid = 5",
    "wid2 = 7",
    'lbl2 = "y"',
  ].join("\n");
  for (const size of [1, 7, 23]) {
    const chunks: string[] = [];
    for (let i = 0; i < program.length; i += size) chunks.push(program.slice(i, i + size));
    const stream = createStreamParser(lib);
    for (let k = 0; k < chunks.length; k++) {
      const kept = stream.push(chunks[k]).root;
      const fresh = createStreamParser(lib);
      for (let j = 0; j < k; j++) fresh.push(chunks[j]);
      assert.deepEqual(kept, fresh.push(chunks[k]).root, `chunks of ${size}, push ${k}`);
    }
    assert.deepEqual(stream.end().root, parse(program, lib).root);
  }
});
