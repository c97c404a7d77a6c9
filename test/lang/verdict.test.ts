// The fast verdict (src/grammar/verdict.as) against the checker: parse() consults it first and
// trusts a yes, so a yes must never hide an error, and the programs models write must get one.
import assert from "node:assert/strict";
import fc from "fast-check";
import { test } from "../support/harness.ts";
import { compileLibrary, loadLanguage, parse } from "../../src/lang/index.ts";
import type { Library } from "../../src/lang/library.ts";
import { checkedInspect, checkedParse, inspect, partialChecks, quickVerdict, statementsBuiltByPartialChecks } from "../../src/lang/parse.ts";
import { bigGeneration } from "../../bench/server.ts";
import { FIXTURES_MISSING, realLibraryConfig, realSamples } from "../support/fixtures.ts";
import { SMALL_LIBRARY } from "./library-fixture.ts";
import { libraryProgram } from "./library-programs.ts";
import { schemaProgram } from "./schema-programs.ts";
import { VALID, INVALID } from "../conformance/corpus.ts";
import { mutationArb, programArb } from "../conformance/generators.ts";
import { STACK_TEXT_LIBRARY } from "../support/stack-text-library.ts";

await loadLanguage();
const small = compileLibrary(SMALL_LIBRARY);
const json = (value: unknown) => JSON.stringify(value);

test("parse() equals the checker's answer on corpus, random, mutated and library-directed programs", () => {
  const generated = Array.from({ length: 60 }, (_, i) => libraryProgram(i));
  const texts = fc.oneof(
    fc.constantFrom(...VALID, ...INVALID),
    programArb,
    mutationArb([...VALID, ...INVALID]),
    fc.integer().map(libraryProgram),
    mutationArb(generated),
  );
  let partial = 0;
  fc.assert(
    fc.property(texts, (text) => {
      const answers = partialChecks();
      assert.equal(json(parse(text, small)), json(checkedParse(text, small)), text);
      // inspect() (the sanitizer's view, errors placed) takes the verdict's answers as well.
      assert.equal(json(inspect(text, small)), json(checkedInspect(text, small)), text);
      if (partialChecks() > answers) partial++;
    }),
    { numRuns: 3000 },
  );
  // Invalid programs whose errors lie in some statements' own checks take the partial path
  // (only those statements checked): held to the checker above, so it must be taken often.
  assert.ok(partial > 150, `the partial verdict answered ${partial} of 3000`);
});

test("an invalid 100k program: only the statements that hold the error are built and checked, and the answer is the checker's", () => {
  const lib = compileLibrary(STACK_TEXT_LIBRARY);
  const valid = bigGeneration();
  const lineAt = (fraction: number) => {
    const start = valid.indexOf("\nt", Math.floor(valid.length * fraction)) + 1;
    return { start, end: valid.indexOf("\n", start) };
  };
  const edit = (fraction: number, change: (line: string) => string) => {
    const { start, end } = lineAt(fraction);
    return valid.slice(0, start) + change(valid.slice(start, end)) + valid.slice(end);
  };
  // [program, statements the partial check may build (null: not the partial path)]
  const cases: [string, number | null][] = [
    [edit(0.5, (l) => l.replace("Text(", "Txt(")), 1],
    [edit(0.1, (l) => l.replace(/"(small|large)"\)$/, '"Small")')), 1],
    [edit(0.9, (l) => l.replace(/\)$/, ', "extra")')), 1],
    [edit(0.5, (l) => l.replace(/Text\("[^"]*"/, "Text(42")), 1],
    [edit(0.5, (l) => l.replace(/Text\("[^"]*"/, "Text(@Nope(1)")), 1],
    [edit(0.5, (l) => l.replace(/Text\("[^"]*"/, 'Text(Query("q")')), 1],
    // Two errors far apart, and an error in a statement that takes its value from another one.
    [edit(0.8, (l) => l.replace("Text(", "Txt(")).replace(/\nt(\d+) = Text\(/, "\nt$1 = Tx("), 2],
    [valid.replace(/\nt(\d+) = Text\("[^"]*"/, "\nt$1 = Text(label") + "\nlabel = 5", 2],
    // References to nothing: the checker words them (with the suggestion it finds among every name).
    [valid.replace(/\nt(\d+) = Text\("[^"]*"/, "\nt$1 = Text(nowhere"), 1],
    [valid.replace(/\nt(\d+) = Text\("[^"]*"/, "\nt$1 = Text(t99999"), 1],
    // In root, which refers to every statement: each is looked up (built), only root is checked.
    [valid.replace("root = Stack([t0, ", "root = Stack([t0, ghost, "), Infinity],
    // Orphans: found by the verdict, nothing built for them.
    [valid + '\nextra = Text("x")', 0],
    [valid + '\nextra = Text("x")\nmore = Stack([extra, Txt("y")])', 2],
    // Not the partial path: a cycle, a broken line.
    [valid + "\nc1 = c2\nc2 = c1", null],
    [edit(0.5, (l) => l.replace(/\)$/, "")), null],
  ];
  for (const [k, [text, builds]] of cases.entries()) {
    const before = statementsBuiltByPartialChecks();
    const answers = partialChecks();
    const result = parse(text, lib);
    const built = statementsBuiltByPartialChecks() - before;
    assert.equal(partialChecks() - answers, builds === null ? 0 : 1, `case ${k}: the partial path`);
    const checked = checkedParse(text, lib);
    assert.ok(result.errors.length > 0, `case ${k}`);
    assert.equal(json(result), json(checked), `case ${k}`);
    assert.equal(json(inspect(text, lib)), json(checkedInspect(text, lib)), `case ${k}`);
    if (builds !== null) assert.ok(built <= builds, `case ${k}: ${built} statements built`);
  }
});

test("@Each: the loop variable is no reference in its template; parse() equals the checker", () => {
  let each = 0;
  let yes = 0;
  for (let seed = 0; seed < 6000; seed++) {
    const text = libraryProgram(seed);
    if (!text.includes("@Each")) continue;
    each++;
    if (quickVerdict(text, small) >= 0) yes++;
    assert.equal(json(parse(text, small)), json(checkedParse(text, small)), text);
  }
  // The verdict decides most valid ones itself, rather than leaving every @Each to the checker.
  assert.ok(each > 500 && yes > each / 5, `${yes} yes of ${each}`);
});

test("a first parse of an empty text leaves memory laid out for the parses after it", () => {
  // The engine is loaded once per process, so this runs in a fresh one. Parsing "" first once
  // let the verdict's tables land on the module's static data, and every later verdict say yes.
  const invalid = 's1 = Text("q")\ns3 = Col("c", {width: "w"})\nroot = Stack([s1, s3])\n';
  const script = [
    `import { compileLibrary, loadLanguage, parse } from ${json(new URL("../../src/lang/index.ts", import.meta.url).pathname)};`,
    `import { SMALL_LIBRARY } from ${json(new URL("./library-fixture.ts", import.meta.url).pathname)};`,
    "await loadLanguage();",
    "const lib = compileLibrary(SMALL_LIBRARY);",
    'parse("", lib);',
    `console.log(JSON.stringify(parse(${json(invalid)}, lib).errors.map((e) => e.code)));`,
  ].join("\n");
  const run = Bun.spawnSync([process.execPath, "-e", script]);
  assert.equal(run.exitCode, 0, run.stderr.toString());
  assert.deepEqual(JSON.parse(run.stdout.toString()), ["type-mismatch"]);
  assert.deepEqual(
    parse(invalid, small).errors.map((e) => e.code),
    ["type-mismatch"],
  );
});

test("the verdict says yes to valid programs models write, and the checker agrees", () => {
  const yes = [
    'root = Stack([header, table], "column")\nheader = Text("Orders", "l")\ntable = Table([Col("Id"), Col("Total", {width: 3})], rows)\nrows = [["A-1", 12.5], ["A-2", 40]]\n',
    'card = Card("T", [Text("a", "s"), Button("Go", "go", 2)])\nroot = Stack([card])\n',
    'root = Stack([a, b])\nb = Card(title, [a2])\na = Button("x")\na2 = Text(title, null)\ntitle = "Hi" + $name\n$name = "n"\n',
    '$days = 7\nq = Query("orders", {days: $days}, {rows: []}, 30)\nm = Mutation("save", {id: 1})\nroot = Stack([Button("Save", Action([@Run(m), @Set($days, 1)]))])\n',
    'root = Stack(\n  [\n    Text(\'it is\', "m"), // inside\n    Col("c", {width: -1.5e2}),\n  ],\n)\n',
    'root = (Stack([@Count(q.rows) > 2 ? Text("many") : Text("few")]))\nq = Query("x")\n',
    'root = Stack([@Each(rows, "row", Card(row.title, [Text(row, "s"), Button(label)]))])\nrows = [{title: "a"}]\nlabel = "Go"\n',
  ];
  for (const text of yes) {
    assert.equal(checkedParse(text, small).errors.length, 0, text);
    assert.ok(quickVerdict(text, small) >= 0, `the verdict leaves this to the checker:\n${text}`);
    assert.equal(parse(text, small).statements, checkedParse(text, small).statements);
  }
  // What it leaves to the checker: the checker's answer stands, errors and all.
  const no = [
    'root = Stack([a])\na = Text("x")\na = Text("y")\n',
    "root = Stack([a])\na = [b]\nb = [a]\n",
    'root = Stack([Text("a", "s", 1)])\n',
    // A builtin that does not exist, called without arguments as a whole right side.
    "root = Stack([a])\na = @Nope()\n",
  ];
  for (const text of [...INVALID, ...no]) {
    assert.equal(quickVerdict(text, small), -1, text);
  }
});

test("schema corners the verdict leaves to the checker: escaped and non-string enum members, const, fractions", () => {
  const lib = compileLibrary({
    root: "Stack",
    schema: {
      $defs: {
        Stack: { properties: { children: { type: "array" } }, required: ["children"] },
        E: { properties: { v: { enum: ["a\\b", 1, "x"] } }, required: ["v"] },
        C: { properties: { v: { const: "k" } }, required: ["v"] },
        I: { properties: { v: { type: "integer" } }, required: ["v"] },
      },
    },
  });
  const cases: [string, boolean][] = [
    ['E("x")', true],
    ['E("a\\\\b")', false], // the member a\b, written escaped
    ["E(1)", false],
    ['E("y")', false],
    ['C("k")', false],
    ["I(3)", true],
    ["I(3.0)", false],
    ["I(2.5)", false],
  ];
  for (const [call, yes] of cases) {
    const text = `root = Stack([${call}])\n`;
    assert.equal(json(parse(text, lib)), json(checkedParse(text, lib)), text);
    assert.equal(quickVerdict(text, lib) >= 0, yes, text);
  }
});

test("real samples: the six valid ones get the verdict, settings-panel the checker's five errors", () => {
  if (FIXTURES_MISSING) return console.log(`skipped: ${FIXTURES_MISSING}`);
  const lib = compileLibrary(realLibraryConfig());
  const samples = realSamples();
  for (const [name, text] of Object.entries(samples)) {
    const checked = checkedParse(text, lib);
    assert.equal(json(parse(text, lib)), json(checked), name);
    if (name === "settings-panel.oui") assert.equal(quickVerdict(text, lib), -1);
    else assert.equal(quickVerdict(text, lib), checked.statements, name);
  }
  // Mutated, they break in the ways real outputs break; parse() still answers as the checker does.
  fc.assert(
    fc.property(mutationArb(Object.values(samples)), (text) => {
      assert.equal(json(parse(text, lib)), json(checkedParse(text, lib)), text);
      assert.equal(json(inspect(text, lib)), json(checkedInspect(text, lib)), text);
    }),
    { numRuns: 400 },
  );
});

// Programs written from a library's schema (schema-programs.ts): parse() answers as the checker,
// and the verdict itself decides most of those the checker finds valid (not those it leaves to
// the checker on purpose, such as 4.0 for an integer).
function holdsOnSchemaPrograms(lib: Library, runs: number): void {
  let valid = 0;
  let decided = 0;
  for (let seed = 0; seed < runs; seed++) {
    const text = schemaProgram(lib, seed);
    const checked = checkedParse(text, lib);
    assert.equal(json(parse(text, lib)), json(checked), text);
    if (checked.errors.length === 0) {
      valid++;
      if (quickVerdict(text, lib) === checked.statements) decided++;
    }
  }
  assert.ok(valid > runs / 10, `${valid} of ${runs} valid`);
  assert.ok(decided >= valid * 0.75, `the verdict decided ${decided} of ${valid} valid programs`);
}

test("programs written from the small library's schema: parse() equals the checker", () => {
  holdsOnSchemaPrograms(small, 1500);
});

test("programs written from the real library's schema: parse() equals the checker", () => {
  if (FIXTURES_MISSING) return console.log(`skipped: ${FIXTURES_MISSING}`);
  holdsOnSchemaPrograms(compileLibrary(realLibraryConfig()), 1500);
});
