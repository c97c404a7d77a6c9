// Text edits by offset: every repair is a splice of the original text, so whatever no edit
// touches comes back byte for byte.

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies the edits that do not overlap an earlier one in the list (earlier = higher priority);
 * the skipped ones are retried by the next round on the re-parsed text.
 */
export function applyEdits(text: string, edits: Edit[]): { text: string; applied: number } {
  const kept: Edit[] = [];
  for (const edit of edits) {
    const clash = kept.some((k) => (edit.start < k.end && k.start < edit.end) || (edit.start === edit.end && edit.start === k.start && k.start === k.end));
    if (!clash) kept.push(edit);
  }
  // Stable by position: an insertion at p goes after a replacement that ends at p.
  kept.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let at = 0;
  for (const edit of kept) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return { text: out + text.slice(at), applied: kept.length };
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
  let e = nl === -1 || nl >= to ? to : nl + 1;
  if (e === to && (nl === -1 || nl >= to) && s > from) {
    s -= 1;
    if (s > from && text[s - 1] === "\r") s -= 1;
  }
  return { start: s, end: e, text: "" };
}
