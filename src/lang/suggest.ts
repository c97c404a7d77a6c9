// "Did you mean …?" for messages: the candidate closest to a misspelt name, case ignored, within
// a third of the word (at least one edit; a swap of two neighbours is one). Three row buffers for
// all comparisons (the sanitizer's nearest() uses the same distance).

let row = new Int32Array(64);
let prev = new Int32Array(64);
let prev2 = new Int32Array(64);

/**
 * Edit distance (insert, delete, substitute, swap neighbours) between a and b, ignoring case.
 * Past `bound` the exact figure is not needed: once a whole row reaches it (a row's least value
 * never falls from one row to the next), `bound` is returned.
 */
export function distance(a: string, b: string, bound = Infinity): number {
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
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, prev2[j - 2] + 1);
      row[j] = d;
      if (d < least) least = d;
    }
    [prev2, prev, row] = [prev, row, prev2];
    if (least >= bound) return bound;
  }
  return Math.min(prev[b.length], bound);
}

// The same distance for a word of at most 32 code units (lower-cased), one bit per letter of it,
// a candidate's letter at a time (Hyyrö's bit-vector form of the restricted edit distance): a
// step per letter of the candidate where the table takes one per pair of letters. `peq` holds,
// for each code unit, the positions of the word where it stands; it is cleared after each word.
const peq = new Int32Array(65536);

function bitDistance(word: string, c: string): number {
  const m = word.length;
  const top = 1 << (m - 1);
  let vp = m === 32 ? -1 : (1 << m) - 1;
  let vn = 0;
  let d0 = 0;
  let pmPrev = 0;
  let score = m;
  for (let j = 0; j < c.length; j++) {
    const pm = peq[c.charCodeAt(j)];
    const tr = ((~d0 & pm) << 1) & pmPrev;
    d0 = ((((pm & vp) + vp) | 0) ^ vp) | pm | vn | tr;
    const hp = vn | ~(d0 | vp);
    const hn = d0 & vp;
    if (hp & top) score++;
    else if (hn & top) score--;
    const x = (hp << 1) | 1;
    vn = x & d0;
    vp = (hn << 1) | ~(x | d0);
    pmPrev = pm;
  }
  return score;
}

// The letters of the word eachWithin() is asked about, counted (ASCII, case folded), and a bound
// from them: an edit changes at most two letters of the multiset (a swap none), so the distance
// is at least half the letters the two words do not share. A candidate's use of each letter is
// counted in `used`, valid where `stamp` holds the candidate's number: nothing to reset after it.
const counts = new Int32Array(128);
const used = new Int32Array(128);
const stamp = new Int32Array(128);
let candidate = 0;
const fold = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

// -1 when `c` has a letter outside ASCII (it may fold in other ways, by toLowerCase: no bound).
function sharedLetters(c: string): number {
  if (++candidate === 0x7fffffff) {
    stamp.fill(0);
    candidate = 1;
  }
  let shared = 0;
  for (let i = 0; i < c.length; i++) {
    const k = fold(c.charCodeAt(i));
    if (k >= 128) return -1;
    if (stamp[k] !== candidate) {
      stamp[k] = candidate;
      used[k] = 0;
    }
    if (used[k] < counts[k]) {
      used[k]++;
      shared++;
    }
  }
  return shared;
}

/**
 * Calls `visit(c, d)`, in candidate order, for each candidate `c` whose distance `d` from `word`
 * is below `bound()` (asked again for each candidate), until `visit` returns true. Candidates
 * sure to be at the bound are passed over unread: the distance is at least the difference in
 * length, and at least half the letters the two words do not share; 'aaa…' against 'bbb…' of
 * 30,000 letters each cost 10^9 steps of the distance.
 */
export function eachWithin(word: string, candidates: Iterable<string>, bound: () => number, visit: (c: string, d: number) => boolean | void): void {
  let ascii = true;
  for (let i = 0; i < word.length; i++) {
    const k = fold(word.charCodeAt(i));
    if (k >= 128) ascii = false;
    else counts[k]++;
  }
  // Lower case may change a word's length (İ): the table's path for words the bits cannot hold.
  const lower = word.toLowerCase();
  const bits = lower.length > 0 && lower.length <= 32;
  if (bits) for (let i = 0; i < lower.length; i++) peq[lower.charCodeAt(i)] |= 1 << i;
  try {
    for (const c of candidates) {
      const most = bound();
      if (Math.abs(c.length - word.length) >= most) continue;
      // Letters outside ASCII may fold in other ways (toLowerCase): no bound for those words.
      if (ascii) {
        const shared = sharedLetters(c);
        if (shared >= 0 && Math.ceil((word.length + c.length - 2 * shared) / 2) >= most) continue;
      }
      const d = bits ? Math.min(bitDistance(lower, c.toLowerCase()), most) : distance(word, c, most);
      if (d < most && visit(c, d)) return;
    }
  } finally {
    if (bits) for (let i = 0; i < lower.length; i++) peq[lower.charCodeAt(i)] = 0;
    for (let i = 0; i < word.length; i++) {
      const k = fold(word.charCodeAt(i));
      if (k < 128) counts[k]--;
    }
  }
}

/** The candidate closest to `word`, or null when none is close enough. Ties go to the first. */
export function closest(word: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestD = Math.max(1, Math.floor(word.length / 3)) + 1;
  eachWithin(
    word,
    candidates,
    () => bestD,
    (c, d) => {
      best = c;
      bestD = d;
    },
  );
  return best;
}

/** Up to `max` names, then how many more. */
export function someOf(names: readonly string[], max = 8): string {
  return names.length > max ? `${names.slice(0, max).join(", ")} (and ${names.length - max} more)` : names.join(", ");
}
