// Passes over broken lines (what the parser could not read as statements): a cut-off end is
// closed or dropped, named arguments become positional, a missing closer is added (at the end,
// or where another closer shows it was left out), a string typed over lines is joined, the
// root written without its name is named, prose goes.
import { inspect, type BrokenLine, type Expr, type Inspection, type PlacedError } from "../lang/index.ts";
import { eachNode, innermostAt, isLiteral } from "./exprs.ts";
import { removeLines, type Edit } from "./edits.ts";
import { closedBeforeSibling, closings, leftOutBracket } from "./balance.ts";
import { balance } from "../lang/autoclose.ts";
import { positional } from "./named.ts";
import { jsxAsCalls } from "./jsx.ts";
import { joinedCallNames, renameLowerCaseCalls } from "./rename.ts";
import {
  callsMended,
  closedEarly,
  closedQuote,
  innerQuotes,
  itemAfterCloser,
  mendLine,
  mismatchedQuote,
  missingCommas,
  openedQuotes,
  proseAfter,
  proseLinesOut,
  quotesByLine,
} from "./mend.ts";
import { parsesAsStatement, type Round } from "./round.ts";
import { readAlone } from "../lang/program.ts";

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
type Reading = string | null | (() => string | null);

function firstThatParses(round: Round, line: BrokenLine, candidates: Reading[], end = bodyEnd(round, line)): Edit | null {
  const seen = new Set<string>();
  for (const c of candidates) {
    // A function is a reading that costs parses of its own: made only when the ones before it fail.
    const text = typeof c === "function" ? c() : c;
    if (text === null || seen.has(text)) continue;
    seen.add(text);
    if (cleanReading(round, line, text, end)) return { start: line.start, end, text };
  }
  return null;
}

/** `text`'s inspection when it reads as one clean statement in place of the line, else null. */
function cleanReading(round: Round, line: BrokenLine, text: string, end: number): Inspection | null {
  if (text === round.text.slice(line.start, end)) return null;
  // Most readings do not read as a statement at all: the syntax alone says so, unchecked.
  const syntax = readAlone(text);
  if (syntax.broken.length || syntax.statements === 0) return null;
  const alone = inspect(text, round.library);
  const stmt = parsesAsStatement(alone, 0, text.length);
  if (!stmt) return null;
  const blocked = alone.errors.some((e) => BLOCKING.has(e.code) && e.at >= stmt.start && e.at <= stmt.end && !byObject(stmt.expr, e));
  return blocked ? null : alone;
}

// Lines longer than this are not read for two mistakes at once (a bracket with a comma or another bracket).
const MAX_TWICE_CHARS = 2_000;

// A statement that ends with a full stop after its closing bracket (`… "small").`), as mendLine takes it off.
const FULL_STOP = /[)\]}]\.[ \t]*$/;

// A name alone on its line, its `= value` in the next: one statement broken before its `=`.
const NAME_ALONE = /^[ \t]*\$?[A-Za-z_][A-Za-z0-9_]*[ \t]*$/;
const ASSIGNED = /^[ \t]*=(?!=)/;

// A line that stops after `=` or an operator (a backslash may continue it): its statement goes on in the next line.
const GOES_ON = /(?:=|\+|-|\*|\/|&&|\|\||\?|:)[ \t]*(?:\\[ \t]*)?$/;

/**
 * The readings of a line to try, best first: mended in place (`base`), named arguments made
 * positional (`named`), closed.
 */
function readings(body: string, library: Round["library"]): { base: string; named: string | null; list: Reading[] } {
  const base = baseReading(body, library);
  const named = positional(base, library);
  const list: Reading[] = [base];
  // Over lines, a quote left out in one: each line's quotes put right before the lines are joined.
  for (const byLine of quotesByLine(body)) list.push(() => baseReading(byLine, library));
  if (named !== null) list.push(named, named + balance(named).closers);
  const { closers, quoteAt } = balance(base);
  // A string open at the end closed before the code it took in; then as the text stands.
  for (const early of quoteAt < 0 ? [] : closedEarly(base, quoteAt)) list.push(early + balance(early).closers);
  if (closers) list.push(base + closers);
  return { base, named, list };
}

/**
 * A last line whose string is open at its end, closed before the code it took in (the values
 * after a comma, the brackets at the end) where that closes the whole statement: a stream seldom
 * stops just where a statement would end; a closing quote left out often does.
 */
function closedWhole(body: string): string[] {
  const { quoteAt } = balance(body);
  if (quoteAt < 0) return [];
  return closedEarly(body, quoteAt).filter((t) => balance(t).closers === "");
}

/** A line mended in place, its calls written in lower case (`text("Hello")`) or as words (`Text Content(`) renamed. */
function baseReading(body: string, library: Round["library"]): string {
  const m = mendLine(body) ?? body;
  const joined = joinedCallNames(m, library) ?? m;
  return renameLowerCaseCalls(joined, library) ?? joined;
}

/** A statement read over lines: its text from lines[i] on, where it ends, and its last line. */
type Span = { body: string; end: number; last: number };

// The most lines a string typed over lines, or a JSX element, is followed through.
const MAX_LINES_FOLLOWED = 200;
/** The quote of the string `text` ends inside, or null. */
export const openQuote = (text: string): string | null => {
  const closer = balance(text).closers[0];
  return closer === '"' || closer === "'" ? closer : null;
};

/**
 * A string typed over lines (Markdown with its line breaks as typed) that the parser reads as
 * lines of their own (a blank line between, or a value statement's string): lines[i] and the
 * lines that carry its string on, each break written `\n`, up to the line that closes it. Null
 * unless the line ends inside a string and following lines, none a statement, close it.
 */
function stringOverLines(round: Round, lines: BrokenLine[], i: number): Span | null {
  let quote = openQuote(round.text.slice(lines[i].start, bodyEnd(round, lines[i])));
  if (quote === null) return null;
  return followedLines(
    round,
    lines,
    i,
    (between) => "\\n".repeat(between.split("\n").length - 1),
    // Each line read once: it starts inside the string (what is open before it is not a string's).
    (_, piece) => {
      quote = openQuote(quote + piece);
      return quote === null;
    },
  );
}

/**
 * lines[i] and the lines after it, none a statement and only blank space between (written as
 * `join` makes it), up to the first after which `done(body, piece)` holds, `piece` that line's
 * text; at most MAX_LINES_FOLLOWED of them. Null unless one does.
 */
function followedLines(
  round: Round,
  lines: BrokenLine[],
  i: number,
  join: (between: string) => string,
  done: (body: string, piece: string) => boolean,
): Span | null {
  let end = bodyEnd(round, lines[i]);
  let body = round.text.slice(lines[i].start, end);
  for (let j = i + 1; j < lines.length && j <= i + MAX_LINES_FOLLOWED; j++) {
    const between = round.text.slice(end, lines[j].start);
    if (lines[j].id !== undefined || !/^\s*$/.test(between)) return null;
    end = bodyEnd(round, lines[j]);
    const piece = round.text.slice(lines[j].start, end);
    body += join(between) + piece;
    if (done(body, piece)) return { body, end, last: j };
  }
  return null;
}

/**
 * A statement over lines that the parser read on past its own end, into the next statement (a
 * closer left out in one of its lines): lines[i] and the lines after it that reading reached,
 * none a statement of its own; null when reading stopped within its first line.
 */
function statementOverLines(round: Round, lines: BrokenLine[], i: number): Span | null {
  const line = lines[i];
  if (line.id === undefined || line.stoppedAt === undefined || line.stoppedAt <= line.end) return null;
  let last = i;
  while (last + 1 < lines.length && lines[last + 1].id === undefined && lines[last + 1].start < line.stoppedAt) {
    if (!/^\s*$/.test(round.text.slice(lines[last].end, lines[last + 1].start))) break;
    last++;
  }
  if (last === i) return null;
  const end = bodyEnd(round, lines[last]);
  return { body: round.text.slice(line.start, end), end, last };
}

const TAG = /<\/?[A-Za-z]/;

/**
 * A JSX element over lines (`x = <Card variant="sunk">`, its children in the lines after it,
 * then `</Card>`): lines[i] and those after it, none a statement, up to the one that closes
 * every element opened (jsx.ts reads them as calls); null unless one does.
 */
function elementOverLines(round: Round, lines: BrokenLine[], i: number): Span | null {
  if (!TAG.test(round.text.slice(lines[i].start, bodyEnd(round, lines[i])))) return null;
  return followedLines(
    round,
    lines,
    i,
    (between) => between,
    // Only a line with a tag's end in it may close the element: the others are not read again.
    (body, piece) => {
      if (!piece.includes(">")) return false;
      const calls = jsxAsCalls(body);
      return calls !== null && !TAG.test(calls);
    },
  );
}

/** A statement over lines read whole: a string typed over lines, a closer left out in one of them, a JSX element. */
function readOverLines(round: Round, lines: BrokenLine[], i: number): { edit: Edit; last: number } | null {
  for (const over of [stringOverLines, statementOverLines, elementOverLines]) {
    const span = over(round, lines, i);
    const edit = span && readLine(round, lines[i], span.body, span.end);
    if (span && edit) return { edit, last: span.last };
  }
  return null;
}

const CALL_START = /^[ \t]*[A-Z][A-Za-z0-9_]*[ \t]*\(/;

/** A line standing alone as a component call (`mended`: the line as mendLine wrote it), named `root`; null when it is no call. */
export function asRoot(body: string, mended: string | null): string | null {
  return CALL_START.test(body) ? `root = ${(mended ?? body).trimStart()}` : null;
}

/** Repairs for the broken lines of this round; a line none of them fits is left for `dropBroken`. */
export function brokenLines(round: Round): Edit[] {
  const edits: Edit[] = [];
  const lines = round.ins.broken;
  // Whether a line without a name has been read as the missing root.
  let rootNamed = round.defs.has("root");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let end = bodyEnd(round, line);
    let body = round.text.slice(line.start, end);
    const whole = line.id === undefined ? null : readOverLines(round, lines, i);
    if (whole) {
      edits.push(whole.edit);
      i = whole.last;
      continue;
    }
    const next = lines[i + 1];
    if (
      !line.incomplete &&
      next !== undefined &&
      next.id === undefined &&
      /^[ \t]*$/.test(round.text.slice(line.end, next.start)) &&
      (GOES_ON.test(body) || (NAME_ALONE.test(body) && ASSIGNED.test(round.text.slice(next.start, next.end))))
    ) {
      // A statement broken over two lines: the second is the rest of the first, joined in the line.
      const nextEnd = bodyEnd(round, next);
      body = `${body.replace(/[ \t]*(?:\\[ \t]*)?$/, "")} ${round.text.slice(next.start, nextEnd).replace(/^[ \t]+/, "")}`;
      end = nextEnd;
      i++;
      const edit = readLine(round, line, body, end);
      if (edit) edits.push(edit);
      else i--; // the second line is read on its own
      continue;
    }
    if (line.id === undefined) {
      // Not `name = ...`: prose, a stray fence, a bullet; or a statement another language's habits
      // hide (`const x = ...`, `x: ...`), mended in place.
      const mended = line.incomplete ? null : mendLine(body);
      let edit = mended === null ? null : readLine(round, line, mended, end);
      // A call standing alone where the program has no root: the root, its name left out.
      const root = edit || rootNamed || line.incomplete ? null : asRoot(body, mended);
      if (root !== null) {
        edit = readLine(round, line, root, end);
        rootNamed = edit !== null;
      }
      edits.push(edit ?? removeLines(round.text, line.start, line.end, round.from, round.to));
      continue;
    }
    if (line.incomplete) {
      // The stream stopped here, or the last line lost a closing quote: close what is open, else
      // drop the cut statement. A full stop after its closer ends a sentence, not a member's name cut off.
      const stop = FULL_STOP.test(body) ? mendLine(body) : null;
      const closed = firstThatParses(round, line, [stop, ...closedWhole(body), ...closings(body)]);
      edits.push(
        closed ? closedInside(round, line, closed, body.replace(/\s+$/, ""), end) : removeLines(round.text, line.start, line.end, round.from, round.to),
      );
      continue;
    }
    const edit = readLine(round, line, body, end);
    if (edit) edits.push(edit);
  }
  return edits;
}

/**
 * `reading`, or, when it is `open` closed at its end, a reading with fewer errors that closes a
 * list inside instead: a closer left out there leaves the list's later items a level deeper.
 */
function closedInside(round: Round, line: BrokenLine, reading: Edit, open: string, end: number): Edit {
  if (reading.text !== open + balance(open).closers) return reading;
  return fewestErrors(round, line, [reading.text, ...closedBeforeSibling(open)], end) ?? reading;
}

/**
 * The first reading of a broken line (`body`, up to `end`) that reads as a clean statement: the
 * line mended in place, its named arguments made positional, closed; then commas put back; then
 * a bracket left out (or one too many) put right, alone or with a comma or another bracket, the
 * reading the library finds the fewest errors in. Mistakes meet in one line: each later step also
 * reads what the earlier ones made.
 */
function readLine(round: Round, line: BrokenLine, body: string, end: number): Edit | null {
  const { base, named, list } = readings(body, round.library);
  let comma: string | null | undefined;
  const commas = () => (comma === undefined ? (comma = missingCommas(base)) : comma);
  const moved = itemAfterCloser(base);
  const first = firstThatParses(
    round,
    line,
    [
      ...list,
      commas,
      () => named && missingCommas(named),
      ...requoted(body, base, round.library),
      ...proseAfter(base),
      ...moved,
      () => proseLinesOut(base, (w) => round.defs.has(w)),
      ...callsMended(base).flatMap((t): Reading[] => {
        const closed = t + balance(t).closers;
        return [t, closed, () => missingCommas(closed)];
      }),
    ],
    end,
  );
  if (first) return closedInside(round, line, intoList(round, line, first, moved, end), base, end);
  const brackets = [base, ...(named ? [named] : [])].flatMap((t) => leftOutBracket(t));
  const once = fewestErrors(round, line, brackets, end);
  // Two mistakes: a bracket and a comma, or two brackets; tried on lines of ordinary length only
  // (each pair is a reading of the whole line).
  if (once !== null || base.length > MAX_TWICE_CHARS) return once;
  const twice = () => {
    const withComma = commas();
    return [...brackets.flatMap((t) => missingCommas(t) ?? []), ...(withComma ? leftOutBracket(withComma) : []), ...brackets.flatMap((t) => leftOutBracket(t))];
  };
  return fewestErrors(round, line, twice(), end);
}

/**
 * The first clean reading, or one with the value after a list's closing bracket moved into the
 * list (`moved`: itemAfterCloser), whichever the library finds fewer errors in; the first when
 * they are as good as each other (a comma put back after the bracket is its usual reading).
 */
function intoList(round: Round, line: BrokenLine, reading: Edit, moved: string[], end: number): Edit {
  if (moved.length === 0 || moved.includes(reading.text)) return reading;
  return fewestErrors(round, line, [reading.text, ...moved], end) ?? reading;
}

// Readings with an opening quote given back that a broken line is tried with (openedQuotes).
const MAX_OPENED = 4;

/**
 * Readings of a line whose quotes slipped: a string closed with the other quote, a closing quote
 * put back, quotes inside a string escaped, an opening quote given back. Each is tried on the line
 * as written, then mended and renamed (what the slip left outside a string is no code to mend:
 * `"9.8 oz (US 9)"` keeps its `oz`, `"28%"` its `%`), then on the mended line `base`. Each made
 * only when those before it did not read.
 */
function requoted(body: string, base: string, library: Round["library"]): Reading[] {
  const both = (f: (text: string) => string | null): Reading[] => [
    () => {
      const q = f(body);
      return q === null ? null : baseReading(q, library);
    },
    () => f(base),
  ];
  const opened = new Map<string, string[]>();
  const openedAt = (k: number) => (text: string) => {
    let all = opened.get(text);
    if (all === undefined) opened.set(text, (all = openedQuotes(text, MAX_OPENED)));
    return all[k] ?? null;
  };
  return [mismatchedQuote, closedQuote, innerQuotes, ...Array.from({ length: MAX_OPENED }, (_, k) => openedAt(k))].flatMap(both);
}

/**
 * Whether `error` is a required argument missing from a call that has its props as one object
 * (`Button({label: "Go", action: "go"})`): reshape.ts reads those by name next round.
 */
function byObject(expr: Expr, error: PlacedError): boolean {
  if (error.code !== "missing-required") return false;
  const hit = innermostAt(expr, error.at - 1, (e) => e.k === "call" && e.end === error.at);
  return hit !== null && hit.e.k === "call" && hit.e.args.length === 1 && hit.e.args[0].k === "obj";
}

/**
 * Of `texts`, the reading firstThatParses would take that the library finds the fewest errors in;
 * a list that mixes components or lists with plain values, or lists with objects, counts as one
 * (an unknown call's arguments have no schema to say which reading is right: `Div([a, b,
 * "column", "l")`, `Chart(["Q1", "Q2"], {…}], …)`; nor has a value statement's list:
 * `[["a", 1], ["b", 2, ["c", 3]]`). Readings as good as each other alone
 * are read again beside the statements they refer to: what those are decides where they fit
 * (`TabItem("m", "M", [text], pie)` puts a chart where an icon goes).
 */
function fewestErrors(round: Round, line: BrokenLine, texts: string[], end: number): Edit | null {
  let best: { text: string; ins: Inspection }[] = [];
  let least = Infinity;
  for (const text of new Set(texts)) {
    const ins = cleanReading(round, line, text, end);
    if (ins === null) continue;
    let errors = ins.errors.length;
    for (const stmt of ins.statements) eachNode(stmt.expr, (e) => e.k === "arr" && mixed(e.items) && errors++);
    if (errors < least) [best, least] = [[{ text, ins }], errors];
    else if (errors === least) best.push({ text, ins });
  }
  if (best.length > 1) {
    const beside = best.map((r) => errorsBeside(round, r.text, r.ins));
    best = [best[beside.indexOf(Math.min(...beside))]];
  }
  return best.length ? { start: line.start, end, text: best[0].text } : null;
}

/** The errors in a reading (`text`, inspected alone as `ins`) with the statements it refers to written after it. */
function errorsBeside(round: Round, text: string, ins: Inspection): number {
  const defs = new Set<string>();
  for (const stmt of ins.statements) {
    eachNode(stmt.expr, (e) => {
      const def = e.k === "ref" ? round.defs.get(e.name) : undefined;
      if (def) defs.add(round.text.slice(def.start, def.end));
    });
  }
  if (defs.size === 0) return 0;
  return inspect(`${text}\n${[...defs].join("\n")}`, round.library).errors.filter((e) => e.at < text.length).length;
}

/** Whether a list holds both references, calls or lists and plain values, or both lists and objects (rows and records). */
const mixed = (items: Expr[]) =>
  (items.some((e) => e.k === "ref" || e.k === "call" || e.k === "arr") && items.some(isLiteral)) ||
  (items.some((e) => e.k === "arr") && items.some((e) => e.k === "obj"));

/** Last resort: a `name = ...` line nothing could read is dropped (references to it go next round). */
export function dropBroken(round: Round): Edit[] {
  return round.ins.broken.filter((l) => l.id !== undefined).map((l) => removeLines(round.text, l.start, l.end, round.from, round.to));
}
