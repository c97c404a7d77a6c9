// Passes over broken lines (what the parser could not read as statements): a cut-off end is
// closed or dropped, named arguments become positional, a missing closer is added, prose goes.
import { inspect, type BrokenLine } from "../lang/index.ts";
import { removeLines, type Edit } from "./edits.ts";
import { closings } from "./balance.ts";
import { balance } from "../lang/autoclose.ts";
import { positional } from "./named.ts";
import { renameLowerCaseCalls } from "./rename.ts";
import { parsesAsStatement, type Round } from "./round.ts";

// Errors that make a closed statement no better than dropping it.
const BLOCKING = new Set(["syntax", "incomplete", "missing-required", "null-required"]);

/** The line's text without its line break. */
function bodyEnd(round: Round, line: BrokenLine): number {
  let end = line.end;
  if (round.text[end - 1] === "\n") end--;
  if (round.text[end - 1] === "\r") end--;
  return end;
}

/**
 * The first rewrite of the line that the parser reads as a clean statement, as an edit. Each is
 * read as a program of its own: the line starts a statement, so nothing before it reads into it,
 * and what it holds is checked against the library alone (a following `?` line it would now carry
 * on into is not read; the next round reads the whole text). Reading the whole text for each
 * rewrite made a round cost the broken lines times the text: 12 s for 3,000 cut-off lines.
 */
function firstThatParses(round: Round, line: BrokenLine, candidates: string[]): Edit | null {
  const end = bodyEnd(round, line);
  for (const text of candidates) {
    if (text === round.text.slice(line.start, end)) continue;
    const alone = inspect(text, round.library);
    const stmt = parsesAsStatement(alone, 0, text.length);
    if (!stmt) continue;
    const blocked = alone.errors.some((e) => BLOCKING.has(e.code) && e.at >= stmt.start && e.at <= stmt.end);
    if (!blocked) return { start: line.start, end, text };
  }
  return null;
}

/** Repairs for the broken lines of this round; a line none of them fits is left for `dropBroken`. */
export function brokenLines(round: Round): Edit[] {
  const edits: Edit[] = [];
  for (const line of round.ins.broken) {
    const body = round.text.slice(line.start, bodyEnd(round, line));
    if (line.id === undefined) {
      // Not `name = ...`: prose, a stray fence, a bullet. It holds nothing of the program.
      edits.push(removeLines(round.text, line.start, line.end, round.from, round.to));
      continue;
    }
    if (line.incomplete) {
      // The stream stopped here: close what is open, else drop the cut statement.
      edits.push(firstThatParses(round, line, closings(body)) ?? removeLines(round.text, line.start, line.end, round.from, round.to));
      continue;
    }
    const candidates: string[] = [];
    // A call written in lower case (`text("Hello")`) is renamed first: the rest reads the renamed line.
    const renamed = renameLowerCaseCalls(body, round.library);
    const base = renamed ?? body;
    if (renamed !== null) candidates.push(renamed);
    const named = positional(base, round.library);
    if (named !== null) candidates.push(named, named + balance(named).closers);
    const closers = balance(base).closers;
    if (closers) candidates.push(base + closers);
    const edit = firstThatParses(round, line, candidates);
    if (edit) edits.push(edit);
  }
  return edits;
}

/** Last resort: a `name = ...` line nothing could read is dropped (references to it go next round). */
export function dropBroken(round: Round): Edit[] {
  return round.ins.broken.filter((l) => l.id !== undefined).map((l) => removeLines(round.text, l.start, l.end, round.from, round.to));
}
