// Text edits by offset: every repair is a splice of the original text, so whatever no edit
// touches comes back byte for byte.

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies the edits that do not overlap an earlier one in the list (earlier = higher priority);
 * the skipped ones are retried by the next round on the re-parsed text. `kept`: those applied,
 * in position order.
 */
export function applyEdits(text: string, edits: Edit[]): { text: string; applied: number; kept: Edit[] } {
  // Kept in position order (by start, then end): an edit need only be checked against its
  // neighbours there, where a check against every kept edit made 10,000 edits cost 10^8 checks.
  const kept: Edit[] = [];
  for (const edit of edits) {
    const i = firstAtOrAfter(kept, edit);
    if (!clashes(kept, i, edit)) kept.splice(i, 0, edit); // passes give edits in order: mostly a push
  }
  let out = "";
  let at = 0;
  for (const edit of kept) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return { text: out + text.slice(at), applied: kept.length, kept };
}

// Stable by position: an insertion at p goes after a replacement that ends at p.
const before = (a: Edit, b: Edit) => a.start - b.start || a.end - b.end;

/** Where `edit` goes among the kept edits: the first one not before it. */
function firstAtOrAfter(kept: Edit[], edit: Edit): number {
  let lo = 0;
  let hi = kept.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(kept[mid], edit) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether `edit` overlaps a kept edit, or is an insertion where one is kept already. Kept edits
 * do not overlap, so in position order their ends rise too: of those before `edit`, the last
 * reaches furthest; of those from `i` on, only an insertion at its start can be passed over.
 */
function clashes(kept: Edit[], i: number, edit: Edit): boolean {
  const overlaps = (k: Edit) => edit.start < k.end && k.start < edit.end;
  if (i > 0 && overlaps(kept[i - 1])) return true;
  for (let j = i; j < kept.length && kept[j].start < edit.end; j++) if (overlaps(kept[j])) return true;
  const same = kept[i];
  return edit.start === edit.end && same !== undefined && same.start === edit.start && same.end === edit.start;
}

/** Start of the line holding offset `at`. */
export function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

/** The line break the program uses, so inserted lines match it. */
export function lineBreak(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/**
 * The edit that removes the whole lines covering [start, end) inside the program [from, to).
 * When the lines run to the program's end without a break, the break before them goes instead,
 * so no empty line is left behind.
 */
export function removeLines(text: string, start: number, end: number, from: number, to: number): Edit {
  let s = Math.max(from, lineStart(text, start));
  const nl = text.indexOf("\n", Math.max(start, end - 1));
  const e = nl === -1 || nl >= to ? to : nl + 1;
  if (e === to && (nl === -1 || nl >= to) && s > from) {
    s -= 1;
    if (s > from && text[s - 1] === "\r") s -= 1;
  }
  return { start: s, end: e, text: "" };
}

type Spans = readonly { start: number; end: number }[];

/** Item `i` of a list taken out, with the comma that parts it from a neighbour. */
export function itemLeftOut(items: Spans, i: number): Edit {
  if (i < items.length - 1) return { start: items[i].start, end: items[i + 1].start, text: "" };
  return i > 0 ? { start: items[i - 1].end, end: items[i].end, text: "" } : { start: items[i].start, end: items[i].end, text: "" };
}

/** Argument `i` of a call left out: `null` where arguments follow (they keep their places), else taken out as a list's last item. */
export function argumentLeftOut(args: Spans, i: number): Edit {
  return i < args.length - 1 ? { start: args[i].start, end: args[i].end, text: "null" } : itemLeftOut(args, i);
}
