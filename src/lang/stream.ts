// The incremental streaming parser. Statements that have ended are parsed and checked once and
// kept; each chunk re-reads only the open statement (the last one, which a following line may
// still continue). Reference, orphan and root bookkeeping is updated per statement, not
// recomputed. `end()` is `parse()` of the whole text.
import { appendInput, claimInput, parseTree, setInput, setScratchFrom, wantsMore } from "./engine.ts";
import { CutLine, cutName, excerptKnown, OpenScan } from "./open-scan.ts";
import { splitProgram } from "./program.ts";
import { brokenLineErrors, Checker, type Defs } from "./check.ts";
import { lazyResult, parse, publicError } from "./parse.ts";
import { materializeRoot, TreeCache, type SourceOf } from "./materialize.ts";
import { closeStatement, trimmedEnd, type Closed } from "./autoclose.ts";
import { CutTree, type CutView } from "./cut-tree.ts";
import { NameList, readNames } from "./name-list.ts";
import { ENVELOPES, FENCE, isEnvelopeHeader, isMarkerAt } from "./frame.ts";
import type { Library } from "./library.ts";
import type { BrokenLine, FixError, ParseResult, Statement } from "./types.ts";

// A line that starts a statement, `=` and what follows it included (`==` does not).
const STARTS_STATEMENT = /^[ \t]*\$?[A-Za-z_][A-Za-z0-9_]*[ \t]*=[^=]/;

// A broken line that does not start with `?` or `:` (it starts where spaces and comments end).
const NOT_TERNARY_TAIL = /^[ \t]*[^\s?:]/;

const NO_STATEMENTS: ReadonlyMap<string, Statement> = new Map();
const NO_NAMES: ReadonlySet<string> = new Set();

export interface StreamParser {
  push(chunk: string): ParseResult;
  end(): ParseResult;
}

export function createStreamParser(library: Library): StreamParser {
  const owner = {};
  const chunks: string[] = [];
  let length = 0; // of the text so far
  // Framing, decided line by line as lines complete.
  let programStart = -1; // -1: not known yet (the first line may be an envelope header)
  let programEnd = -1; // -1: open (an envelope's end marker sets it)
  // "between": after a fenced block closed, before the next opens (prose: no program).
  let mode: "bare" | "fence" | "between" | "envelope" = "bare";
  let blockStart = 0; // where the open block's program starts
  let closed: { start: number; end: number }[] = []; // blocks closed since their lines were read
  let lastEnd = -1; // where the last closed block ended
  let scanned = 0; // lines before this offset have been looked at
  // The open region [openStart, …) and its text.
  let openStart = 0;
  let tail = ""; // text from `tailBase` on
  let tailBase = 0;
  // What has ended.
  let finals: Statement[] = [];
  let finalBroken: BrokenLine[] = [];
  let defs = new Map<string, Statement>();
  // Where each name's ended statements stand in `finals` (a name defined again has several), so
  // that a result can see the statements as they were when it was made.
  let places = new Map<string, number[]>();
  let checker = new Checker(library, defs, new Set());
  let referenced = new Set<string>(); // names ended statements refer to
  let pending = new NameList(); // referenced by ended statements, not defined yet
  let unreferenced = new NameList(); // defined component/value statements nobody refers to yet
  // Ended statements' errors, published in source order. Statements and broken lines end in
  // source order, so errors not yet published all come after those that are: they are appended.
  let finalErrorsPublic: FixError[] = [];
  let publishedErrors = 0; // of checker.errors
  let publishedBroken = 0; // of finalBroken
  let ended = false;
  let last: ParseResult | null = null;
  let lineTick = false; // the line being received (from `scanned` on) holds a backtick so far
  // The last open line: a statement cut mid-way (a bracket still open) that the parser said can
  // still go on, with what was open before it, and its strings and brackets as read so far.
  let cutOpen: { open: Statement[]; before: BrokenLine[]; cut: BrokenLine; head: string; known: boolean; id: string | undefined; named: boolean } | null = null;
  let scan: OpenScan | null = null;
  let lastOpen: ReturnType<typeof openState> | null = null; // what the last result's open statements said
  let endedView: { count: number; list: Statement[]; defs: Defs } | null = null; // endedAt's last answer
  let endings = 0; // statements made final and programs started again, counted: what open state depends on
  // The last result's open region is one broken line that more text on that line cannot change
  // (steadyLine): then a chunk without a line break changes no result.
  let steady = false;
  // The display tree's statement values, kept from read to read (materialize.ts): each result
  // tells it which names its statements bound anew (statements ended since the last result, and
  // the open ones then and now); only the newest result's read uses it.
  let trees = new TreeCache();
  let cutTree = new CutTree(); // the cut statement's items read whole, kept from read to read
  let treesNoted = 0; // of finals
  let openNoted: string[] = [];
  let made = 0; // results made
  // The text so far, joined as far as a read needed it (a read after every push joined it all).
  let joined = "";
  let joinedChunks = 0;
  // Where each chunk starts, and the text between two offsets read from the chunks: `tail` and
  // the joined text grow by appending, and a string grown so is flattened whole when read.
  const chunkAt: number[] = [];
  const between = (from: number, to: number): string => {
    if (from >= to) return "";
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (chunkAt[mid] <= from) lo = mid;
      else hi = mid - 1;
    }
    let out = "";
    for (let i = lo; i < chunks.length && chunkAt[i] < to; i++) out += chunks[i].slice(Math.max(0, from - chunkAt[i]), to - chunkAt[i]);
    return out;
  };
  // Where the text from `from` to `to` ends once trailing commas, operators and spaces are left out.
  const trimmedTo = (from: number, to: number): number => {
    for (let end = to, window = 64; ; window *= 4) {
      const lo = Math.max(from, end - window);
      const text = between(lo, end);
      const trimmed = lo + trimmedEnd(text, 0, text.length);
      if (trimmed > lo || lo === from) return trimmed;
      end = lo;
    }
  };
  const textSoFar = () => {
    if (joinedChunks < chunks.length) {
      joined += chunks.slice(joinedChunks).join("");
      joinedChunks = chunks.length;
    }
    return joined;
  };

  const resetProgram = (start: number) => {
    programStart = start;
    openStart = start;
    finals = [];
    finalBroken = [];
    defs = new Map();
    places = new Map();
    checker = new Checker(library, defs, new Set());
    referenced = new Set();
    pending = new NameList();
    unreferenced = new NameList();
    finalErrorsPublic = [];
    publishedErrors = publishedBroken = 0;
    cutOpen = scan = null;
    endings++;
    trees = new TreeCache();
    cutTree = new CutTree();
    treesNoted = 0;
    openNoted = [];
  };

  // Looks at each newly completed line for the envelope header, fences and end markers, reading
  // only `chunk`, the text just appended (the last `chunk.length` units of `tail`). A line's text
  // is taken from `tail` only when it can matter: before the program starts, in an envelope (its
  // end marker), or when the line holds a backtick (a fence); other lines are only counted.
  const scanLines = (chunk: string) => {
    const chunkStart = length - chunk.length;
    let from = 0; // in `chunk`
    while (programEnd === -1) {
      const nl = chunk.indexOf("\n", from);
      const tick = chunk.indexOf("`", from);
      if (nl === -1) {
        if (tick !== -1) lineTick = true;
        if (programStart === -1) {
          const head = tail.slice(scanned - tailBase);
          if (!ENVELOPES.some((e) => e.startsWith(head) || head.startsWith(e))) resetProgram(0);
        }
        return;
      }
      const lineEnd = chunkStart + nl;
      const ticked = lineTick || (tick !== -1 && tick < nl);
      from = nl + 1;
      lineTick = false;
      const lineStart = scanned;
      const line = programStart === -1 || mode === "envelope" || ticked ? tail.slice(lineStart - tailBase, lineEnd - tailBase) : "";
      scanned = lineEnd + 1;
      if (programStart === -1) {
        if (isEnvelopeHeader(line)) {
          mode = "envelope";
          resetProgram(scanned);
          continue;
        }
        resetProgram(0);
      }
      const isFence = ticked && FENCE.test(line);
      if (mode === "envelope" && isMarkerAt(line)) {
        programEnd = lineStart;
      } else if (mode === "fence" && isFence) {
        // The block ends: several blocks are one program, each a run of whole statements.
        closed.push({ start: blockStart, end: lineStart });
        lastEnd = lineStart;
        mode = "between";
      } else if (mode === "between" && isFence) {
        mode = "fence";
        blockStart = scanned;
      } else if (mode === "bare" && isFence) {
        mode = "fence";
        resetProgram(scanned); // prose before the fence was not program
        blockStart = scanned;
      }
    }
  };

  // Every statement and broken line of the blocks closed since last time has ended.
  const finishClosed = (text: string, base: number) => {
    for (const block of closed) {
      const from = Math.max(openStart, block.start);
      if (from < block.end) {
        const parts = splitProgram(text, base, from, block.end);
        for (const stmt of parts.statements) addFinal(stmt);
        for (const line of parts.broken) finalBroken.push(line);
      }
      openStart = Math.max(openStart, block.end);
    }
    closed = [];
  };

  // Keep only the text still needed: the open region and lines not yet scanned.
  const trimTail = () => {
    const keepFrom = Math.min(openStart, scanned);
    if (keepFrom > tailBase) {
      tail = tail.slice(keepFrom - tailBase);
      tailBase = keepFrom;
    }
  };

  const addFinal = (stmt: Statement) => {
    defs.delete(stmt.id); // a redefinition takes the later place, as in checkProgram
    defs.set(stmt.id, stmt);
    const place = places.get(stmt.id);
    if (place) place.push(finals.length);
    else places.set(stmt.id, [finals.length]);
    finals.push(stmt);
    endings++;
    pending.delete(stmt.id);
    checker.statement(stmt); // its errors stay in checker.errors
    for (const name of checker.refsOf(stmt.id)) {
      // A statement that refers to itself is not referred to (as an open one is not): it is an
      // orphan until another statement refers to it.
      if (name === stmt.id) continue;
      referenced.add(name);
      unreferenced.delete(name);
      if (!defs.has(name)) pending.add(name);
    }
    if ((stmt.kind === "component" || stmt.kind === "value") && stmt.id !== "root" && !referenced.has(stmt.id)) unreferenced.add(stmt.id);
  };

  // After a chunk read in full: when the open region ends with a statement cut mid-way that can
  // still go on (`name = [1, 2, …` and no closing bracket yet), later chunks follow it with
  // `goOn` until it can be complete. Everything open before it stays as it is meanwhile: the cut
  // line starts a statement, so no line before it can continue past it.
  const watchCut = (open: Statement[], openBroken: BrokenLine[], to: number) => {
    const cut = openBroken[openBroken.length - 1];
    const lastOpen = open.length ? open[open.length - 1].start : -1;
    // A cut without its name yet (`metricCa`) has nothing before it that could still go on past it.
    const named = cut !== undefined && (cut.id !== undefined || openBroken.length === 1);
    if (cut === undefined || !cut.incomplete || cut.tooDeep || !named || cut.end !== to || to !== length || openBroken.some((b) => b.start < lastOpen)) {
      cutOpen = scan = null;
      return;
    }
    if (scan === null || scan.start !== cut.start || scan.pos !== to || scan.lost) {
      scan = new OpenScan(cut.start);
      scan.feed(tail.slice(cut.start - tailBase, to - tailBase));
    }
    // The parser has just read the statement whole and said it can go on.
    scan.confirm();
    cutOpen = { open, before: openBroken.slice(0, -1), cut, head: "", known: false, id: undefined, named: false };
  };

  // A chunk that only carries the cut statement further: one read of the parser, over what
  // follows the confirmed items of its open brackets. Null when the statement may have ended or
  // cannot go on: then the chunk is read in full (which says exactly how).
  const goOn = (state: NonNullable<typeof cutOpen>, stringBefore: number): ParseResult | null => {
    if (scan === null || !scan.open) return null;
    if (state.head !== scan.head) {
      state.head = scan.head; // it stops growing at HEAD units
      state.known = excerptKnown(scan);
      if (!state.named) {
        const name = cutName(scan.head);
        state.id = name.id;
        state.named = name.final;
      }
    }
    if (!state.known) return null;
    // Still inside the string the last chunk ended in (OpenScan follows its escapes and would
    // have lost it at a line break or an escape the grammar refuses): the statement can still go
    // on, as the parser said when the chunk before ended in it. Not asked again: that read the
    // string again at every chunk, its whole length each time.
    if (stringBefore !== scan.strings || !scan.inString) {
      const { base, length: n } = setScratchFrom(scan.ranges(length));
      if (!wantsMore("Line_statement", base, base + n)) return null;
      scan.confirm();
    }
    const cut = new CutLine(state.cut.start, length, state.head, state.id);
    return result(state.open, state.before.length ? [...state.before, cut] : [cut], length, true);
  };

  // A chunk that ends a line and starts a statement it cuts mid-way (`…])⏎name = Card([`, a
  // bracket open), with whole statements before it: those have ended (no line before a line that
  // starts a statement goes on past it), and the cut one is followed as `goOn` follows it. The
  // statements are read up to its line, and it is read once by itself, rather than all of it read
  // as a program and its line read again. Null when it is not so: the chunk is then read in full.
  const lineEndsThenCut = (chunk: string): ParseResult | null => {
    const nl = chunk.lastIndexOf("\n");
    if (nl === -1 || nl === chunk.length - 1) return null;
    const cutStart = length - chunk.length + nl + 1;
    const from = Math.max(openStart, programStart, mode === "fence" ? blockStart : 0);
    if (from >= cutStart) return null;
    const cutText = tail.slice(cutStart - tailBase);
    if (!STARTS_STATEMENT.test(cutText.length > 200 ? cutText.slice(0, 200) : cutText)) return null;
    const next = new OpenScan(cutStart);
    next.feed(cutText);
    if (!next.open) return null;
    const name = cutName(next.head);
    if (name.id === undefined || !excerptKnown(next)) return null;
    const parts = splitProgram(tail, tailBase, from, cutStart);
    if (parts.broken.length !== 0) return null;
    if (!wantsMore("Line_statement", cutStart, length)) return null;
    for (const stmt of parts.statements) addFinal(stmt);
    openStart = cutStart;
    trimTail();
    next.confirm();
    scan = next;
    const cut = new CutLine(cutStart, length, next.head, name.id);
    cutOpen = { open: [], before: [], cut, head: next.head, known: true, id: name.id, named: name.final };
    return result([], [cut], length);
  };

  return {
    push(chunk: string): ParseResult {
      if (ended) throw new Error("push() after end()");
      if (chunk === "" && last) return last;
      if (!appendInput(length, owner, chunk)) {
        // Another parse used the buffer since: put this stream's text back once.
        setInput(chunks.join("") + chunk);
        claimInput(owner);
      }
      chunks.push(chunk);
      chunkAt.push(length);
      length += chunk.length;
      tail += chunk; // not read on the fast path: the string grows without being copied
      const framing = mode;
      const startWas = programStart;
      scanLines(chunk);
      // The open broken line only grows: what the last result said still holds (not read again,
      // which made a long broken line cost its length at every chunk).
      if (steady && chunk.indexOf("\n") === -1) return last!;
      steady = false;
      if (programStart === -1) return (last = result([], [], 0));
      const stringBefore = scan !== null && scan.inString ? scan.strings : -1;
      if (scan !== null) scan.feed(chunk);
      if (cutOpen !== null && closed.length === 0 && mode === framing && programStart === startWas && programEnd === -1) {
        const fast = goOn(cutOpen, stringBefore);
        if (fast !== null) return (last = fast);
      }
      if (closed.length === 0 && mode === framing && mode !== "between" && programStart === startWas && programEnd === -1) {
        const next = lineEndsThenCut(chunk);
        if (next !== null) return (last = next);
      }
      finishClosed(tail, tailBase);
      if (mode === "between") {
        // Prose between blocks: nothing is open.
        openStart = Math.max(openStart, lastEnd);
        trimTail();
        cutOpen = scan = null;
        return (last = result([], [], openStart));
      }
      const to = programEnd === -1 ? length : programEnd;
      const from = Math.min(Math.max(openStart, programStart, mode === "fence" ? blockStart : 0), to);
      const parts = splitProgram(tail, tailBase, from, to);
      // Everything before the last statement has ended, except from a broken line whose reading
      // looked at the end of the text: a bracket opened on it may close in a later chunk and take
      // the lines after it along, as parse() of the whole text would.
      let openFrom = parts.openFrom;
      // A statement cut mid-way whose line starts a statement (`name =` and not `==`): no line
      // before it can go on past it, so everything before it has ended and is not read again.
      const cut = parts.broken[parts.broken.length - 1];
      if (
        cut !== undefined &&
        cut.incomplete &&
        !cut.tooDeep &&
        cut.start >= openFrom &&
        STARTS_STATEMENT.test(tail.slice(cut.start - tailBase, cut.start - tailBase + 200))
      )
        openFrom = cut.start;
      else if (
        cut !== undefined &&
        parts.statements.length > 0 &&
        cut.start > openFrom &&
        parts.broken.length > 0 &&
        (parts.broken.length === 1 || parts.broken[parts.broken.length - 2].start < openFrom)
      ) {
        // The line right after the last statement's does not start with ? or :, the only way a
        // ternary goes on past its line: that statement has ended too.
        const nl = tail.indexOf("\n", parts.statements[parts.statements.length - 1].end - tailBase);
        if (nl !== -1 && nl + 1 + tailBase === cut.start && NOT_TERNARY_TAIL.test(tail.slice(cut.start - tailBase, cut.start - tailBase + 100)))
          openFrom = cut.start;
      }
      for (const line of parts.broken) {
        if (line.start >= openFrom) break;
        if (parseTree("brokenLine", line.start, to).farthest >= to) openFrom = line.start;
      }
      for (const stmt of parts.statements) if (stmt.start < openFrom) addFinal(stmt);
      for (const line of parts.broken) if (line.start < openFrom) finalBroken.push(line);
      openStart = openFrom;
      const open = parts.statements.filter((s) => s.start >= openStart);
      const openBroken = parts.broken.filter((b) => b.start >= openStart);
      trimTail();
      watchCut(open, openBroken, to);
      steady = open.length === 0 && openBroken.length === 1 && to === length && steadyLine(openBroken[0], to);
      return (last = result(open, openBroken, to));
    },
    end(): ParseResult {
      if (ended) return last!;
      ended = true;
      // parse() itself: its fast verdict (one pass of the WebAssembly module over the text) answers
      // a valid program, and most invalid ones, sooner than checking the kept statements again.
      return (last = parse(chunks.join(""), library));
    },
  };

  // A broken line running to `to` that more text on the same line cannot change: reading it as a
  // statement stopped well before the end (further than any token the parser tests at once), so
  // that reading never reaches more text, and its message reads only its first 200 characters
  // (see splitProgram and describeStop), all there. Not when the text ends with a line break: the
  // next chunk starts a line, which may start a statement (a bracket left open above may close there).
  function steadyLine(line: BrokenLine, to: number): boolean {
    const lastUnit = tail.charCodeAt(to - 1 - tailBase);
    return (
      line.end === to &&
      !line.incomplete &&
      !line.tooDeep &&
      line.stoppedAt !== undefined &&
      line.stoppedAt + 64 < to &&
      to - line.start >= 200 &&
      lastUnit !== 10 && // \n
      lastUnit !== 13 // \r
    );
  }

  // The ended statements `list` (their places `where`) as they were when the first `count` had
  // ended (later ones may define a name again), made only when a result's root is read.
  function endedAt(list: Statement[], where: Map<string, number[]>, count: number): Defs {
    if (endedView !== null && endedView.count === count && endedView.list === list) return endedView.defs;
    const get = (id: string): Statement | undefined => {
      const place = where.get(id);
      if (!place) return undefined;
      for (let i = place.length - 1; i >= 0; i--) if (place[i] < count) return list[place[i]];
      return undefined;
    };
    const view: Defs = { get, has: (id) => get(id) !== undefined };
    endedView = { count, list, defs: view };
    return view;
  }

  // Whether the line of an open statement ending at `end` has ended before `to`: then it is final
  // for what results report (an orphan is one at once, the element is no longer partial). It stays
  // in the open region, read again with each chunk, until a statement follows: a following line
  // that starts with `?` or `:` may still make it a ternary. A line with a ternary still open
  // (`x = c ? a` and a newline) is not a statement yet, and waits as a broken line.
  function lineEnded(end: number, to: number): boolean {
    const nl = tail.indexOf("\n", end - tailBase);
    return nl !== -1 && nl + tailBase < to;
  }

  // What the open statements say, made once per set of open statements: a chunk that only
  // carries a cut statement further (`goOn`) leaves them, and everything that has ended, as they were.
  function openState(open: Statement[], to: number) {
    if (open.length === 0) {
      // Nothing open: what has ended says it all.
      const pendingNow = pending.snapshot();
      const orphanedNow = unreferenced.snapshot();
      return {
        open,
        ended: endings,
        openById: NO_STATEMENTS,
        openCheckErrors: [],
        endedOpen: NO_NAMES,
        added: 0,
        unresolved: () => readNames(pendingNow),
        orphaned: () => readNames(orphanedNow),
      };
    }
    // The ended statements overlaid with the open ones, without copying either.
    const openById = new Map(open.map((stmt) => [stmt.id, stmt]));
    const live: Defs = { get: (id) => openById.get(id) ?? defs.get(id), has: (id) => openById.has(id) || defs.has(id) };
    const openChecker = new Checker(library, live, new Set());
    for (const stmt of open) openChecker.statement(stmt);
    const openRefs = new Set<string>();
    for (const stmt of open) for (const name of openChecker.refsOf(stmt.id)) openRefs.add(name);
    const openUnresolved: string[] = [];
    for (const name of openRefs) if (!live.has(name) && !pending.has(name)) openUnresolved.push(name);
    // Open statements whose line has ended are orphans at once when nothing refers to them
    // (appended when the list is read).
    const endedOpen = new Set<string>();
    let orphanedOpen: string[] | null = null;
    for (const stmt of open) {
      if (!lineEnded(stmt.end, to)) continue;
      endedOpen.add(stmt.id);
      if (stmt.id === "root" || (stmt.kind !== "component" && stmt.kind !== "value")) continue;
      if (referenced.has(stmt.id) || (unreferenced.has(stmt.id) && !openRefs.has(stmt.id))) continue; // listed already
      if (open.length > 1 && open.some((other) => other !== stmt && openChecker.refsOf(other.id).includes(stmt.id))) continue;
      (orphanedOpen ??= []).push(stmt.id);
    }
    let added = 0;
    for (const id of openById.keys()) if (!defs.has(id)) added++;
    // The lists of every result made from this state: one function each, shared by those results
    // (each makes its lists when it first reads them). Names the open statements define are not
    // pending; names they refer to are not orphans.
    const pendingNow = pending.snapshot();
    const orphanedNow = unreferenced.snapshot();
    const unresolved = () => readNames(pendingNow, openById).concat(openUnresolved);
    const orphaned = orphanedOpen ? () => readNames(orphanedNow, openRefs).concat(orphanedOpen) : () => readNames(orphanedNow, openRefs);
    return { open, ended: endings, openById, openCheckErrors: openChecker.errors, endedOpen, added, unresolved, orphaned };
  }
  // The best result so far: final statements' errors plus the open statement's own. `same`: the
  // open statements are those of the last result, and nothing has ended since.
  function result(open: Statement[], openBroken: BrokenLine[], to: number, same = false): ParseResult {
    const reuse = lastOpen !== null && lastOpen.ended === endings && (same ? lastOpen.open === open : open.length === 0 && lastOpen.open.length === 0);
    const state = reuse ? lastOpen! : (lastOpen = openState(open, to));
    const { openById, openCheckErrors, endedOpen, added } = state;
    // Ended statements come before the open ones, so their errors come first in source order.
    if (publishedErrors < checker.errors.length || publishedBroken < finalBroken.length) {
      const added = [...brokenLineErrors(finalBroken.slice(publishedBroken), library), ...checker.errors.slice(publishedErrors)].sort((a, b) => a.at - b.at);
      for (const error of added) finalErrorsPublic.push(publicError(error));
      publishedErrors = checker.errors.length;
      publishedBroken = finalBroken.length;
    }
    // Built when read: a cut statement's message reads the statement to say what it still needs.
    // The lists are made when read: NameList snapshots and the first `errorCount` of `finalErrors`
    // never change once made (later chunks append past them).
    const finalErrors = finalErrorsPublic;
    const errorCount = finalErrors.length;
    const textNow = tail;
    const textBase = tailBase;
    const endedList = finals;
    const endedPlaces = places;
    const endedCount = finals.length;
    const serial = ++made;
    const cache = trees;
    for (let i = treesNoted; i < finals.length; i++) cache.changed(finals[i].id);
    treesNoted = finals.length;
    for (const id of openNoted) cache.changed(id);
    const cutId = openBroken.find((b) => b.incomplete && b.id !== undefined)?.id;
    openNoted = cutId === undefined ? [...openById.keys()] : [...openById.keys(), cutId];
    for (const id of openNoted) cache.changed(id);
    return lazyResult(
      {
        errors: () => {
          const open = [...brokenLineErrors(openBroken, library, { text: textNow, base: textBase }), ...openCheckErrors]
            .sort((a, b) => a.at - b.at)
            .map(publicError);
          return finalErrors.slice(0, errorCount).concat(open);
        },
        incomplete: openBroken.some((b) => b.incomplete),
        unresolved: state.unresolved,
        orphaned: state.orphaned,
        statements: defs.size + added,
      },
      () => {
        // The newest result sees the ended statements as `defs` holds them now; an older one as
        // they were when it was made, and builds its tree on its own.
        const newest = serial === made && cache === trees && finals.length === endedCount;
        // A statement cut mid-way is shown closed (its open strings and brackets). For the newest
        // result, the scan that followed it knows what is open, and which items of its brackets
        // have been read whole: those are read once (cut-tree.ts).
        const cut = openBroken.find((b) => b.incomplete && b.id !== undefined);
        let closed: Closed | null = null;
        let parted: CutView | null = null;
        if (cut !== undefined && !openById.has(cut.id!)) {
          const known = newest && scan !== null && scan.start === cut.start && scan.pos === cut.end && !scan.lost ? scan : null;
          if (known !== null) parted = cutTree.read(between, cut.start, trimmedTo(cut.start, cut.end), known, length);
          if (parted === null)
            closed = closeStatement(textNow.slice(cut.start - textBase, cut.end - textBase), length, known ? (trimmed) => known.closers(trimmed) : undefined);
        }
        const shown = parted?.statement ?? closed?.statement;
        const closedId = shown?.id;
        const endedThen = newest ? defs : endedAt(endedList, endedPlaces, endedCount);
        const view: Defs = {
          get: (id) => (id === closedId ? shown : (openById.get(id) ?? endedThen.get(id))),
          has: (id) => id === closedId || openById.has(id) || endedThen.has(id),
        };
        const partial = new Set<string>();
        for (const id of openById.keys()) if (!endedOpen.has(id)) partial.add(id);
        if (closedId !== undefined) partial.add(closedId);
        // The closed statement's offsets are past the text: its sources are read from its own text.
        const text = newest ? textSoFar : () => chunks.join("");
        // (Read by parts, its offsets are the stream's, and its closers stand where the text read ends.)
        const source: SourceOf =
          parted !== null
            ? (start, end) => (end <= parted.at ? text().slice(start, end) : text().slice(start, parted.at) + parted.closers.slice(0, end - parted.at))
            : closed === null
              ? (start, end) => text().slice(start, end)
              : (start, end) => (start >= closed.base ? closed.text.slice(start - closed.base, end - closed.base) : text().slice(start, end));
        if (!newest) return materializeRoot(source, view, library, partial);
        cache.sync();
        return materializeRoot(source, view, library, partial, cache, parted && { statement: parted.statement, kept: parted.kept });
      },
    );
  }
}
