// Passes over calls: a misspelt component or builtin, a component where its parent takes
// another, a string where it takes components, excess arguments, a required argument
// that can safely be filled, an inline Query/Mutation hoisted into its own statement, and a
// root of the wrong component wrapped in the library's root component.
import { BUILTINS, ACTION_STEPS, TOOL_CALLS } from "../lang/check.ts";
import type { Expr, PropSchema } from "../lang/index.ts";
import { lineBreak, type Edit } from "./edits.ts";
import { eachNode, innermostAt, lastHolding, type CallExpr } from "./exprs.ts";
import { nearest } from "./nearest.ts";
import { demoted, heldBy, nameByShape, stringAsText } from "./names.ts";
import { errorsOf, statementAt, type Round } from "./round.ts";

/** A misspelt component or builtin becomes the closest name, when one is close. */
export function unknownComponents(round: Round): Edit[] {
  const edits: Edit[] = [];
  // Calls named by shape: one holding another named this round is named next round, by what
  // its arguments are then (`Div([H2("Title"), P("Text")])`: the Div is no chart of two items).
  const renamed: CallExpr[] = [];
  for (const error of errorsOf(round, "unknown-component")) {
    const stmt = statementAt(round, error.at);
    const name = error.component ?? "";
    if (!stmt) continue;
    if (name.startsWith("@")) {
      const fix = nearest(name.slice(1), [...BUILTINS, ...ACTION_STEPS]);
      if (fix) edits.push({ start: error.at + 1, end: error.at + name.length, text: fix });
      continue;
    }
    const hit = innermostAt(stmt.expr, error.at, (e) => e.k === "call" && e.start === error.at && e.name === name);
    const byShape = hit?.e.k === "call" ? nameByShape(round, hit.e, stmt.expr, stmt.id) : null;
    if (hit && byShape) {
      edits.push({ start: hit.e.start, end: (hit.e as CallExpr).nameEnd, text: byShape });
      renamed.push(hit.e as CallExpr);
      continue;
    }
    const given = hit?.e.k === "call" ? hit.e.args.length : 0;
    // Only components the call's arguments can satisfy: a name that fits but then misses a
    // required argument would trade one error for another.
    const fitting = [...round.library.components.values()].filter((c) => c.props.every((p, i) => i < given || !p.required || p.hasDefault)).map((c) => c.name);
    const fix = nearest(name, [...fitting, ...TOOL_CALLS]);
    // Nor one most of whose arguments it does not take (`Panel({...})` is no Label).
    const chosen = fix === null ? undefined : round.library.components.get(fix);
    const misfit = hit?.e.k === "call" && chosen !== undefined && given > 0 && round.fit.score(hit.e.args, chosen).score < 0;
    if (hit && fix && !misfit) {
      edits.push({ start: hit.e.start, end: (hit.e as CallExpr).nameEnd, text: fix });
      continue;
    }
    // No component takes it: its text is kept in a text component rather than lost with it.
    const demotion = hit?.e.k === "call" ? demoted(round, hit.e, stmt.expr, stmt.id) : null;
    if (demotion) edits.push(demotion);
  }
  const holding = new Set(renamed.filter((outer) => renamed.some((inner) => inner.start > outer.start && inner.end <= outer.end)).map((c) => c.start));
  return holding.size === 0 ? edits : edits.filter((e) => !holding.has(e.start));
}

/** A string where its parent takes components: held in the text component allowed there (names.ts). */
export function stringsAsText(round: Round): Edit[] {
  const edits: Edit[] = [];
  for (const error of errorsOf(round, "type-mismatch")) {
    const stmt = statementAt(round, error.at);
    const hit = stmt && innermostAt(stmt.expr, error.at, (e) => e.k === "str" && e.start === error.at);
    const edit = hit ? stringAsText(round, hit.e, stmt.expr) : null;
    if (edit) edits.push(edit);
  }
  return edits;
}

/**
 * A component of the library where its parent does not take it: held in the component that holds
 * a list of it, when the parent takes that one (a Button in a Card: `Buttons([…])`, like
 * neighbours in one); else (the chat library's `Text` in a Card, which takes `TextContent`)
 * renamed to the component allowed there that its arguments fit and its name means (names.ts),
 * when one is.
 */
export function misplacedComponents(round: Round): Edit[] {
  const edits: Edit[] = [];
  // Like calls where one parent's list takes them get one answer: a list of a thousand misplaced
  // texts is named once, not a thousand times (naming scores every component).
  const named = new Map<string, string | null>();
  // Values to hold, as written (a call, or a reference to one): where, in which list and place.
  const held: { start: number; end: number; holder: string; list: Expr | null; index: number }[] = [];
  for (const error of errorsOf(round, "type-mismatch")) {
    const outer = statementAt(round, error.at);
    if (!outer) continue;
    const site = innermostAt(outer.expr, error.at, (e) => (e.k === "call" || e.k === "ref") && e.start === error.at)?.e;
    // Reached through a reference: the statement it names, when that is the call.
    const stmt = site?.k === "ref" ? round.defs.get(site.name) : outer;
    const call = site?.k === "ref" ? stmt?.expr : site;
    if (!site || !stmt || call?.k !== "call" || !round.library.components.has(call.name)) continue;
    const holder = heldBy(round, call, stmt.expr, stmt.id);
    if (holder !== null) {
      const at = (e: Expr) => (e.k === "arr" ? lastHolding(e.items, (x) => x, site.start) : -1);
      const list = innermostAt(outer.expr, site.start, (e) => e.k === "arr" && e.items[at(e)] === site)?.e ?? null;
      held.push({ start: site.start, end: site.end, holder, list, index: list ? at(list) : -1 });
      continue;
    }
    const key = `${error.component}${error.path?.replace(/\/\d+/g, "/#")}|${call.name}(${call.args.map((a) => (a.k === "str" && !/\s/.test(a.v) && a.v.length <= 24 ? JSON.stringify(a.v) : a.k)).join()})`;
    let name = named.get(key);
    if (name === undefined) named.set(key, (name = nameByShape(round, call, stmt.expr, stmt.id)));
    if (name !== null && name !== call.name) edits.push({ start: call.start, end: call.nameEnd, text: name });
  }
  // Neighbours in one list with the same holder share it.
  held.sort((a, b) => a.start - b.start);
  for (let i = 0; i < held.length; ) {
    let j = i + 1;
    const { list, holder } = held[i];
    while (j < held.length && list !== null && held[j].list === list && held[j].holder === holder && held[j].index === held[j - 1].index + 1) j++;
    const [start, end] = [held[i].start, held[j - 1].end];
    edits.push({ start, end, text: `${holder}([${round.text.slice(start, end)}])` });
    i = j;
  }
  return edits;
}

/** Arguments past the component's last property are dropped. */
export function excessArgs(round: Round): Edit[] {
  const edits: Edit[] = [];
  for (const error of errorsOf(round, "excess-args")) {
    const stmt = statementAt(round, error.at);
    const component = round.library.components.get(error.component ?? "");
    if (!stmt || !component) continue;
    const hit = innermostAt(stmt.expr, error.at, (e) => e.k === "call" && e.name === component.name && e.args.some((a) => a.start === error.at));
    if (!hit) continue;
    const args = (hit.e as CallExpr).args;
    const keep = component.props.length;
    const last = args[args.length - 1];
    // Cut from the end of the last kept argument, so a trailing comma or spacing stays as it was.
    edits.push(keep > 0 ? { start: args[keep - 1].end, end: last.end, text: "" } : { start: args[0].start, end: hit.e.end - 1, text: "" });
  }
  return edits;
}

/** A value that is safe to stand in for a missing required property: only an empty list. */
function safeEmpty(schema: PropSchema): string | null {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes("array") ? "[]" : null;
}

/** Missing or null required properties without a default are filled when an empty value is safe. */
export function requiredArgs(round: Round): Edit[] {
  const edits: Edit[] = [];
  const done = new Set<number>();
  for (const error of errorsOf(round, "missing-required", "null-required")) {
    const component = round.library.components.get(error.component ?? "");
    const stmt = statementAt(round, error.code === "missing-required" ? error.at - 1 : error.at);
    if (!component || !stmt) continue;
    if (error.code === "null-required") {
      const prop = component.props.find((p) => `/${p.name}` === error.path);
      const fill = prop && safeEmpty(prop.schema);
      if (fill) edits.push({ start: error.at, end: error.at + 4, text: fill });
      continue;
    }
    const hit = innermostAt(stmt.expr, error.at - 1, (e) => e.k === "call" && e.name === component.name && e.end === error.at);
    if (!hit || done.has(hit.e.start)) continue;
    done.add(hit.e.start);
    const call = hit.e as CallExpr;
    const lastRequired = component.props.findLastIndex((p) => p.required && !p.hasDefault);
    const fills: string[] = [];
    for (let i = call.args.length; i <= lastRequired; i++) {
      const p = component.props[i];
      const fill = p.required && !p.hasDefault ? safeEmpty(p.schema) : "null";
      if (fill === null) break;
      fills.push(fill);
    }
    if (fills.length !== lastRequired + 1 - call.args.length) continue; // not every gap is safe: leave it
    const lastArg = call.args[call.args.length - 1];
    edits.push(
      lastArg ? { start: lastArg.end, end: lastArg.end, text: `, ${fills.join(", ")}` } : { start: call.end - 1, end: call.end - 1, text: fills.join(", ") },
    );
  }
  return edits;
}

/** A name for a hoisted Query/Mutation: from its tool name when it has one, never taken. */
function freshName(call: CallExpr, taken: Set<string>): string {
  const tool = call.args[0]?.k === "str" ? call.args[0].v : "";
  const words = tool.split(/[^A-Za-z0-9]+/).filter(Boolean);
  let base = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join("");
  if (!/^[A-Za-z_]/.test(base) || ["true", "false", "null"].includes(base)) base = call.name.toLowerCase();
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

/** An inline Query/Mutation moves into its own statement, referenced where it stood. */
export function hoistInline(round: Round): Edit[] {
  const edits: Edit[] = [];
  const errors = errorsOf(round, "inline-reserved");
  // The names in use (every reference of the program) are gathered only when there is something to hoist.
  if (errors.length === 0) return edits;
  const taken = new Set<string>([...round.defs.keys(), ...round.ins.broken.flatMap((b) => (b.id ? [b.id] : []))]);
  for (const stmt of round.ins.statements) eachNode(stmt.expr, (e) => e.k === "ref" && taken.add(e.name));
  const br = lineBreak(round.ins.program);
  const hoisted = new Set<number>();
  for (const error of errors) {
    const stmt = statementAt(round, error.at);
    // One per statement and round: two insertions at its end would collide.
    if (!stmt || hoisted.has(stmt.start)) continue;
    hoisted.add(stmt.start);
    const hit = innermostAt(stmt.expr, error.at, (e) => e.k === "call" && e.start === error.at && TOOL_CALLS.includes(e.name));
    if (!hit) continue;
    const call = hit.e as CallExpr;
    const name = freshName(call, taken);
    edits.push({ start: call.start, end: call.end, text: name });
    edits.push({ start: stmt.end, end: stmt.end, text: `${br}${name} = ${round.text.slice(call.start, call.end)}` });
  }
  return edits;
}

/** `root` of the wrong component is wrapped in the library's root component. */
export function wrapRoot(round: Round): Edit[] {
  const want = round.library.root;
  const root = round.defs.get("root");
  const component = want ? round.library.components.get(want) : undefined;
  const wrong = errorsOf(round, "type-mismatch").some((e) => e.statementId === "root" && e.path === undefined);
  if (!wrong || !root || !component || !safeEmpty(component.props[0]?.schema ?? {})) return [];
  const expr: Expr = root.expr;
  return [
    { start: expr.start, end: expr.start, text: `${want}([` },
    { start: expr.end, end: expr.end, text: "])" },
  ];
}
