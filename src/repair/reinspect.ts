// The inspection of a round's result, made from the round's own instead of a parse of the whole
// text: the statements the edits fell in are read again (only their text is parsed), the rest
// keep their trees (moved by what the edits added before them), and only the checks those
// statements take part in run again. Null when the edits do more than mend statements in place
// (a line added or removed, a name defined anew, a reference added or dropped): the caller then
// inspects the whole text.
import type { BrokenLine, Expr, Inspection, Library, PlacedError, Statement, StatementKind } from "../lang/index.ts";
import { Checker, type Defs } from "../lang/check.ts";
import { parseTree, setScratch } from "../lang/engine.ts";
import { splitProgram } from "../lang/program.ts";
import type { Edit } from "./edits.ts";
import { eachNode } from "./exprs.ts";
import { statementAt, type Round } from "./round.ts";
import { wordSites } from "./word-sites.ts";

/** The expression `e` with every offset moved by `by` (a copy; `e` itself is shared). */
export function shiftExpr(e: Expr, by: number): Expr {
  if (by === 0) return e;
  const s = e.start + by;
  const t = e.end + by;
  switch (e.k) {
    case "str":
    case "num":
    case "bool":
    case "null":
    case "ref":
    case "state":
      return { ...e, start: s, end: t };
    case "arr":
      return { k: "arr", items: e.items.map((x) => shiftExpr(x, by)), start: s, end: t };
    case "obj":
      return { k: "obj", entries: e.entries.map((x) => ({ key: x.key, value: shiftExpr(x.value, by) })), start: s, end: t };
    case "call":
      return { k: "call", name: e.name, args: e.args.map((x) => shiftExpr(x, by)), start: s, end: t, nameEnd: e.nameEnd + by };
    case "builtin":
      return { k: "builtin", name: e.name, args: e.args.map((x) => shiftExpr(x, by)), start: s, end: t };
    case "action":
      return { k: "action", steps: e.steps.map((x) => shiftExpr(x, by)), start: s, end: t };
    case "unary":
      return { k: "unary", op: e.op, arg: shiftExpr(e.arg, by), start: s, end: t };
    case "binary":
      return { k: "binary", op: e.op, left: shiftExpr(e.left, by), right: shiftExpr(e.right, by), start: s, end: t };
    case "ternary":
      return { k: "ternary", cond: shiftExpr(e.cond, by), then: shiftExpr(e.then, by), else: shiftExpr(e.else, by), start: s, end: t };
    case "member":
      return { k: "member", obj: shiftExpr(e.obj, by), name: e.name, start: s, end: t };
    case "index":
      return { k: "index", obj: shiftExpr(e.obj, by), index: shiftExpr(e.index, by), start: s, end: t };
  }
}

/**
 * A statement the edits did not touch, moved by `by`: its expression is copied only when read
 * (a long program's statements after the edit are mostly never read).
 */
class MovedStatement implements Statement {
  #expr: Expr | undefined;
  readonly start: number;
  readonly end: number;
  constructor(
    readonly base: Statement,
    readonly by: number,
  ) {
    this.start = base.start + by;
    this.end = base.end + by;
  }
  get id(): string {
    return this.base.id;
  }
  get kind(): StatementKind {
    return this.base.kind;
  }
  get expr(): Expr {
    return (this.#expr ??= shiftExpr(this.base.expr, this.by));
  }
  toJSON(): Statement {
    return { id: this.id, kind: this.kind, expr: this.expr, start: this.start, end: this.end };
  }
}

/** The statement `stmt` stands for, moved or not: the same object when its text is the other's, unedited. */
export function unmoved(stmt: Statement): Statement {
  return stmt instanceof MovedStatement ? stmt.base : stmt;
}

function moved(stmt: Statement, by: number): Statement {
  if (by === 0) return stmt;
  // Moved again: from the original, so that a read copies once.
  if (stmt instanceof MovedStatement) return new MovedStatement(stmt.base, stmt.by + by);
  return new MovedStatement(stmt, by);
}

/** Reads `snippet`, to stand at offset `at` of the text, as statements: null unless it is exactly one. */
function readStatement(snippet: string, at: number): Statement | null {
  const base = setScratch(snippet);
  const parts = splitProgram(snippet, base, base, base + snippet.length, parseTree("Program", base, base + snippet.length));
  if (parts.broken.length || parts.statements.length !== 1) return null;
  const s = parts.statements[0];
  if (s.start !== base || s.end !== base + snippet.length) return null;
  return { id: s.id, kind: s.kind, expr: shiftExpr(s.expr, at - base), start: at, end: at + snippet.length };
}

// Checks a statement reports on itself (as opposed to the program's graph and root).
const OWN = new Set<PlacedError["code"]>(["unknown-component", "missing-required", "null-required", "type-mismatch", "excess-args", "inline-reserved"]);

/** Whether one of edits[from, to) overlaps a reference in `e`. */
function rewritesRef(e: Expr, edits: Edit[], from: number, to: number): boolean {
  let hit = false;
  eachNode(e, (n) => {
    if (hit || n.k !== "ref") return;
    for (let i = from; i < to; i++) if (edits[i].start < n.end && n.start < edits[i].end) hit = true;
  });
  return hit;
}

/** Names referenced in `e`, in source order. */
function refNames(e: Expr): string[] {
  const out: string[] = [];
  eachNode(e, (n) => n.k === "ref" && out.push(n.name));
  return out;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const sortedNames = (e: Expr) => refNames(e).sort();

// Referrers looked for at most this many (a name many statements use is checked in full).
const MAX_AFFECTED = 64;

/** Where the edits move an old offset: by what the edits before it added. */
interface Shift {
  /** What each edit adds (its text's length less what it replaces), in position order. */
  deltas: number[];
  movedBy(at: number): number;
}

function shiftOf(edits: Edit[]): Shift {
  const deltas = edits.map((e) => e.text.length - (e.end - e.start));
  const sums = [0];
  for (const d of deltas) sums.push(sums[sums.length - 1] + d);
  return {
    deltas,
    movedBy(at) {
      // Edits are in position order and do not overlap: those before `at` are a prefix.
      let lo = 0;
      let hi = edits.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (edits[mid].end <= at && edits[mid].start < at) lo = mid + 1;
        else hi = mid;
      }
      return sums[lo];
    },
  };
}

/** What the later phases share: the round, the statements the edits touched (and read again), the names their checks reach. */
interface Reread {
  round: Round;
  touched: Statement[];
  touchedIds: Set<string>;
  renewed: Map<Statement, Statement>;
  affected: Set<string>;
  shift: Shift;
}

// reinspect is a sequence of small functions rather than one: as one, JSC's optimizing compiler
// took 0.4 s to compile it, and compiled it again every thousand or so calls.

/**
 * The inspection of `text`, the round's text with `edits` (the ones applied, in position order)
 * made, or null (see the top of this file).
 */
export function reinspect(round: Round, edits: Edit[], text: string, library: Library): Inspection | null {
  const { ins } = round;
  if (ins.blocks.length !== 1 || edits.length === 0) return null;
  const touched = touchedBy(round, edits);
  if (touched === null) return null;
  const shift = shiftOf(edits);
  const renewed = readAgain(round, touched, edits, shift.deltas, text);
  if (renewed === null) return null;
  const statements = movedStatements(ins.statements, edits, shift.deltas, renewed);
  const broken = ins.broken.map((b) => movedLine(b, shift.movedBy(b.start)));
  const affected = affectedBy(round, touched, statements, text);
  if (affected === null) return null;
  const done: Reread = { round, touched, touchedIds: new Set(touched.map((s) => s.id)), renewed, affected, shift };
  const kept = keptErrors(done);
  if (kept === null) return null;
  const to = ins.blocks[0].end + shift.movedBy(ins.blocks[0].end + 1);
  const found = checkedAgain(done, broken, to, library);
  const all = kept.concat(found);
  all.sort((a, b) => a.at - b.at);
  const block = { start: ins.blocks[0].start, end: to };
  return {
    head: ins.head,
    program: text.slice(block.start, block.end),
    tail: ins.tail,
    blocks: [block],
    between: ins.between,
    statements,
    broken,
    errors: all,
  };
}

/**
 * The statements the edits fall in, each edit inside one (its ends included: text added at a
 * statement's end mends it), or null. Broken lines lie between statements: no edit touches one.
 */
function touchedBy(round: Round, edits: Edit[]): Statement[] | null {
  const touched: Statement[] = [];
  for (const edit of edits) {
    const s = statementAt(round, edit.start);
    if (!s || edit.start < s.start || edit.end > s.end) return null;
    if (touched[touched.length - 1] !== s) touched.push(s);
  }
  return touched;
}

/**
 * Each touched statement read again from its new text, or null unless each is still one statement
 * of the same name, a component call, with the same references (so the graph is as it was).
 */
function readAgain(round: Round, touched: Statement[], edits: Edit[], deltas: number[], text: string): Map<Statement, Statement> | null {
  const renewed = new Map<Statement, Statement>();
  let e = 0;
  let by = 0; // what the edits before the statement added
  for (const s of touched) {
    if (round.defs.get(s.id) !== s || s.kind !== "component" || s.expr.k !== "call") return null;
    while (e < edits.length && edits[e].start < s.start) by += deltas[e++];
    const start = s.start + by;
    const first = e;
    while (e < edits.length && edits[e].start <= s.end) by += deltas[e++];
    // An edit that rewrites a reference changes the graph: known before the statement is parsed.
    if (rewritesRef(s.expr, edits, first, e)) return null;
    const next = readStatement(text.slice(start, s.end + by), start);
    if (!next || next.id !== s.id || next.kind !== "component" || next.expr.k !== "call") return null;
    if (!sameList(sortedNames(s.expr), sortedNames(next.expr))) return null;
    renewed.set(s, next);
  }
  return renewed;
}

/** Every statement where it now stands: statements and edits are both in position order, so one pass moves each by the edits before it. */
function movedStatements(old: Statement[], edits: Edit[], deltas: number[], renewed: Map<Statement, Statement>): Statement[] {
  const statements: Statement[] = new Array(old.length);
  for (let i = 0, k = 0, shift = 0; i < statements.length; i++) {
    const s = old[i];
    while (k < edits.length && edits[k].end <= s.start && edits[k].start < s.start) shift += deltas[k++];
    statements[i] = renewed.get(s) ?? moved(s, shift);
  }
  return statements;
}

function movedLine(b: BrokenLine, by: number): BrokenLine {
  if (by === 0) return b;
  const line = { ...b, start: b.start + by, end: b.end + by };
  if (b.stoppedAt !== undefined) line.stoppedAt = b.stoppedAt + by;
  return line;
}

/** The names of the statements whose checks may see a touched one: those that refer to it, at any remove; null when too many, or a state. */
function affectedBy(round: Round, touched: Statement[], statements: Statement[], text: string): Set<string> | null {
  const { ins, defs } = round;
  const affected = new Set(touched.map((s) => s.id));
  const queue = [...affected];
  const programFrom = ins.head.length;
  while (queue.length) {
    const name = queue.pop()!;
    if (name.startsWith("$")) return null;
    // The name as a word (not part of a longer one).
    for (const at of wordSites(text, name, programFrom)) {
      const i = statementIndex(statements, at);
      if (i < 0) continue;
      const holder = statements[i];
      if (affected.has(holder.id) || defs.get(holder.id) !== ins.statements[i]) continue;
      if (holder.kind === "state" || holder.kind === "query" || holder.kind === "mutation") return null;
      affected.add(holder.id);
      queue.push(holder.id);
      if (affected.size > MAX_AFFECTED) return null;
    }
  }
  return affected;
}

/**
 * The errors found before that stay, moved: what the checks of the affected statements found
 * through the rest (an error placed in an unaffected statement, or at a reference to one), and
 * every error of the rest. Null when one cannot be placed again.
 */
function keptErrors({ round, touched, touchedIds, renewed, affected, shift }: Reread): PlacedError[] | null {
  const { ins, defs } = round;
  // Asked only about an error of an affected statement that was not touched (rare): a referrer of
  // a long program's mended line (its root) is not walked, nor the program's statements filtered.
  let oldSpans: Statement[] | null = null;
  let refSites: Set<number> | null = null;
  const keptFromRest = (at: number) => {
    oldSpans ??= ins.statements.filter((s) => !affected.has(s.id) || defs.get(s.id) !== s);
    const s = statementIn(oldSpans, at);
    if (s !== undefined && s.start <= at && at <= s.end) return true;
    if (refSites === null) {
      const sites = (refSites = new Set<number>());
      for (const id of affected) {
        const s = defs.get(id)!;
        if (renewed.has(s)) continue;
        eachNode(s.expr, (n) => n.k === "ref" && !affected.has(n.name) && sites.add(n.start));
      }
    }
    return refSites.has(at);
  };
  const rootAffected = affected.has("root");
  const errors: PlacedError[] = [];
  for (const err of ins.errors) {
    const id = err.statementId;
    if (OWN.has(err.code) && id !== undefined && affected.has(id)) {
      if (touchedIds.has(id)) continue;
      if (!keptFromRest(err.at)) continue;
    }
    if (rootAffected && err.code === "missing-root" && id === "root") continue;
    const at = placeAgain(err.at, touched, renewed, shift.movedBy);
    if (at === null) return null;
    errors.push(at === err.at ? err : { ...err, at });
  }
  return errors;
}

/** What the checks of the touched statements, their referrers and (when affected) the root find now. */
function checkedAgain({ round, touched, touchedIds, renewed, affected, shift }: Reread, broken: BrokenLine[], to: number, library: Library): PlacedError[] {
  const { defs } = round;
  // The names are those of the round: its map of them, each statement read through the edits.
  const newDefs: Defs = {
    get: (id) => {
      const old = defs.get(id);
      return old === undefined ? undefined : (renewed.get(old) ?? moved(old, shift.movedBy(old.start)));
    },
    has: (id) => defs.has(id),
  };
  const brokenNames = new Set<string>();
  for (const line of broken) if (line.id !== undefined && !newDefs.has(line.id)) brokenNames.add(line.id);
  const real = new Checker(library, newDefs, brokenNames);
  for (const s of touched) real.statement(renewed.get(s)!);
  // The referrers, against the rest as values known only at run time (whatever they hold was
  // checked before and is kept above): their checks then cost what reaches a touched statement.
  // A check follows a reference only to resolve it (check.ts `resolve`), and a run-time value or
  // an undefined name resolves alike, to nothing known: so the rest need not be looked up, and a
  // long program's root (a reference to every statement) is checked without a map of all names.
  const opaque: Defs = {
    get: (id) => (affected.has(id) ? newDefs.get(id) : undefined),
    has: (id) => newDefs.has(id),
  };
  const referrers = new Checker(library, opaque, brokenNames);
  for (const id of affected) if (!touchedIds.has(id)) referrers.statement(newDefs.get(id)!);
  if (affected.has("root")) real.root(to);
  return [...real.errors, ...referrers.errors];
}

/** The number of the statement whose span holds `at` (statements in source order), or -1. */
function statementIndex(list: Statement[], at: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].start <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && at <= list[lo - 1].end ? lo - 1 : -1;
}

function statementIn(list: Statement[], at: number): Statement | undefined {
  const i = statementIndex(list, at);
  return i < 0 ? undefined : list[i];
}

/** Where an error kept from before the edits stands now; null when that cannot be told. */
function placeAgain(at: number, touched: Statement[], renewed: Map<Statement, Statement>, movedBy: (at: number) => number): number | null {
  const s = statementIn(touched, at);
  if (s === undefined) return at + movedBy(at);
  const next = renewed.get(s)!;
  if (at === s.start) return next.start;
  // A reference (an unresolved name): the same occurrence of that name in the new statement.
  const before: Expr[] = [];
  eachNode(s.expr, (n) => n.k === "ref" && before.push(n));
  const ref = before.find((n) => n.start === at);
  if (ref === undefined || ref.k !== "ref") return null;
  const nth = before.filter((n) => n.k === "ref" && n.name === ref.name && n.start < at).length;
  const after: Expr[] = [];
  eachNode(next.expr, (n) => n.k === "ref" && n.name === ref.name && after.push(n));
  after.sort((a, b) => a.start - b.start);
  return after[nth]?.start ?? null;
}
