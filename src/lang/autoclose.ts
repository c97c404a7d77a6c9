// Display of a statement cut off mid-stream: close its open string and brackets, and read it
// again. Only for `root` while streaming; validity never depends on it.
import { setScratch } from "./engine.ts";
import { splitProgram } from "./program.ts";
import { balance } from "./balance.ts";
import { isSpace } from "./open-scan.ts";
import type { Statement } from "./types.ts";

export { balance, type Balance } from "./balance.ts";

/** A cut statement closed: the statement read from `text`, put at offset `base` of the parser's buffer (its offsets are there). */
export interface Closed {
  statement: Statement;
  text: string;
  base: number;
}

/**
 * The cut statement `text` closed for display, or null when closing does not make a statement.
 * Its offsets are `after` or more (a stream passes its length, so that they are told apart from
 * its own). `closersOf`: what closes the text with its trailing commas and operators left out,
 * when the caller knows it (a stream's scan of the statement); counted otherwise.
 */
export function closeStatement(text: string, after = 0, closersOf: (trimmed: string) => string = (trimmed) => balance(trimmed).closers): Closed | null {
  // A trailing comma or operator has nothing after it yet: leave it out.
  const trimmed = text.slice(0, trimmedEnd(text, 0, text.length));
  const closed = trimmed + closersOf(trimmed);
  const base = setScratch(closed, after);
  const parts = splitProgram(closed, base, base, base + closed.length);
  return parts.broken.length === 0 && parts.statements.length === 1 ? { statement: parts.statements[0], text: closed, base } : null;
}

/** Where `text` from `from` to `to` ends once trailing white space (as /\s/ has it), commas and operators are left out. */
export function trimmedEnd(text: string, from: number, to: number): number {
  let end = to;
  while (end > from && trailing(text.charCodeAt(end - 1))) end--;
  return end;
}

function trailing(c: number): boolean {
  switch (c) {
    case 44: // ,
    case 43: // +
    case 45: // -
    case 42: // *
    case 47: // /
    case 37: // %
    case 38: // &
    case 124: // |
    case 33: // !
    case 61: // =
    case 60: // <
    case 62: // >
    case 63: // ?
    case 58: // :
      return true;
  }
  return isSpace(c);
}
