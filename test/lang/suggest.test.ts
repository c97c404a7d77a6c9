// closest() skips candidates by their length and by the letters they share with the word, and
// cuts a distance short once it cannot win: the same answers as comparing every candidate in full.
import assert from "node:assert/strict";
import fc from "fast-check";
import { test } from "../support/harness.ts";
import { closest, distance } from "../../src/lang/suggest.ts";

// The definition: every candidate's full distance, the first least one within the limit.
function closestByDefinition(word: string, candidates: string[]): string | null {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | null = null;
  let bestD = limit + 1;
  for (const c of candidates) {
    const d = distance(word, c);
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

const letters = fc.constantFrom(..."abcABCxyzXYZ_0123456789$", "é", "É", "K", "İ", "ß");
const name = fc.array(letters, { maxLength: 14 }).map((cs) => cs.join(""));

test("closest() answers as the full comparison of every candidate", () => {
  fc.assert(
    fc.property(name, fc.array(name, { maxLength: 30 }), (word, candidates) => {
      assert.equal(closest(word, candidates), closestByDefinition(word, candidates), JSON.stringify([word, candidates]));
    }),
    { numRuns: 20000 },
  );
  // Near misses of generated statement names, among many.
  const names = Array.from({ length: 1500 }, (_, i) => `root_${i}`);
  for (const word of ["root_12", "rot_12", "ROOT_1200", "roo_t99", "ghostPanel", "root__7", "Root_1499"]) {
    assert.equal(closest(word, names), closestByDefinition(word, names), word);
  }
});

test("distance() with a bound: exact below it, the bound at or past it", () => {
  fc.assert(
    fc.property(name, name, fc.integer({ min: 0, max: 8 }), (a, b, bound) => {
      const d = distance(a, b);
      assert.equal(distance(a, b, bound), d < bound ? d : bound);
    }),
    { numRuns: 20000 },
  );
});
