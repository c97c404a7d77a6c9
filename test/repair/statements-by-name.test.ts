// A round's statements by name: found in the text for the few names a round asks about, the
// same answers as a Map of every name (a later definition replacing an earlier one), which is
// made only when the names are iterated or looked up too often.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { compileLibrary, inspect, loadLanguage, type Statement } from "../../src/lang/index.ts";
import { makeRound, StatementsByName } from "../../src/repair/round.ts";
import { roundEdits } from "../../src/repair/sanitize.ts";
import { bigGeneration } from "../../bench/server.ts";
import { STACK_TEXT_LIBRARY } from "../support/stack-text-library.ts";

await loadLanguage();
const lib = compileLibrary(STACK_TEXT_LIBRARY);

/** What a round's lookups answered before: a Map filled in source order, a redefinition moved last. */
function mapOf(statements: Statement[]): Map<string, Statement> {
  const m = new Map<string, Statement>();
  for (const s of statements) {
    m.delete(s.id);
    m.set(s.id, s);
  }
  return m;
}

const NAMES = ["a", "ab", "b", "root", "t1", "t10", "$x", "x"];

test("answers as the map of every name does, for any program (redefinitions, names in strings, prefixes)", () => {
  const line = fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...NAMES), fc.constantFrom(...NAMES), fc.boolean()).map(([id, ref, word, broken]) => {
    const head = `${id} = `;
    if (broken) return `${head}Text("${word} = ${ref}", `; // a broken line: not a statement
    return id.startsWith("$") ? `${head}"${word}"` : `${head}Stack([${ref}, Text("${word} ${ref}=", "small")])`;
  });
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), fc.constantFrom("", "  "), (lines, indent) => {
      const text = lines.map((l) => indent + l).join("\n");
      const ins = inspect(text, lib);
      const expected = mapOf(ins.statements);
      // Looked up first (from the text), then iterated (the map), then looked up again.
      const byName = new StatementsByName(ins.statements);
      for (const id of [...NAMES, "", "nothing", "Text"]) {
        expect(byName.get(id)).toBe(expected.get(id));
        expect(byName.has(id)).toBe(expected.has(id));
      }
      expect([...byName.keys()]).toEqual([...expected.keys()]);
      expect([...byName.values()]).toEqual([...expected.values()]);
      expect(byName.size).toBe(expected.size);
      for (const id of NAMES) expect(byName.get(id)).toBe(expected.get(id));
    }),
    { numRuns: 400 },
  );
});

test("past a few names, lookups go to the map, with the same answers", () => {
  const text = ["root = Stack([b0])", ...Array.from({ length: 100 }, (_, i) => `b${i} = Text("b${i}", "small")`), 'b7 = Text("again", "small")'].join("\n");
  const ins = inspect(text, lib);
  const expected = mapOf(ins.statements);
  const byName = new StatementsByName(ins.statements);
  for (let i = 0; i < 20; i++) expect(byName.get(`b${i}`)).toBe(expected.get(`b${i}`));
  expect(byName.mapped).toBe(true);
  expect(byName.get("b7")?.end).toBe(text.length);
  expect(byName.get("b100")).toBeUndefined();
});

test("a round of a 100k program with one misspelt component never makes the map of its 1,400 names", () => {
  const valid = bigGeneration();
  const at = valid.indexOf("= Text(", valid.length >> 1);
  const broken = `${valid.slice(0, at)}= Txt(${valid.slice(at + 7)}`;
  const round = makeRound(broken, lib, inspect(broken, lib));
  const next = roundEdits(round, new Set([broken]));
  expect(next?.text).toBe(valid);
  expect(round.defs.mapped).toBe(false);
});
