// The streaming parser: never throws on any prefix, end() equals parse(), and chunks cost what
// they carry.
import assert from "node:assert/strict";
import fc from "fast-check";
import { test } from "../support/harness.ts";
import { compileLibrary, createStreamParser, loadLanguage, parse, type ParseResult } from "../../src/lang/index.ts";
import { unitsParsed } from "../../src/lang/engine.ts";
import { FIXTURES_MISSING, realLibraryConfig, realSamples } from "../support/fixtures.ts";
import { SMALL_LIBRARY } from "./library-fixture.ts";
import { VALID, INVALID } from "../conformance/corpus.ts";
import { mutationArb, programArb } from "../conformance/generators.ts";

await loadLanguage();
const small = compileLibrary(SMALL_LIBRARY);

function streamIn(text: string, cuts: number[], lib = small) {
  const stream = createStreamParser(lib);
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    stream.push(text.slice(at, Math.max(at, cut)));
    at = Math.max(at, cut);
  }
  stream.push(text.slice(at));
  return stream.end();
}

const json = (value: unknown) => JSON.stringify(value);

test("end() gives what parse() gives, for any chunking of corpus, random and mutated programs", () => {
  const texts = fc.oneof(fc.constantFrom(...VALID, ...INVALID), programArb, mutationArb([...VALID, ...INVALID]));
  fc.assert(
    fc.property(texts, fc.array(fc.nat(), { maxLength: 40 }), (text, cuts) => {
      const scaled = cuts.map((c) => c % (text.length + 1));
      assert.equal(json(streamIn(text, scaled)), json(parse(text, small)));
    }),
    { numRuns: 600 },
  );
});

test("fenced and enveloped generations stream to the same result as parse()", () => {
  const fenced = 'Here it is:\n```ui\nroot = Stack([a])\na = Text("x")\n```\nDone. root = nonsense';
  const envelope = ']]>service:content?libraryVersion=0.1.0\nroot = Stack([a])\na = Button(1)\n]]>service:context\n[{"f":1}]\n]]>service:end';
  for (const text of [fenced, envelope]) {
    for (let size = 1; size < 12; size++) {
      const cuts = Array.from({ length: Math.ceil(text.length / size) }, (_, i) => i * size);
      assert.equal(json(streamIn(text, cuts)), json(parse(text, small)), `chunks of ${size}`);
    }
  }
});

test("every prefix of a valid program streams without a throw; the partial tree is shown", () => {
  const program = 'root = Stack([card], "column")\ncard = Card("Title", [Text("hello"), Button("Go", "go")])\n';
  const stream = createStreamParser(small);
  for (const ch of program) {
    const result = stream.push(ch);
    assert.ok(Array.isArray(result.errors));
    void result.root;
  }
  const final = stream.end();
  assert.deepEqual(final.errors, []);
  assert.equal(final.root?.component, "Stack");
});

test("while streaming, forward references are unresolved and the open statement is partial", () => {
  const stream = createStreamParser(small);
  const first = stream.push('root = Stack([card])\ncard = Card("T", [');
  assert.deepEqual(first.unresolved, ["card"]);
  assert.equal(first.incomplete, true);
  const second = stream.push('Text("a")])\nx = Text("b")');
  assert.deepEqual(second.unresolved, []);
  assert.equal(second.incomplete, false);
  assert.equal((second.root?.props.children as { component: string; partial: boolean }[])[0].component, "Card");
  const final = stream.end();
  assert.deepEqual(final.orphaned, ["x"]);
});

test("end() equals parse() where a bracket on a broken line closes lines later, and where a fence is the last line", () => {
  const cases = [
    // `{` opens on a broken line and closes two lines later, on lines that start no statement:
    // the three lines are one broken line, though the first alone was whole while it streamed.
    '{root = Stack([header, table], "column")\n  "Orders",\n  "Last 30 days"}\ntable = Table([Col("Id")], rows)\nrows = [["A-1"]]\n',
    // The next line starts a statement, at the start of the line or indented: the bracket does
    // not reach past it.
    '{root = Stack([header, table], "column")\nheader = CardHeader("Orders", "Last 30 days"}\ntable = Table([Col("Id")], rows)\nrows = [["A-1"]]\n',
    '{root = Stack([header, table], "column")\n  header = CardHeader("Orders", "Last 30 days"}\ntable = Table([Col("Id")], rows)\nrows = [["A-1"]]\n',
    // A fence on the last line, with no newline after it, closes nothing and opens an empty program.
    "((oot = Stack([a, b])\n```(",
  ];
  for (const text of cases) {
    const whole = JSON.stringify(parse(text, small).errors);
    for (let size = 1; size <= 13; size++) {
      const stream = createStreamParser(small);
      for (let i = 0; i < text.length; i += size) stream.push(text.slice(i, i + size));
      assert.equal(JSON.stringify(stream.end().errors), whole, `chunks of ${size}: ${JSON.stringify(text)}`);
    }
  }
});

test("a bracket left open on a broken line does not make each chunk read the rest of the stream again", () => {
  const body = Array.from({ length: 400 }, (_, i) => `s${i} = Text("line ${i}")`).join("\n");
  // `[` never closes; until a statement starts on a later line, it might.
  const text = `root = Stack([s0)\n${body}\n`;
  const before = unitsParsed();
  const stream = createStreamParser(small);
  for (let i = 0; i < text.length; i += 40) stream.push(text.slice(i, i + 40));
  const result = stream.end();
  const read = unitsParsed() - before;
  assert.equal(result.errors[0].code, "syntax");
  // A valid program of this size reads about 1.8 units per unit streamed; quadratic work read 356.
  assert.ok(read < 4 * text.length, `${read} code units parsed for ${text.length} streamed`);
});

test("a result read after later chunks still says what it said when it was made", () => {
  // `a` is defined again later: an early result still shows the first one.
  const chunks = [
    'root = Stack([a, b, ghost])\na = Text("x")\nb = Text("b")\n',
    'b = Card("T", [Nope()])\na = Text("z")\n',
    'x = Text("y")\nghost = Text("g")\n',
  ];
  const fields = (r: ParseResult) => JSON.stringify([r.root, r.errors, r.unresolved, r.orphaned, r.statements, r.incomplete]);
  // Read at once, chunk by chunk.
  const eager = createStreamParser(small);
  const now = chunks.map((chunk) => fields(eager.push(chunk)));
  // Read only after every chunk is in.
  const lazy = createStreamParser(small);
  const results = chunks.map((chunk) => lazy.push(chunk));
  assert.deepEqual(results.map(fields), now);
  assert.notEqual(now[0], now[2]);
});

test("parse never throws on any string", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 200, unit: "binary" }), (text) => {
      const result = parse(text, small);
      assert.ok(Array.isArray(result.errors));
      void result.root;
    }),
    { numRuns: 500 },
  );
});

test("real samples: every prefix parses; the stream ends where parse() does", () => {
  if (FIXTURES_MISSING) return console.log(`skipped: ${FIXTURES_MISSING}`);
  const lib = compileLibrary(realLibraryConfig());
  for (const [name, text] of Object.entries(realSamples())) {
    for (let i = 0; i <= text.length; i += 13) void parse(text.slice(0, i), lib).root;
    const cuts = Array.from({ length: Math.ceil(text.length / 40) }, (_, i) => i * 40);
    assert.equal(json(streamIn(text, cuts, lib)), json(parse(text, lib)), name);
  }
});

test("a statement cut mid-stream is shown with its strings and brackets closed, marked partial", () => {
  const stream = createStreamParser(small);
  const result = stream.push('root = Stack([card])\ncard = Card("Tit');
  assert.equal(result.incomplete, true);
  const card = (result.root?.props.children as { component: string; partial: boolean; props: { title: string } }[])[0];
  assert.equal(card.component, "Card");
  assert.equal(card.partial, true);
  assert.equal(card.props.title, "Tit");
  const next = stream.push('le", [Text("a"), ');
  const children = (next.root?.props.children as { props: { children: { props: { text: string } }[] } }[])[0].props.children;
  assert.deepEqual(
    children.map((c) => c.props.text),
    ["a"],
  );
  assert.deepEqual(
    stream.end().errors.map((e) => e.code),
    ["incomplete"],
  );
});

test("a statement is final once its line ends: an orphan is reported then, not one statement later; an open ternary waits", () => {
  const stream = createStreamParser(small);
  stream.push('root = Stack([a])\na = Text("a")\n');
  assert.deepEqual(stream.push('x = Text("x")').orphaned, []); // the line may still go on
  const ended = stream.push("\n");
  assert.deepEqual(ended.orphaned, ["x"]);
  assert.deepEqual(ended.errors, []); // while streaming, orphans are listed; end() reports them
  // The last statement, its line ended, is shown final (not partial).
  const last = stream.push('b = Text("b")\n');
  assert.deepEqual(last.orphaned, ["x", "b"]);
  // A ternary still open at the end of its line is not a statement yet: its `:` line may follow.
  assert.deepEqual(stream.push("c = $on ? 1\n").orphaned, ["x", "b"]);
  assert.deepEqual(stream.push("  : 2\n").orphaned, ["x", "b", "c"]);
  // A `?` line continues a statement whose line had ended; it stays what parse() reads.
  assert.deepEqual(stream.push("  ? 3\n  : 4\n").orphaned, ["x", "b", "c"]);
  const final = stream.end();
  const whole = parse('root = Stack([a])\na = Text("a")\nx = Text("x")\nb = Text("b")\nc = $on ? 1\n  : 2\n  ? 3\n  : 4\n', small);
  assert.deepEqual(final.orphaned, ["x", "b", "c"]);
  assert.equal(json(final), json(whole));
});

test("the statement whose line ended is shown final in the display tree", () => {
  const stream = createStreamParser(small);
  const open = stream.push('root = Stack([a])\na = Text("a")');
  const child = (r: ParseResult) => (r.root!.props.children as { partial: boolean }[])[0];
  assert.equal(child(open).partial, true);
  assert.equal(child(stream.push("\n")).partial, false);
});

test("several fenced blocks stream to what parse() gives, for any chunking; a closed block's statements are final", () => {
  const texts = [
    'Layout:\n```ui\nroot = Stack([card])\n```\nThe card:\n```\ncard = Card("T", [Text("a"), more])\n```\nand\n```ui\nmore = Button("Go")\nx = Text("orphan")\n```\nDone.',
    'A\n```\nroot = Stack([a,\n```\nroot = nonsense(\n```\na = Text("x")\nb = Nope(\n```\nB',
    "```\nroot = Stack([a])\n```\n```\na = Text(1)\n```\n```\nb = [a",
    "x\n```ui\n```\n```\n```\n",
  ];
  for (const text of texts) {
    const whole = json(parse(text, small));
    for (let size = 1; size <= 17; size += 2) {
      const cuts = Array.from({ length: Math.ceil(text.length / size) }, (_, i) => i * size);
      assert.equal(json(streamIn(text, cuts)), whole, `chunks of ${size}: ${JSON.stringify(text)}`);
    }
  }
  const stream = createStreamParser(small);
  stream.push('```\nroot = Stack([a])\n```\nprose\n```\na = Text("a")\nx = Text("x")\n```\n');
  const between = stream.push("More prose");
  assert.deepEqual(between.orphaned, ["x"]);
  assert.deepEqual(between.errors, []);
  assert.equal(between.statements, 3);
});

test("random texts with fences stream to what parse() gives", () => {
  const pieces = fc.constantFrom("```\n", "```ui\n", "prose\n", "root = Stack([a, b])\n", 'a = Text("x")\n', "b = [a", "]\n", "\n", "c = Nope()\n");
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 20 }), (parts, cuts) => {
      const text = parts.join("");
      assert.equal(
        json(
          streamIn(
            text,
            cuts.map((c) => c % (text.length + 1)),
          ),
        ),
        json(parse(text, small)),
      );
    }),
    { numRuns: 400 },
  );
});

// Each chunk's result against a stream given the same text in one push: reading a cut statement
// on from where the last chunk left it must say what reading it whole says.
const fields = (r: ParseResult) => JSON.stringify([r.errors, r.unresolved, r.orphaned, r.statements, r.incomplete, r.root]);
function pushesAgree(text: string, cuts: number[], lib = small): void {
  const stream = createStreamParser(lib);
  let at = 0;
  for (const cut of [...cuts, text.length].sort((a, b) => a - b)) {
    if (cut <= at) continue;
    const got = fields(stream.push(text.slice(at, cut)));
    at = cut;
    const whole = createStreamParser(lib);
    assert.equal(got, fields(whole.push(text.slice(0, at))), `after ${at} of ${JSON.stringify(text)}`);
  }
  assert.equal(json(stream.end()), json(parse(text, lib)));
}

// Long statements, on one line and over many, nested deep, with the pieces a cut can fall in.
const itemArb = fc.constantFrom(
  '"a, b"',
  "'c'",
  "1",
  "-2.5e3",
  "[1, 2]",
  "{k: [3]}",
  'Text("t")',
  "x",
  "x.y",
  "x[0]",
  "@count(x)",
  "Action([])",
  "true",
  "null",
  "(1 + 2)",
  "# note\n",
  "// note\n",
  "\n",
  "\r\n",
  " ",
  "a ? 1 : 2",
  "'it\\'s, [x'",
  '"q\\", ["',
  "a /b",
  "a/ /b",
);
const badArb = fc.constantFrom("1 2", ",,", ")", "]", "}", '"open\n', "(1, 2)", "x[1, 2]", "=", "Foo(a: 1)", "\\", "'", "[");
const longArb = fc
  .tuple(
    fc.constantFrom("rows = [", "root = Stack([", 't = Table([Col("a")], [', "o = {a: [", "  deep = [[[[", "v = c ? [", "w = Action(["),
    fc.array(fc.oneof({ weight: 8, arbitrary: itemArb }, { weight: 1, arbitrary: badArb }), { maxLength: 30 }),
    fc.constantFrom("", "]", "])", "]]]]", "]}", "]\n", '])\nx = Text("x")\n', "]\nroot = Stack([rows])\n"),
  )
  .map(([head, items, end]) => head + items.join(", ") + end);

test("each chunk says what the same text in one push says, for long, nested and broken statements", () => {
  fc.assert(
    fc.property(longArb, fc.array(fc.nat(), { maxLength: 30 }), (text, cuts) => {
      pushesAgree(
        text,
        cuts.map((c) => c % (text.length + 1)),
      );
    }),
    { numRuns: 600 },
  );
  fc.assert(
    fc.property(
      fc.oneof(fc.constantFrom(...VALID, ...INVALID), programArb, mutationArb([...VALID, ...INVALID])),
      fc.array(fc.nat(), { maxLength: 20 }),
      (text, cuts) => {
        pushesAgree(
          text,
          cuts.map((c) => c % (text.length + 1)),
        );
      },
    ),
    { numRuns: 300 },
  );
});

test("a long statement streams in work that grows with its length: each chunk reads what follows the last whole item", () => {
  const items = (n: number, sep: string) => Array.from({ length: n }, (_, i) => `[${i}, "r${i}", {k: Text("t")}]`).join(sep);
  const texts = [
    // One line of 20k characters.
    `root = Stack([t])\nt = Table([Col("a")], rows)\nrows = [${items(700, ", ")}]\n`,
    // The same over many lines, and inside a call, nested (each chunk reads the open brackets again:
    // at most MAX_NESTING of them).
    `root = Stack([t])\nt = Table([Col("a")], rows)\nrows = [\n  ${items(700, ",\n  ")}\n]\n`,
    `root = Stack([Card("x", [${"[".repeat(30)}${items(500, ", ")}${"]".repeat(30)}])])\n`,
  ];
  for (const text of texts) {
    const before = unitsParsed();
    const stream = createStreamParser(small);
    for (let i = 0; i < text.length; i += 40) stream.push(text.slice(i, i + 40));
    const result = stream.end();
    const read = unitsParsed() - before;
    assert.equal(json(result), json(parse(text, small)));
    // Reading the cut statement from its start at each chunk reads ~text.length² / 40 units.
    assert.ok(read < 6 * text.length, `${read} code units parsed for ${text.length} streamed`);
  }
});

// Long last lines that more text on the same line either cannot change (a broken line that
// reading as a statement gave up on early) or changes only in how much string it shows (a
// statement cut inside a long string): escapes valid and not, quotes, brackets, line breaks.
const pieceArb = fc.constantFrom(
  "word ",
  "a, ",
  "(",
  "[",
  ")",
  '"',
  "'",
  '\\"',
  "\\'",
  "\\n",
  "\\u00e9",
  "\\x",
  "\\u12G",
  "\\",
  "x",
  " ",
  "\n",
  "\ny = 1\n",
  "?",
  ":",
);
const longLineArb = fc
  .tuple(
    fc.constantFrom("", "root = Stack([t])\n", 'root = Stack([t])\nt = Text("a")\n'),
    fc.constantFrom('t = Text("', "t = Text('", 'note "', "(", "word ", "t = Stack([", "x = 1 2 ", "? "),
    fc.array(pieceArb, { minLength: 40, maxLength: 160 }),
  )
  .map(([before, start, pieces]) => before + start + pieces.join(""));

test("a long last line streams to what one push of the same text says, chunk by chunk", () => {
  fc.assert(
    fc.property(longLineArb, fc.array(fc.nat(), { maxLength: 40 }), (text, cuts) => {
      pushesAgree(
        text,
        cuts.map((c) => c % (text.length + 1)),
      );
    }),
    { numRuns: 400 },
  );
});

test("a long broken line, or a statement cut inside a long string, streams in work that grows with its length", () => {
  const texts = [
    'root = Stack([])\n"' + '\\"'.repeat(10_000),
    "root = Stack([])\nHere is what I made for you, " + "word ".repeat(4_000),
    "root = Stack([])\n(" + "a, ".repeat(7_000),
    'root = Stack([t])\nt = Text("' + 'words \\"quoted\\" \\u00e9 '.repeat(1_000),
    "root = Stack([t])\nt = Text('" + "it\\'s ".repeat(3_000),
  ];
  for (const text of texts) {
    const before = unitsParsed();
    const stream = createStreamParser(small);
    for (let i = 0; i < text.length; i += 40) void stream.push(text.slice(i, i + 40)).errors;
    const result = stream.end();
    const read = unitsParsed() - before;
    assert.equal(json(result), json(parse(text, small)));
    // Reading the line again at every chunk reads about text.length² / 80 units (1,250 per unit here).
    assert.ok(read < 6 * text.length, `${read} code units parsed for ${text.length} streamed: ${text.slice(0, 40)}`);
  }
});

test("statements nested near and past the nesting limit stream to what parse() gives, chunk by chunk", () => {
  const nested = (depth: number) => `root = Stack([a])\na = ${"[1, ".repeat(depth)}2${"]".repeat(depth)}\nb = Text("x")\n`;
  for (const text of [nested(1000), nested(1300), `root = Stack([${"Card([".repeat(500)}Text("t")${"])".repeat(500)}])\n`]) {
    for (const size of [40, 7]) {
      const cuts = Array.from({ length: Math.ceil(text.length / size) }, (_, i) => i * size);
      assert.equal(json(streamIn(text, cuts)), json(parse(text, small)), `chunks of ${size}`);
    }
    // Every 50th chunk's result against the same prefix in one push.
    pushesAgree(
      text,
      Array.from({ length: Math.ceil(text.length / 400) }, (_, i) => i * 400 + 3),
    );
  }
});

test("a statement that refers only to itself is an orphan while it is the last one and after", () => {
  const stream = createStreamParser(small);
  stream.push('root = Stack([a])\na = Text("a")\nx = [x]\n');
  assert.deepEqual(stream.push("b = Te").orphaned, ["x"]);
  assert.deepEqual(stream.push('xt("b")\n').orphaned, ["x", "b"]);
  assert.deepEqual(stream.push('c = Text("c")\n').orphaned, ["x", "b", "c"]);
  assert.deepEqual(stream.end().orphaned, parse('root = Stack([a])\na = Text("a")\nx = [x]\nb = Text("b")\nc = Text("c")\n', small).orphaned);
});

test("after a long broken line and its line break, a chunk without one starts a statement: it is read, not the last result kept", () => {
  // A broken line of 200 units or more that stopped early is kept as it is while its line grows;
  // once its line has ended, the next chunk is on a line of its own.
  for (const broken of [`x = [1 2${", 3".repeat(70)}]\n`, `x = Stack([1 2${", 3".repeat(70)}\n])\n`]) {
    for (const next of ["a", 'root = Text("a")']) pushesAgree(broken + next, [broken.length]);
  }
});
