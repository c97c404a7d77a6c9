// Merging an edit into an artifact's program. The edit is a patch (only the statements that
// change) or a whole program; both merge the same way: a statement whose name the base has
// replaces it in place, a new name is appended, `name = null` deletes that name, and then every
// statement no longer reachable from `root` is dropped (state, queries and mutations are kept:
// the checker never counts them as orphans either).
//
// Statements are read with the language's own parser, never by splitting lines: a ternary over
// several lines, a string holding `=`, a bracket spread over lines, fences or an envelope around
// the patch are one statement each, exactly as the checker sees them. Pure: no I/O; the parser
// must be loaded (loadLanguage) first.
import { engineLoaded, setInput } from "../lang/engine.ts";
import { frame } from "../lang/frame.ts";
import { splitBlocks } from "../lang/parse.ts";
import { definitions } from "../lang/check.ts";
import type { Expr, Statement, StatementKind } from "../lang/types.ts";

/** One statement as the merge handles it: its source text and the names it references. */
export interface MergeStatement {
  id: string;
  /** The statement's source text, `name = expression`, possibly over several lines. */
  text: string;
  refs: string[];
  /** `name = null`: in a patch, deletes `name`. */
  isNull: boolean;
  /** Kept whether or not root reaches it. */
  keep: boolean;
}

export interface MergeResult {
  /** The merged program, one statement after another. */
  program: string;
  /** Names the edit replaced, added or deleted (`= null`). */
  replaced: string[];
  added: string[];
  deleted: string[];
  /** Statements dropped because root no longer reaches them. */
  collected: string[];
  /** Lines of the edit that are no statement at all (prose, `name: value`), left out. */
  ignored: string[];
}

const NAME_EQUALS = /^[ \t]*(\$?[A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)/;
// Names a broken line may reference: read loosely (outside strings), so that nothing the line may
// need is collected; the checker then says what is wrong with the line itself.
const WORDS = /"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|(\$?[A-Za-z_][A-Za-z0-9_]*)/g;

function collectRefs(expr: Expr, out: Set<string>): void {
  switch (expr.k) {
    case "ref":
      out.add(expr.name);
      return;
    case "state":
      out.add(expr.name.startsWith("$") ? expr.name : `$${expr.name}`);
      return;
    case "arr":
      for (const item of expr.items) collectRefs(item, out);
      return;
    case "obj":
      for (const entry of expr.entries) collectRefs(entry.value, out);
      return;
    case "call":
    case "builtin":
      for (const arg of expr.args) collectRefs(arg, out);
      return;
    case "action":
      for (const step of expr.steps) collectRefs(step, out);
      return;
    case "unary":
      collectRefs(expr.arg, out);
      return;
    case "binary":
      collectRefs(expr.left, out);
      collectRefs(expr.right, out);
      return;
    case "ternary":
      collectRefs(expr.cond, out);
      collectRefs(expr.then, out);
      collectRefs(expr.else, out);
      return;
    case "member":
      collectRefs(expr.obj, out);
      return;
    case "index":
      collectRefs(expr.obj, out);
      collectRefs(expr.index, out);
      return;
    default:
      return;
  }
}

// The program inside the wrapping (fences, envelope), split by the language's parser.
function split(source: string) {
  if (!engineLoaded()) throw new Error("call `await loadLanguage()` once before merging");
  const framed = frame(source);
  setInput(source);
  return splitBlocks(source, framed.blocks);
}

/** The effective statement of each name in a program (a later one replaces an earlier one). */
export function readProgram(text: string): Map<string, Statement> {
  return definitions(split(String(text)).statements);
}

function kept(id: string, kind: StatementKind): boolean {
  return id.startsWith("$") || kind === "state" || kind === "query" || kind === "mutation";
}

/**
 * The statements of a program or patch (bare, fenced, or in an envelope), in source order, and
 * the lines that are no statement. A line that starts `name =` but does not parse is kept as a
 * statement of that name with its text as written: the check after the merge reports it and the
 * repair mends it, where dropping it would lose what the model meant.
 */
export function readStatements(text: string): { statements: MergeStatement[]; ignored: string[] } {
  const source = String(text);
  const parts = split(source);
  const units: { at: number; stmt: MergeStatement | null; raw: string }[] = [];
  for (const stmt of parts.statements) {
    const refs = new Set<string>();
    collectRefs(stmt.expr, refs);
    refs.delete(stmt.id);
    units.push({
      at: stmt.start,
      raw: "",
      stmt: { id: stmt.id, text: source.slice(stmt.start, stmt.end), refs: [...refs], isNull: stmt.expr.k === "null", keep: kept(stmt.id, stmt.kind) },
    });
  }
  for (const line of parts.broken) {
    const raw = source.slice(line.start, line.end).replace(/\s+$/, "");
    const id = line.id ?? NAME_EQUALS.exec(raw)?.[1];
    if (raw.trim() === "") continue;
    if (id === undefined) {
      units.push({ at: line.start, stmt: null, raw });
      continue;
    }
    const refs = new Set<string>();
    for (const m of raw.slice(raw.indexOf("=") + 1).matchAll(WORDS)) if (m[1] !== undefined) refs.add(m[1]);
    refs.delete(id);
    units.push({ at: line.start, raw, stmt: { id, text: raw.trim(), refs: [...refs], isNull: false, keep: id.startsWith("$") } });
  }
  units.sort((a, b) => a.at - b.at);
  const statements: MergeStatement[] = [];
  const ignored: string[] = [];
  for (const u of units) {
    if (u.stmt) statements.push(u.stmt);
    else ignored.push(u.raw.trim());
  }
  return { statements, ignored };
}

/** The effective statement of each name: a later one takes the earlier one's name and the later place. */
function byName(statements: MergeStatement[]): Map<string, MergeStatement> {
  const out = new Map<string, MergeStatement>();
  for (const stmt of statements) {
    out.delete(stmt.id);
    out.set(stmt.id, stmt);
  }
  return out;
}

/** Merges `edit` (a patch or a whole program) into `base`. Never throws once the parser is loaded. */
export function mergeProgram(base: string, edit: string, rootId = "root"): MergeResult {
  const current = byName(readStatements(base).statements);
  const patch = readStatements(edit);
  const replaced: string[] = [];
  const added: string[] = [];
  const deleted: string[] = [];
  // In place: a Map keeps a replaced key where it was; a new one goes to the end.
  const merged = new Map(current);
  for (const stmt of byName(patch.statements).values()) {
    if (stmt.isNull) {
      if (merged.delete(stmt.id)) deleted.push(stmt.id);
      continue;
    }
    (merged.has(stmt.id) ? replaced : added).push(stmt.id);
    merged.set(stmt.id, stmt);
  }
  const collected: string[] = [];
  if (merged.has(rootId)) {
    const reached = new Set<string>();
    const queue: string[] = [];
    for (const [id, stmt] of merged) {
      if (id === rootId || stmt.keep) {
        reached.add(id);
        queue.push(id);
      }
    }
    while (queue.length) {
      for (const ref of merged.get(queue.pop()!)!.refs) {
        if (!reached.has(ref) && merged.has(ref)) {
          reached.add(ref);
          queue.push(ref);
        }
      }
    }
    for (const id of [...merged.keys()]) {
      if (reached.has(id)) continue;
      merged.delete(id);
      collected.push(id);
    }
  }
  const program = [...merged.values()].map((s) => s.text).join("\n");
  return { program, replaced, added, deleted, collected, ignored: patch.ignored };
}
