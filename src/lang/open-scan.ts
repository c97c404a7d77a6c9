// A stream's open statement while it is cut mid-way, read once, chunk by chunk: its strings,
// comments and brackets, and for each bracket still open, where the items it holds that the
// parser has already read whole end (after their comma). With it a chunk asks the parser only
// whether the statement can still go on, reading what follows the last such comma of each open
// bracket instead of the statement from its start: `name = [1, 2, 3, 4` is read as `name = [4`.
//
// Why that asks the same question. A comma inside a bracket is consumed only between the items
// of a list (`Items`, `Entries`; `Action(` falls back to a component call's items): a group or an
// index holds one expression, so a comma there makes the statement unreadable. The items before
// a comma are only dropped once the parser has read the text holding them and said the statement
// can still go on (`confirm()`): each of them was then read whole, and what may follow the comma
// is what may follow the opening bracket itself (an item, a comma after a trailing one is not
// allowed in either, the closing bracket). Strings and comments are followed exactly (`#` and
// `//` comments run to the end of the line, double-quoted strings take JSON's escapes,
// single-quoted ones escape any unit, a raw newline inside either breaks the statement), so that
// a chunk that ends in the string the last one ended in needs no reading at all. Anything this
// does not follow (a closer that matches nothing, a newline outside brackets, an escape a
// double-quoted string does not take) makes it `lost`: the stream reads the statement whole
// again, as it did before.

import type { BrokenLine } from "./types.ts";

/** How many units of the statement's start `head` keeps (what a message's excerpt reads). */
export const HEAD = 200;

// After a backslash in a double-quoted string: `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t` (and `u`
// with four hex digits), as the grammar's jsonEscape.
const JSON_ESCAPES = new Set([34, 92, 47, 98, 102, 110, 114, 116]);
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);

interface Level {
  /** The closing bracket wanted, as a code unit. */
  closer: number;
  /** Where the opening bracket stands. */
  opener: number;
  /** Where the text read for this bracket starts: right after the opener, or after the last confirmed comma. */
  seg: number;
  /** After the last comma seen at this level (not confirmed yet), or -1. */
  cand: number;
}

export class OpenScan {
  /** Where the statement starts. */
  readonly start: number;
  /** How far it has been read. */
  pos: number;
  /** Its first `HEAD` units, and where the first newline stands in them (-1: none). */
  head = "";
  firstNl = -1;
  /** Something this does not follow came: the statement has to be read whole. */
  lost = false;
  readonly levels: Level[] = [];
  /** Strings opened so far: with `inString`, whether a chunk ended in the string it began in. */
  strings = 0;
  private quote = 0;
  private escape = false;
  private hex = 0; // hex digits still wanted by a `\u` escape in a double-quoted string
  private comment = false;
  private slash = false;

  constructor(start: number) {
    this.start = start;
    this.pos = start;
  }

  /** Reads `text`, the statement's next units (from `pos` on). */
  feed(text: string): void {
    const at = this.pos;
    this.pos += text.length;
    if (this.head.length < HEAD) {
      const piece = text.length <= HEAD - this.head.length ? text : text.slice(0, HEAD - this.head.length);
      if (this.firstNl === -1) {
        const nl = piece.indexOf("\n");
        if (nl !== -1) this.firstNl = this.head.length + nl;
      }
      this.head += piece;
    }
    // The state is kept in locals while reading (a chunk is read unit by unit) and stored back after.
    const levels = this.levels;
    let quote = this.quote;
    let escape = this.escape;
    let hex = this.hex;
    let comment = this.comment;
    let slash = this.slash;
    let lost = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (comment) {
        if (c === 10) {
          comment = false;
          if (levels.length === 0) {
            lost = true;
            break;
          }
        }
        continue;
      }
      if (quote !== 0) {
        if (hex > 0) {
          if (!isHex(c)) {
            lost = true;
            break;
          }
          hex--;
        } else if (escape) {
          escape = false;
          // A double-quoted string takes JSON's escapes only; a single-quoted one any unit.
          if (quote === 34 && c === 117) hex = 4;
          else if (quote === 34 && !JSON_ESCAPES.has(c)) {
            lost = true;
            break;
          }
        } else if (c === 92) escape = true;
        else if (c === quote) quote = 0;
        else if (c === 10) {
          lost = true;
          break;
        }
        continue;
      }
      const afterSlash = slash;
      slash = false;
      switch (c) {
        case 34: // "
        case 39: // '
          quote = c;
          this.strings++;
          break;
        case 35: // #
          comment = true;
          break;
        case 47: // /
          if (afterSlash) comment = true;
          else slash = true;
          break;
        case 40: // (
          levels.push({ closer: 41, opener: at + i, seg: at + i + 1, cand: -1 });
          break;
        case 91: // [
          levels.push({ closer: 93, opener: at + i, seg: at + i + 1, cand: -1 });
          break;
        case 123: // {
          levels.push({ closer: 125, opener: at + i, seg: at + i + 1, cand: -1 });
          break;
        case 41:
        case 93:
        case 125:
          if (levels.length === 0 || levels[levels.length - 1].closer !== c) lost = true;
          else levels.pop();
          break;
        case 44: // ,
          if (levels.length !== 0) levels[levels.length - 1].cand = at + i + 1;
          break;
        case 10:
          // Outside brackets a newline ends the line: the statement may have ended.
          if (levels.length === 0) lost = true;
          break;
      }
      if (lost) break;
    }
    this.quote = quote;
    this.escape = escape;
    this.hex = hex;
    this.comment = comment;
    this.slash = slash;
    if (lost) this.lost = true;
  }

  /** Whether the statement read so far stops inside a string. */
  get inString(): boolean {
    return this.quote !== 0 && !this.lost;
  }

  /** Whether a bracket is still open: then the statement cannot be complete. */
  get open(): boolean {
    return this.levels.length !== 0 && !this.lost;
  }

  /** The parser said the statement read so far can go on: the items before every comma seen were read whole. */
  confirm(): void {
    for (const level of this.levels) if (level.cand > level.seg) level.seg = level.cand;
  }

  /**
   * What closes the statement read so far (its string, then its brackets), as `balance` counts
   * it for `trimmed`, the text read with trailing white space, commas and operators left out:
   * leaving those out closes no string or bracket, and a string left ending in a lone backslash
   * has it escaped.
   */
  closers(trimmed: string): string {
    let out = "";
    if (this.quote !== 0) out = (trimmed.endsWith("\\") && !trimmed.endsWith("\\\\") ? "\\" : "") + String.fromCharCode(this.quote);
    for (let k = this.levels.length - 1; k >= 0; k--) out += String.fromCharCode(this.levels[k].closer);
    return out;
  }

  /** The ranges of the input to read for the statement up to `to`, confirmed items left out: [from, to, from, to, …]. */
  ranges(to: number): number[] {
    const out = [this.start];
    for (const level of this.levels) if (level.seg > level.opener + 1) out.push(level.opener + 1, level.seg);
    out.push(to);
    return out;
  }
}

const NAME_EQUALS = /^[ \t]*(\$?[A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)/;

/**
 * The cut statement as `splitProgram` gives it (a broken line that stops for want of input),
 * from its first units `head` and its name; its excerpt is made when a message reads it.
 */
export class CutLine implements BrokenLine {
  readonly incomplete = true;
  readonly id?: string;
  constructor(
    readonly start: number,
    readonly end: number,
    private readonly head: string,
    id: string | undefined,
  ) {
    if (id !== undefined) this.id = id;
  }
  get excerpt(): string {
    return cutExcerpt(this.head) ?? "";
  }
}

/** The name of the cut statement whose first units are `head` (`name =`, not `==`), and whether more units may change it. */
export function cutName(head: string): { id: string | undefined; final: boolean } {
  const match = NAME_EQUALS.exec(head);
  return { id: match?.[1], final: match !== null && match[0].length < head.length };
}

/** Whether the excerpt of a cut statement is known from its first units alone (see `cutExcerpt`), given `scan.head` and `scan.firstNl`. */
export function excerptKnown(scan: OpenScan): boolean {
  return scan.firstNl <= 0 || !isSpace(scan.head.charCodeAt(scan.firstNl - 1));
}

/** What String.prototype.trim removes (and /\s/ matches). */
export function isSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * The excerpt `splitProgram` gives the cut statement whose first units are `head`, or null when it
 * may depend on where the broken line ends: a first line that ends in white space before its
 * newline keeps that white space only when something other than white space follows within the
 * units `splitProgram` reads.
 */
export function cutExcerpt(head: string): string | null {
  const nl = head.indexOf("\n");
  if (nl === -1) return head.trim().slice(0, 60);
  const first = head.slice(0, nl);
  if (first.trimEnd() !== first) return null;
  return first.trimStart().slice(0, 60);
}
