// "Did you mean …?" for messages: the candidate closest to a misspelt name, case ignored, within
// a third of the word (at least one edit; a swap of two neighbours is one). Three row buffers for
// all comparisons (the sanitizer's nearest() uses the same distance).

let row = new Int32Array(64);
let prev = new Int32Array(64);
let prev2 = new Int32Array(64);

/** Edit distance (insert, delete, substitute, swap neighbours) between a and b, ignoring case. */
export function distance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  if (row.length <= b.length) {
    row = new Int32Array(b.length * 2 + 1);
    prev = new Int32Array(b.length * 2 + 1);
    prev2 = new Int32Array(b.length * 2 + 1);
  }
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, prev2[j - 2] + 1);
      row[j] = d;
    }
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[b.length];
}

/** The candidate closest to `word`, or null when none is close enough. Ties go to the first. */
export function closest(word: string, candidates: Iterable<string>): string | null {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | null = null;
  let bestD = limit + 1;
  for (const c of candidates) {
    if (Math.abs(c.length - word.length) >= bestD) continue;
    const d = distance(word, c);
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** Up to `max` names, then how many more. */
export function someOf(names: readonly string[], max = 8): string {
  return names.length > max ? `${names.slice(0, max).join(", ")} (and ${names.length - max} more)` : names.join(", ");
}
