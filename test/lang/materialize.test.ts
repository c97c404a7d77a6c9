// The display tree (ParseResult.root): what a dropped element leaves behind.
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { compileLibrary, createStreamParser, loadLanguage, parse, type ElementNode, type Library } from "../../src/lang/index.ts";
import { balance } from "../../src/lang/balance.ts";
import { FIXTURES_MISSING, realLibraryConfig, realSamples } from "../support/fixtures.ts";
import { VALID } from "../conformance/corpus.ts";
import { mutationArb, programArb } from "../conformance/generators.ts";
import fc from "fast-check";
import { SMALL_LIBRARY } from "./library-fixture.ts";
import { statementsBuilt } from "../../src/lang/materialize.ts";
import { unitsParsed } from "../../src/lang/engine.ts";
import { random } from "./library-programs.ts";

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

// `root` without the `partial` marks (a stream marks its open statements; parse() has none open).
const settled = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null), (key, v) => (key === "partial" ? undefined : v));

const STATEMENT_START = /^[$A-Za-z_][A-Za-z0-9_]*[ \t]*=(?!=)/gm;

// `text` with its last statement closed as the stream closes a cut statement: trailing commas
// and operators left out, then its strings and brackets closed as `balance` counts them.
function closedLast(text: string): string {
  let start = 0;
  for (const match of text.matchAll(STATEMENT_START)) start = match.index;
  const cut = text.slice(start).replace(/[\s,+\-*/%&|!=<>?:]+$/, "");
  return text.slice(0, start) + cut + balance(cut).closers;
}

// Reads `root` after every push of `program` in chunks of `chunk`: what it shows is what
// parse() shows for the text so far with its last statement closed.
function expectShownAsParsed(program: string, lib: Library, chunk: number, label: string) {
  const stream = createStreamParser(lib);
  let text = "";
  for (let i = 0; i < program.length; i += chunk) {
    text += program.slice(i, i + chunk);
    const shown = stream.push(program.slice(i, i + chunk)).root;
    assert.deepEqual(settled(shown), settled(parse(closedLast(text), lib).root), `${label}, chunks of ${chunk}, at ${text.length}`);
  }
}

test("streamed, the open statement shows what parse() shows for it closed, at every cut: strings, calls, arrays, objects, references, expressions", () => {
  const program = [
    'root = Stack([head, Card(title, [Text("a \\"quoted\\" word, and more"), Button("Go", act, 2)]), table, Text(n + 1), more], "column")',
    'title = "Card " + "title"',
    "n = 41",
    'head = Text(n > 40 ? "many" : "few", "l")',
    'table = Table([Col("Id"), Col("Total", {width: n * 2})], [[1, "x, y"], [2, \'it\\\'s\'], [n, null]])',
    'act = "go"',
    "more = Stack([Text(@Count([1, 2, 3])), Text(title), Button('Stop [now]', act)])",
  ].join("\n");
  for (const chunk of [1, 3, 7, 40]) expectShownAsParsed(program, lib, chunk, "crafted");
  // (Statements that go on past their line only inside brackets: a ternary's `?` line is not closed so.)
  for (const [n, text] of VALID.entries()) if (!/\n\s*[?:]/.test(text)) expectShownAsParsed(text, lib, 5, `corpus ${n}`);
  if (FIXTURES_MISSING) return console.log(`real samples skipped: ${FIXTURES_MISSING}`);
  const real = compileLibrary(realLibraryConfig());
  for (const [name, text] of Object.entries(realSamples())) for (const chunk of [7, 40]) expectShownAsParsed(text, real, chunk, name);
});

test("streamed, a statement that has ended is the same object in every later read, and each read rebuilds only the path to what changed", () => {
  const n = 12;
  const lines = [`root = Stack([${Array.from({ length: n }, (_, i) => `s${i}`).join(", ")}])`];
  for (let i = 0; i < n; i++)
    lines.push(`s${i} = Card("section ${i}", [t${i}, b${i}])`, `t${i} = Text("row ${i}, with a longer text")`, `b${i} = Button("open ${i}", "go")`);
  const program = lines.join("\n") + "\n";
  const stream = createStreamParser(lib);
  const seen = new Map<number, ElementNode>(); // section i, once its last line has ended
  let text = "";
  for (let i = 0; i < program.length; i += 9) {
    text += program.slice(i, i + 9);
    const sections = (stream.push(program.slice(i, i + 9)).root?.props.children ?? []) as ElementNode[];
    for (let s = 0; s + 1 < n; s++) {
      if (!text.includes(`\ns${s + 1} = `)) continue;
      const section = sections[s];
      const first = seen.get(s) ?? section;
      seen.set(s, first);
      assert.equal(section, first, `section ${s} at ${text.length}`);
      assert.equal((section.props.children as ElementNode[])[0], (first.props.children as ElementNode[])[0]);
    }
  }
  assert.equal(seen.size, n - 1);
});

// One long statement on one line, from a seed: arrays, objects and calls nested in each other,
// strings holding commas, brackets and escapes, references (some not defined), expressions.
function longLine(seed: number, items: number): string {
  const r = random(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const text = () => pick(['"a, b"', '"x [y] (z)"', "'it\\'s'", '"q \\"w\\""', '"plain"', '"t{1}"']);
  const item = (depth: number): string => {
    const k = Math.floor(r() * (depth > 2 ? 4 : 9));
    switch (k) {
      case 0:
        return `Text(${text()})`;
      case 1:
        return pick(["s0", "s1", "ghost", "n"]);
      case 2:
        return `Button(${text()}, "go", ${Math.floor(r() * 9)})`;
      case 3:
        return pick(["n + 1", 'n > 2 ? "big" : "small"', "@Count([1, 2])", "null", "true", "-4.5"]);
      case 4:
        return `Card(${text()}, [${Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick([`Text(${text()})`, "s0", "s1"])).join(", ")}])`;
      case 5:
        return `Col(${text()}, {width: ${Math.floor(r() * 9)}, k: [${item(depth + 1)}, ${item(depth + 1)}]})`;
      default:
        return `[${Array.from({ length: Math.floor(r() * 4) }, () => item(depth + 1)).join(", ")}]`;
    }
  };
  return `n = 3\ns0 = Text("zero")\nroot = Stack([${Array.from({ length: items }, () => item(0)).join(", ")}], "column")\ns1 = Button("one")\n`;
}

test("streamed, a long statement's open tree is what parse() shows for it closed, at every cut, its items read whole kept from read to read", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) for (const chunk of [1, 7, 40]) expectShownAsParsed(longLine(seed, 40), lib, chunk, `long line ${seed}`);
  // Over many lines, and a table's rows as an object's entries and a call's arguments.
  const rows = Array.from({ length: 30 }, (_, i) => `  [${i}, "r, ${i}", {k: Text("t${i}"), w: ${i}}]`).join(",\n");
  const table = `root = Stack([t])\nt = Table([Col("a", {width: 1, k: [1, 2], j: "x, y"}), Col("b")], [\n${rows}\n])\n`;
  for (const chunk of [1, 5, 40]) expectShownAsParsed(table, lib, chunk, "table");
});

test("streamed, reading root after every chunk of a long statement parses what the chunks added, and keeps its items' values", () => {
  const program = `root = Stack([${Array.from({ length: 600 }, (_, i) => `Card("card ${i}", [Text("row ${i}"), Button("open", "go", ${i})])`).join(", ")}])\n`;
  const stream = createStreamParser(lib);
  const before = unitsParsed();
  let first: unknown;
  for (let i = 0; i < program.length; i += 40) {
    const result = stream.push(program.slice(i, i + 40));
    const cards = (result.root?.props.children ?? []) as ElementNode[];
    // The first card, once its comma is read, is the same object at every later read while the
    // statement is cut (once it ends, it is read whole as ended statements are).
    if (cards.length > 2 && result.incomplete) {
      first ??= cards[0];
      assert.equal(cards[0], first, `at ${i}`);
    }
  }
  const read = unitsParsed() - before;
  // Reading the cut statement whole at every chunk parses ~length² / 80 units (1.6 million here).
  assert.ok(read < 6 * program.length, `${read} code units parsed for ${program.length} streamed and read`);
  assert.equal((stream.end().root!.props.children as unknown[]).length, 600);
});

test("streamed, root read after every push is what a stream read once shows, for random, mutated and long programs and any string", () => {
  const texts = fc.oneof(
    programArb,
    mutationArb(VALID),
    fc.nat({ max: 1000 }).map((seed) => longLine(seed, 6)),
    fc
      .array(fc.constantFrom("x = [", "Text(", '"a, b', "'c", "\\", ", ", "{k: ", "1", ")", "]", "}", "\n", "s0", " + ", "@Count(", "# c\n"), { maxLength: 30 })
      .map((p) => p.join("")),
    fc.string({ maxLength: 80, unit: "binary" }),
  );
  fc.assert(
    fc.property(texts, fc.integer({ min: 1, max: 9 }), (text, size) => {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      const stream = createStreamParser(lib);
      for (let k = 0; k < chunks.length; k++) {
        const kept = stream.push(chunks[k]).root;
        const fresh = createStreamParser(lib);
        for (let j = 0; j < k; j++) fresh.push(chunks[j]);
        assert.deepEqual(kept, fresh.push(chunks[k]).root, `push ${k}`);
      }
      assert.deepEqual(stream.end().root, parse(text, lib).root);
    }),
    { numRuns: 150 },
  );
});
