// The compiled WebAssembly parser against Ohm's own reading of grammar/ui.ohm: the same
// accept/reject and the same tree (rules and spans), and where a statement fails the same
// rightmost failure position, on a corpus, the real samples, random programs and random mutations.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { test } from "../support/harness.ts";
import { loadOhm, ohmTree, type Node } from "../support/ohm-tree.ts";
import { FIXTURES_MISSING, realSamples } from "../support/fixtures.ts";
import { loadEngine, parseTree, recoveryUnitsRead, setInput, type StartRule } from "../../src/lang/engine.ts";
import { RULE_NAMES } from "../../src/lang/generated/rules.ts";
import { INVALID, VALID } from "./corpus.ts";
import { programArb, mutationArb, quotesArb } from "./generators.ts";

const grammar = loadOhm(readFileSync(new URL("../../grammar/ui.ohm", import.meta.url), "utf8"));
await loadEngine();

// What Ohm skips after the start rule before `end`: spaces and one comment.
const TRAILING = /^(?:[ \t\r\u00a0\ufeff]|(?:\/\/|#)[^\n]*)*$/;

function wasmTree(text: string, rule: StartRule): { end: number; nodes: Node[] } | null {
  setInput(text);
  const tree = parseTree(rule, 0, text.length);
  if (tree.end < 0 || !TRAILING.test(text.slice(tree.end))) return null;
  const nodes: Node[] = [];
  for (let i = 0; i < tree.count; i++) {
    const d = tree.data;
    nodes.push([RULE_NAMES[d[4 * i]], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]]);
  }
  return { end: text.length, nodes };
}

function agree(text: string, rule: StartRule = "Program"): void {
  const ohm = ohmTree(grammar, text, rule);
  const wasm = wasmTree(text, rule);
  assert.equal(wasm !== null, ohm !== null, `accept/reject differs on ${JSON.stringify(text)} (${rule})`);
  if (ohm && wasm) assert.deepEqual(wasm.nodes, ohm.nodes, `trees differ on ${JSON.stringify(text)} (${rule})`);
}

test("Ohm's default start rule accepts every valid program of the corpus", () => {
  for (const text of VALID) assert.ok(grammar.match(text).succeeded(), JSON.stringify(text));
});

test("corpus: the compiled parser and Ohm agree on every program, as a whole and statement by statement", () => {
  for (const text of [...VALID, ...INVALID]) {
    agree(text);
    for (const line of text.split("\n")) agree(line, "Line_statement");
  }
});

test("the invalid corpus has broken lines or fails as a statement", () => {
  for (const text of INVALID) {
    const lines = text.split("\n").filter((l) => l.trim());
    assert.ok(
      lines.some((l) => !grammar.match(l, "Line_statement").succeeded()),
      JSON.stringify(text),
    );
  }
});

test("real samples: the same tree from both parsers", () => {
  if (FIXTURES_MISSING) return console.log(`skipped real samples: ${FIXTURES_MISSING}`);
  for (const text of Object.values(realSamples())) agree(text);
});

test("random programs: the same accept/reject and tree", () => {
  fc.assert(
    fc.property(programArb, (text) => agree(text)),
    { numRuns: 300 },
  );
});

test("random mutations of valid programs: the same accept/reject and tree", () => {
  fc.assert(
    fc.property(mutationArb(VALID), (text) => {
      agree(text);
      for (const line of text.split("\n")) agree(line, "Line_statement");
    }),
    { numRuns: 400 },
  );
});

// Where a statement does not parse, the rightmost position any token was tried at is what
// tells a cut-off statement (incomplete) from a broken one: it must be Ohm's.
function sameFarthest(line: string): void {
  setInput(line);
  const tree = parseTree("Line_statement", 0, line.length);
  if (tree.end !== -1 || tree.overflow) return;
  const m = grammar.match(line, "Line_statement");
  assert.ok(m.failed(), `Ohm accepts what the compiled parser refuses: ${JSON.stringify(line)}`);
  assert.equal(tree.farthest, m.getRightmostFailurePosition(), `rightmost failure differs on ${JSON.stringify(line)}`);
}

test("failed statements: the same rightmost failure position as Ohm (corpus, mutations, every prefix of random lines)", () => {
  for (const text of [...VALID, ...INVALID]) for (const line of text.split("\n")) sameFarthest(line);
  fc.assert(
    fc.property(mutationArb(VALID), (text) => text.split("\n").forEach(sameFarthest)),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(programArb, (text) => {
      for (const line of text.split("\n")) for (let k = 0; k <= line.length; k++) sameFarthest(line.slice(0, k));
    }),
    { numRuns: 100 },
  );
});

// The compiled parser reads these once where a plain one reads them again (an array that an
// action call read before it failed, a string opened inside a string that failed, what an
// unclosed bracket of a broken line read): what it remembers must give what reading again gives.
test("arrays, failed strings and unclosed brackets read once: the same trees and failure positions as Ohm", () => {
  fc.assert(
    fc.property(quotesArb, (text) => {
      agree(text);
      for (let k = 0; k <= text.length; k++) sameFarthest(text.slice(0, k));
    }),
    { numRuns: 500 },
  );
  for (const text of [
    "x = Action([Action([1] + 1)] + 1)",
    "x = Action([Action([1]\n + 1)]\n, 2)",
    "x = Action([Action([a])[0]].a)",
    'x = "\\"\\" \'\\\'a\' "\\u12"',
  ]) {
    agree(text);
    agree(text, "Line_statement");
    for (let k = 0; k <= text.length; k++) sameFarthest(text.slice(0, k));
  }
});

// Every bracket of a broken line that does not close reads on to the end (or to a line that
// starts a statement), each inside the last: read item by item by each of them, 1,150 of them
// before 90,000 characters took half a second (100 million units read).
test("unclosed brackets of a broken line: each unit read at most once for each kind of bracket, however many are open", () => {
  const tail = "word ".repeat(18_000);
  for (const text of ["(".repeat(1150) + " " + tail, "(\n".repeat(1150) + tail, "([{".repeat(380) + tail, "x = 1 " + "[ ( ".repeat(500) + tail]) {
    setInput(text);
    const tree = parseTree("Program", 0, text.length);
    assert.equal(tree.overflow, false);
    assert.ok(recoveryUnitsRead() <= 3 * text.length, `${recoveryUnitsRead()} units read in brackets for ${text.length} of text`);
  }
  // Where they close, the broken line is the same one Ohm reads.
  agree("(".repeat(40) + ")".repeat(39) + "\nx = 1");
});

test("deep nesting is refused without a crash", () => {
  const deep = "a = " + "[".repeat(20000) + "]".repeat(20000);
  setInput(deep);
  const tree = parseTree("Line_statement", 0, deep.length);
  assert.equal(tree.end, -1);
  assert.equal(tree.overflow, true);
});
