// Closest-name lookup for misspellings: case-insensitive edit distance with transpositions.

/** Optimal-string-alignment distance between a and b, ignoring case. */
export function distance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

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
  for (const c of candidates) {
    if (c === word) return c;
    const d = distance(word, c);
    if (d > limit) continue;
    const p = commonPrefix(word, c);
    if (d < bestD || (d === bestD && p > bestP)) {
      best = c;
      bestD = d;
      bestP = p;
    }
  }
  return best;
}
