// A name's sites as a word, found by a regular expression: the same as reading every occurrence
// and looking at the characters around it.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { NAME_CHARS, wordSites } from "../../src/repair/word-sites.ts";

/** The plain reading: every occurrence, skipping those a name character touches. */
function reference(text: string, name: string, from: number, after: RegExp): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(name, from); at !== -1; at = text.indexOf(name, at + name.length)) {
    if (/[A-Za-z0-9_$]/.test(text[at - 1] ?? "") || after.test(text[at + name.length] ?? "")) continue;
    out.push(at);
  }
  return out;
}

test("the sites of any name in any text, from any offset, as the plain reading finds them", () => {
  const unit = fc.constantFrom("a", "b", "t", "1", "_", "$", " ", "(", ",", "\n", '"', "=");
  const name = fc.string({ unit: fc.constantFrom("a", "b", "t", "1", "_"), minLength: 1, maxLength: 3 }).filter((n) => !/^[0-9]/.test(n));
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 40 }), name, fc.boolean(), fc.nat(40), fc.boolean(), (text, n, state, from, dollarAfter) => {
      const id = state ? `$${n}` : n;
      const start = Math.min(from, text.length);
      const after = dollarAfter ? NAME_CHARS : "A-Za-z0-9_";
      expect([...wordSites(text, id, start, after)]).toEqual(reference(text, id, start, new RegExp(`[${after}]`)));
    }),
    { numRuns: 3000 },
  );
});

test("found one at a time, and never for an empty name", () => {
  const sites = wordSites("t1 = X(t1, t10, at1, t1)", "t1");
  expect(sites.next().value).toBe(0);
  expect([...sites]).toEqual([7, 21]);
  expect([...wordSites("abc", "")]).toEqual([]);
});
