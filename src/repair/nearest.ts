// Closest-name lookup for misspellings: case-insensitive edit distance with transpositions, the
// language core's, through its eachWithin (bounded, candidates that cannot win passed over).
import { distance, eachWithin } from "../lang/suggest.ts";

export { distance };

/** How far a misspelling may stray: at least 2, a third of the word for longer words. */
export function closeEnough(word: string): number {
  return Math.max(2, Math.floor(word.length / 3));
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  a = a.toLowerCase();
  b = b.toLowerCase();
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The candidate closest to `word` within `limit` (default closeEnough), or null. Ties go to the
 * longer shared prefix, then to the first in candidate order, so the answer is deterministic.
 */
export function nearest(word: string, candidates: Iterable<string>, limit = closeEnough(word)): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  let bestP = -1;
  // Past the limit, or past the best so far, a candidate cannot win: its distance is not needed.
  eachWithin(
    word,
    candidates,
    () => Math.min(limit, bestD) + 1,
    (c, d) => {
      if (c === word) {
        best = c;
        return true;
      }
      const p = commonPrefix(word, c);
      if (d < bestD || p > bestP) {
        best = c;
        bestD = d;
        bestP = p;
      }
    },
  );
  return best;
}
