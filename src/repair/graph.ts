// Passes over the reference graph: references to nothing, a missing `root`, orphaned statements.
import type { Expr, PropSchema, Statement } from "../lang/index.ts";
import { argumentLeftOut, itemLeftOut, lineBreak, removeLines, type Edit } from "./edits.ts";
import { eachNode, innermostAt, type CallExpr } from "./exprs.ts";
import { nearest } from "./nearest.ts";
import { camelName, hyphenDefined, inCode, LITERALS } from "./mend.ts";
import { listedByMeaning, normal, truthOf } from "./meaning.ts";
import { freeText } from "./values.ts";
import { errorsOf, statementAt, type Round } from "./round.ts";
import { NAME_CHARS, wordSites } from "./word-sites.ts";

/** Names referenced anywhere in the program. */
function referenced(round: Round): Set<string> {
  const out = new Set<string>();
  for (const stmt of round.defs.values()) eachNode(stmt.expr, (e) => e.k === "ref" && out.add(e.name));
  return out;
}

/**
 * The least value a schema takes, as text: what a statement the model referred to and never
 * wrote holds, so the call that needs it renders (empty) with all it was given. Null when no
 * such value is plain (a component, a constant, a value of unknown type).
 */
export function placeholder(schema: PropSchema): string | null {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    for (const b of branches) {
      const p = placeholder(b);
      if (p !== null) return p;
    }
    return null;
  }
  if (schema.$ref || schema.const !== undefined) return null;
  if (schema.enum) return schema.enum.length ? JSON.stringify(schema.enum[0]) : null;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("array")) return "[]";
  if (types.includes("string")) return '""';
  if (types.includes("number") || types.includes("integer")) return typeof schema.minimum === "number" ? String(schema.minimum) : "0";
  if (types.includes("boolean")) return "false";
  if (types.includes("object")) return "{}";
  return null;
}

/**
 * A name a broken line defines with hyphens (`form-buttons = …`, as HTML ids are written), in camel
 * case wherever it stands: its definition, and its users, where it reads as a subtraction
 * (`form - buttons`) or in a broken line's code. Before any other pass reads the lines or takes
 * `buttons` for a reference to nothing.
 */
export function hyphenNames(round: Round): Edit[] {
  const edits: Edit[] = [];
  const { broken } = round.ins;
  for (const line of broken) {
    const name = line.id === undefined ? hyphenDefined(round.text.slice(line.start, line.end)) : null;
    if (name === null) continue;
    for (const at of wordSites(round.text, name, round.from, `${NAME_CHARS}-`)) {
      const stmt = statementAt(round, at);
      const used =
        stmt && at >= stmt.start
          ? innermostAt(stmt.expr, at, (e) => e.k === "binary" && e.start === at && e.end === at + name.length) !== null
          : broken.some((b) => b.start <= at && at < b.end && inCode(round.text.slice(b.start, b.end), at - b.start));
      if (used) edits.push({ start: at, end: at + name.length, text: camelName(name) });
    }
  }
  return edits;
}

/**
 * A reference to nothing is a listed value without its quotes where one goes, or points at the
 * defined-but-unused statement it misspells, else it is removed from its array or optional
 * argument. In a required argument of plain data (a list, text, a number) the statement the model
 * referred to and never wrote is added, with the least value the argument takes: the call keeps
 * everything it was given and renders.
 */
export function danglingRefs(round: Round): Edit[] {
  const edits: Edit[] = [];
  const dangling = errorsOf(round, "unresolved");
  if (dangling.length === 0) return edits; // before `referenced`, which reads every statement
  const used = referenced(round);
  const unused = [...round.defs.keys()].filter((id) => id !== "root" && !used.has(id));
  const added = new Set<string>();
  const renamed = new Set<string>();
  for (const error of dangling) {
    const stmt = statementAt(round, error.at);
    const hit = stmt && innermostAt(stmt.expr, error.at, (e) => e.k === "ref" && e.start === error.at);
    if (!hit || hit.e.k !== "ref" || round.defs.has(hit.e.name)) {
      // A cycle, reported at its statement: one that lists itself (`main = Stack([header, main])`)
      // meant some other item, or none; the item goes (an orphan it meant is attached later).
      if (stmt && error.statementId === stmt.id) edits.push(...selfItems(stmt));
      continue;
    }
    const ref = hit.e;
    // `Stack[[a, b]]`: a call written with square brackets, read as indexing a name.
    const indexed = hit.parent?.k === "index" && hit.parent.obj === ref ? hit.parent : null;
    if (indexed && round.library.components.has(ref.name)) {
      edits.push({ start: ref.end, end: indexed.end, text: `(${round.text.slice(indexed.index.start, indexed.index.end)})` });
      continue;
    }
    // True, None, undefined: another language's literal, not a reference.
    if (Object.hasOwn(LITERALS, ref.name)) {
      edits.push({ start: ref.start, end: ref.end, text: LITERALS[ref.name] });
      continue;
    }
    // The argument it stands in, when it is one.
    const prop = hit.parent?.k === "call" ? round.library.components.get(hit.parent.name)?.props[hit.index] : undefined;
    // A listed value written without its quotes where one goes (`Card([a], sunk)`).
    const listed = prop?.shape.enumValues;
    const value = listed
      ? listedByMeaning(
          ref.name,
          [...listed].filter((v) => typeof v === "string"),
        )
      : null;
    if (value !== null) {
      edits.push({ start: ref.start, end: ref.end, text: JSON.stringify(value) });
      continue;
    }
    // `yes`, `No` where a boolean goes: the model's word for true or false.
    const truth = prop && [prop.schema.type].flat().includes("boolean") ? truthOf(ref.name) : null;
    if (truth !== null) {
      edits.push({ start: ref.start, end: ref.end, text: truth });
      continue;
    }
    // A capitalized word where text goes (`Button(Submit, …)`): the text without its quotes, as
    // no statement's name is written.
    if (/^[A-Z]/.test(ref.name) && prop && freeText(prop.schema)) {
      edits.push({ start: ref.start, end: ref.end, text: JSON.stringify(ref.name) });
      continue;
    }
    const target = nearest(ref.name, unused);
    if (target) {
      // The same name in another style (`chart_header` defined, `chartHeader` used): the one in
      // the style the program's other names do not use is renamed, once.
      if (outOfStyle(target, ref.name, round)) {
        const def = round.defs.get(target)!;
        if (!renamed.has(target)) edits.push({ start: def.start, end: def.start + target.length, text: ref.name });
        renamed.add(target);
      } else edits.push({ start: ref.start, end: ref.end, text: target });
      continue;
    }
    const parent = hit.parent;
    if (parent?.k === "arr") {
      edits.push(itemLeftOut(parent.items, hit.index));
    } else if (parent?.k === "call") {
      const i = hit.index;
      if (!prop) continue;
      if (prop.required && !prop.hasDefault) {
        const value = placeholder(prop.schema);
        if (value === null || added.has(ref.name) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(ref.name)) continue;
        added.add(ref.name);
        // On a line of its own after the line that refers to it.
        const nl = round.text.indexOf("\n", stmt.end);
        const at = nl === -1 || nl >= round.to ? round.to : round.text[nl - 1] === "\r" ? nl - 1 : nl;
        edits.push({ start: at, end: at, text: `${lineBreak(round.text)}${ref.name} = ${value}` });
        continue;
      }
      edits.push(argumentLeftOut(parent.args, i));
    }
  }
  return edits;
}

/** A statement's references to itself in its lists taken out: the first of each list this round (the edits of one list would meet). */
function selfItems(stmt: Statement): Edit[] {
  const edits: Edit[] = [];
  eachNode(stmt.expr, (e) => {
    const i = e.k === "arr" ? e.items.findIndex((item) => item.k === "ref" && item.name === stmt.id) : -1;
    if (e.k === "arr" && i !== -1) edits.push(itemLeftOut(e.items, i));
  });
  return edits;
}

const styleOf = (name: string) => (name.includes("_") ? "snake" : /[a-z0-9][A-Z]/.test(name) ? "camel" : "plain");

/** Whether definition `def` is `used` in another style, one fewer of the program's other names are written in. */
function outOfStyle(def: string, used: string, round: Round): boolean {
  const [was, is] = [styleOf(def), styleOf(used)];
  if (was === is || was === "plain" || is === "plain" || normal(def) !== normal(used)) return false;
  let score = 0;
  for (const id of round.defs.keys()) {
    const style = id === def ? null : styleOf(id);
    score += style === is ? 1 : style === was ? -1 : 0;
  }
  return score > 0;
}

/**
 * No `root`: the single top statement becomes `root` when it fits the library's root (any
 * element when the library names none); otherwise a root is built over every top statement.
 * A `root` written as a list (`root = [header, table]`) is held in the library's root component.
 */
export function missingRoot(round: Round): Edit[] {
  const errors = errorsOf(round, "missing-root");
  if (errors.length === 0) return [];
  const want = round.library.root;
  const rootComponent = want ? round.library.components.get(want) : undefined;
  const canBuild = rootComponent?.props[0] && [rootComponent.props[0].schema.type].flat().includes("array");
  const root = round.defs.get("root");
  if (canBuild && root?.expr.k === "arr" && errors.some((e) => e.statementId === "root")) {
    const { start, end } = root.expr;
    return [{ start, end, text: `${want}(${round.text.slice(start, end)})` }];
  }
  if (!errors.some((e) => e.statementId === undefined)) return [];
  const used = referenced(round);
  const tops: Statement[] = [...round.defs.values()].filter((s) => s.kind === "component" && !used.has(s.id)).sort((a, b) => a.start - b.start);
  if (!tops.length) return [];
  const fits = (s: Statement) => s.expr.k === "call" && (want ? s.expr.name === want : round.library.components.has(s.expr.name));
  if ((tops.length === 1 && fits(tops[0])) || (!canBuild && fits(tops[0]))) {
    return [{ start: tops[0].start, end: tops[0].start + tops[0].id.length, text: "root" }];
  }
  if (!canBuild) return [];
  const br = lineBreak(round.ins.program);
  return [{ start: round.from, end: round.from, text: `root = ${want}([${tops.map((s) => s.id).join(", ")}])${br}` }];
}

interface ListSite {
  arr: Extract<Expr, { k: "arr" }>;
  /** The statement holding the list. */
  owner: Statement;
  /** The component argument the list is (null for a list that stands alone or deeper). */
  slot: { call: CallExpr; index: number } | null;
  /** Its items that refer to statements, with them (an item naming one in quotes is not among them). */
  named: { item: Expr; stmt: Statement }[];
}

/** Every list of the statements reachable from root that names a statement among its items, by reference or in quotes, or is an empty argument. */
function listSites(round: Round, reachable: Set<string>): ListSite[] {
  const out: ListSite[] = [];
  for (const owner of round.defs.values()) {
    if (!reachable.has(owner.id)) continue;
    const stack: { e: Expr; slot: ListSite["slot"] }[] = [{ e: owner.expr, slot: null }];
    while (stack.length) {
      const { e, slot } = stack.pop()!;
      if (e.k === "call") e.args.forEach((a, index) => stack.push({ e: a, slot: { call: e, index } }));
      else if (e.k === "arr") {
        const named: ListSite["named"] = [];
        let quoted = false;
        for (const item of e.items) {
          const stmt = item.k === "ref" ? round.defs.get(item.name) : undefined;
          if (stmt) named.push({ item, stmt });
          else if (item.k === "str") quoted ||= round.defs.has(item.v);
          else stack.push({ e: item, slot: null });
        }
        // An empty list a component takes (`Stack([], "column")`) is a site too: its owner's neighbours may fill it.
        if (named.length || quoted || (e.items.length === 0 && slot !== null)) out.push({ arr: e, owner, slot, named });
      }
    }
  }
  return out;
}

/** Names reachable from `root` through references. */
function reachableFromRoot(round: Round): Set<string> {
  const seen = new Set<string>();
  const todo = ["root"];
  while (todo.length) {
    const id = todo.pop()!;
    const stmt = round.defs.get(id);
    if (!stmt || seen.has(id)) continue;
    seen.add(id);
    eachNode(stmt.expr, (e) => e.k === "ref" && !seen.has(e.name) && todo.push(e.name));
  }
  return seen;
}

const componentOf = (stmt: Statement) => (stmt.expr.k === "call" ? stmt.expr.name : null);

/**
 * The list an orphan belongs in, and where in it: of the lists that take it (by the schema of
 * the argument they are, or, standing alone, holding only its kind of component), the one whose
 * items are of its component, then the one defined nearest to it; it goes after the item defined
 * last before it.
 */
function placeFor(round: Round, orphan: Statement, sites: ListSite[], beside: Set<Statement>): Edit | null {
  const kind = componentOf(orphan);
  const ref: Expr = { k: "ref", name: orphan.id, start: orphan.start, end: orphan.start + orphan.id.length };
  let best: { site: ListSite; score: number } | null = null;
  for (const site of sites) {
    if (site.owner === orphan || !site.named.some((n) => beside.has(n.stmt))) continue;
    const same = site.named.filter((n) => componentOf(n.stmt) === kind && kind !== null).length;
    const parent = site.slot ? round.library.components.get(site.slot.call.name) : undefined;
    if (parent && site.slot) {
      if (!round.fit.fits({ k: "arr", items: [ref], start: ref.start, end: ref.end }, parent, site.slot.index)) continue;
    } else if (same !== site.named.length || site.arr.items.length !== site.named.length) continue;
    let near = Infinity;
    for (const n of site.named) near = Math.min(near, n.stmt.start < orphan.start ? orphan.start - n.stmt.end : n.stmt.start - orphan.end);
    // Then the list whose statement comes last before the orphan: a model defines a list's items after it.
    const owner = site.owner.start < orphan.start ? site.owner.start / (orphan.start + 1) : 0;
    const score = (same > 0 ? 1e12 : 0) - near + owner;
    if (!best || score > best.score) best = { site, score };
  }
  if (!best) return null;
  const { named, arr } = best.site;
  let after: Expr | null = null;
  let afterStart = -1;
  for (const n of named) if (n.stmt.start < orphan.start && n.stmt.start > afterStart) [after, afterStart] = [n.item, n.stmt.start];
  if (after) return { start: after.end, end: after.end, text: `, ${orphan.id}` };
  const first = arr.items[0];
  return { start: first.start, end: first.start, text: `${orphan.id}, ` };
}

/**
 * An empty list a component takes (`metrics = Card([], "card")`, or one reshape.ts put back), filled
 * with the orphans written after its statement, in order, until one does not fit it (statements
 * that are no orphans are passed over): a model writes a card's parts after the card.
 */
function emptyFilled(round: Round, site: ListSite, order: Statement[], from: number, orphaned: Set<string>): { edit: Edit; ids: string[] } | null {
  const parent = site.slot && round.library.components.get(site.slot.call.name);
  if (site.arr.items.length !== 0 || !parent || !site.slot) return null;
  const ids: string[] = [];
  for (let i = from + 1; i < order.length; i++) {
    const stmt = order[i];
    if (!orphaned.has(stmt.id)) continue;
    const ref: Expr = { k: "ref", name: stmt.id, start: stmt.start, end: stmt.start };
    if (stmt.kind !== "component" || !round.fit.fits({ k: "arr", items: [ref], start: 0, end: 0 }, parent, site.slot.index)) break;
    ids.push(stmt.id);
  }
  return ids.length ? { edit: { start: site.arr.start + 1, end: site.arr.end - 1, text: ids.join(", ") }, ids } : null;
}

/** For each name, the first statement that refers to it. */
function firstUsers(round: Round): Map<string, Statement> {
  const out = new Map<string, Statement>();
  for (const stmt of round.defs.values()) eachNode(stmt.expr, (e) => e.k === "ref" && !out.has(e.name) && out.set(e.name, stmt));
  return out;
}

/**
 * The statements an orphan (number `i` in source order) stands beside: the one right after it
 * and what it uses (a model writes a card's parts after the card), and the one right before it
 * with every statement that uses it, up to the top. A list holding one of them is a list it was
 * written next to.
 */
function besides(order: Statement[], i: number, users: Map<string, Statement>): Set<Statement> {
  const out = new Set<Statement>();
  if (i < 0) return out;
  const own = new Set([order[i].id]);
  let next = i + 1;
  for (; order[next] && own.has(users.get(order[next].id)?.id ?? ""); next++) own.add(order[next].id);
  if (order[next]) out.add(order[next]);
  for (let s: Statement | undefined = order[i - 1], hops = 0; s && !out.has(s) && hops < 64; s = users.get(s.id), hops++) out.add(s);
  return out;
}

/** The orphan's name in quotes among a list's items (`Stack(["header", body])`): the reference the model meant. */
function quotedName(sites: ListSite[], id: string): Edit | null {
  for (const { arr } of sites) for (const item of arr.items) if (item.k === "str" && item.v === id) return { start: item.start, end: item.end, text: id };
  return null;
}

// Past this many orphans times lists, orphans are removed without looking for their list.
const MAX_PLACEMENTS = 1_000_000;

/**
 * A statement nothing reachable from `root` uses takes the place of its name in quotes in a list,
 * else is attached to the list it plainly belongs in (placeFor); one that fits no list is
 * removed, whole lines.
 */
export function orphans(round: Round): Edit[] {
  const edits: Edit[] = [];
  const errors = errorsOf(round, "orphaned");
  if (errors.length === 0) return edits;
  const sites = round.defs.has("root") ? listSites(round, reachableFromRoot(round)) : [];
  const place = errors.length * sites.length <= MAX_PLACEMENTS;
  // Orphans another orphan uses come along when it is placed: only the others look for a list.
  // (Orphans that only use one another, in a cycle, are all removed.)
  let used = place && sites.length ? referenced(round) : new Set<string>();
  if (errors.every((e) => used.has(e.statementId ?? ""))) used = new Set();
  const order = place && sites.length ? round.ins.statements : [];
  const where = new Map(order.map((s, i) => [s, i]));
  const users = place && sites.length ? firstUsers(round) : new Map<string, Statement>();
  const orphaned = new Set(errors.flatMap((e) => (e.statementId && !used.has(e.statementId) ? [e.statementId] : [])));
  const placed = new Set<string>();
  for (const site of place ? sites : []) {
    const filled = emptyFilled(round, site, order, where.get(site.owner) ?? order.length, orphaned);
    if (!filled) continue;
    edits.push(filled.edit);
    for (const id of filled.ids) placed.add(id);
  }
  const removals: Edit[] = [];
  for (const error of errors) {
    const stmt = round.defs.get(error.statementId ?? "");
    if (!stmt || used.has(stmt.id) || placed.has(stmt.id)) continue;
    const at =
      quotedName(sites, stmt.id) ?? (place && stmt.kind === "component" ? placeFor(round, stmt, sites, besides(order, where.get(stmt) ?? -1, users)) : null);
    if (at) edits.push(at);
    else removals.push(removeLines(round.text, stmt.start, stmt.end, round.from, round.to));
  }
  // Removed only in a round that places none: an orphan placed now may be the neighbour the others need.
  return edits.length ? edits : removals;
}
