// Passes over the reference graph: references to nothing, a missing `root`, orphaned statements.
import type { Statement } from "../lang/index.ts";
import { lineBreak, removeLines, type Edit } from "./edits.ts";
import { eachNode, innermostAt } from "./exprs.ts";
import { nearest } from "./nearest.ts";
import { errorsOf, statementAt, type Round } from "./round.ts";

/** Names referenced anywhere in the program. */
function referenced(round: Round): Set<string> {
  const out = new Set<string>();
  for (const stmt of round.defs.values()) eachNode(stmt.expr, (e) => e.k === "ref" && out.add(e.name));
  return out;
}

/**
 * A reference to nothing points at the defined-but-unused statement it misspells, else it is
 * removed from its array or optional argument. In a required argument it stays: removing it
 * would only trade one error for another.
 */
export function danglingRefs(round: Round): Edit[] {
  const edits: Edit[] = [];
  const dangling = errorsOf(round, "unresolved");
  if (dangling.length === 0) return edits; // before `referenced`, which reads every statement
  const used = referenced(round);
  const unused = [...round.defs.keys()].filter((id) => id !== "root" && !used.has(id));
  for (const error of dangling) {
    const stmt = statementAt(round, error.at);
    const hit = stmt && innermostAt(stmt.expr, error.at, (e) => e.k === "ref" && e.start === error.at);
    if (!hit || hit.e.k !== "ref" || round.defs.has(hit.e.name)) continue; // a cycle: not ours to cut
    const ref = hit.e;
    const target = nearest(ref.name, unused);
    if (target) {
      edits.push({ start: ref.start, end: ref.end, text: target });
      continue;
    }
    const parent = hit.parent;
    if (parent?.k === "arr") {
      const items = parent.items;
      const i = hit.index;
      if (i < items.length - 1) edits.push({ start: ref.start, end: items[i + 1].start, text: "" });
      else if (i > 0) edits.push({ start: items[i - 1].end, end: ref.end, text: "" });
      else edits.push({ start: ref.start, end: ref.end, text: "" });
    } else if (parent?.k === "call") {
      const i = hit.index;
      const prop = round.library.components.get(parent.name)?.props[i];
      if (!prop || (prop.required && !prop.hasDefault)) continue;
      if (i < parent.args.length - 1) edits.push({ start: ref.start, end: ref.end, text: "null" });
      else edits.push(i > 0 ? { start: parent.args[i - 1].end, end: ref.end, text: "" } : { start: ref.start, end: ref.end, text: "" });
    }
  }
  return edits;
}

/**
 * No `root`: the single top statement becomes `root` when it fits the library's root (any
 * element when the library names none); otherwise a root is built over every top statement.
 */
export function missingRoot(round: Round): Edit[] {
  if (!errorsOf(round, "missing-root").some((e) => e.statementId === undefined)) return [];
  const used = referenced(round);
  const tops: Statement[] = [...round.defs.values()].filter((s) => s.kind === "component" && !used.has(s.id)).sort((a, b) => a.start - b.start);
  if (!tops.length) return [];
  const want = round.library.root;
  const fits = (s: Statement) => s.expr.k === "call" && (want ? s.expr.name === want : round.library.components.has(s.expr.name));
  const rootComponent = want ? round.library.components.get(want) : undefined;
  const canBuild = rootComponent?.props[0] && [rootComponent.props[0].schema.type].flat().includes("array");
  if ((tops.length === 1 && fits(tops[0])) || (!canBuild && fits(tops[0]))) {
    return [{ start: tops[0].start, end: tops[0].start + tops[0].id.length, text: "root" }];
  }
  if (!canBuild) return [];
  const br = lineBreak(round.ins.program);
  return [{ start: round.from, end: round.from, text: `root = ${want}([${tops.map((s) => s.id).join(", ")}])${br}` }];
}

/** Statements nothing reachable from `root` uses are removed, whole lines. */
export function orphans(round: Round): Edit[] {
  const edits: Edit[] = [];
  for (const error of errorsOf(round, "orphaned")) {
    const stmt = round.defs.get(error.statementId ?? "");
    if (stmt) edits.push(removeLines(round.text, stmt.start, stmt.end, round.from, round.to));
  }
  return edits;
}
