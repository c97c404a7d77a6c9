// An unknown component named by shape as well as spelling: the candidates are the components
// allowed where the call stands (the parent's schema), each scored by how its signature takes
// the call's arguments, by what the name means (`Panel` → Card, `Div` → Stack: meaning.ts) and
// by spelling. A generic name (`Chart`) so picks the component its data fits.
import type { Component, Expr, Statement } from "../lang/index.ts";
import { closeEnough, distance } from "./nearest.ts";
import { nameMeaning } from "./meaning.ts";
import { innermostAt, lastHolding, type CallExpr } from "./exprs.ts";
import { statementAt, type Round } from "./round.ts";
import { wordSites } from "./word-sites.ts";
import { argReadings, mendedValues } from "./reshape.ts";
import { freeText, namedComponent } from "./values.ts";

const self = (e: Expr) => e;

// Past this many components a library is scored by spelling alone (shape costs a fit per component).
const MAX_SHAPE_CANDIDATES = 400;

/** The component argument a value stands in, and how many lists deep inside it. */
interface Slot {
  call: CallExpr;
  index: number;
  lists: number;
}

/** The call (and its argument) a value stands in, down the tree from `root` to `target`. */
function slotOf(root: Expr, target: Expr): Slot | null {
  let slot: Slot | null = null;
  let e: Expr | undefined = root;
  while (e && e !== target) {
    let next: Expr | undefined;
    if (e.k === "call") {
      const i: number = lastHolding(e.args, self, target.start);
      if (i !== -1) {
        slot = { call: e, index: i, lists: 0 };
        next = e.args[i];
      }
    } else if (e.k === "arr") {
      next = e.items[lastHolding(e.items, self, target.start)];
      if (slot) slot.lists++;
    } else return null;
    e = next;
  }
  return e === target ? slot : null;
}

/**
 * Where statement `id` is used as a component's argument (the first such place), for its own
 * calls' parents. Found in the text (the name as a word, outside its own statement), so only the
 * statements that use it are read.
 */
function usedAt(round: Round, id: string): Slot | null {
  const use = firstUse(round, id);
  return use && slotOf(use.holder.expr, use.ref);
}

/** Statement `id`'s first use by another statement: that statement, the reference and what holds it. */
function firstUse(round: Round, id: string): { holder: Statement; ref: Expr; parent: Expr | null } | null {
  const own = round.defs.get(id);
  for (const at of wordSites(round.text, id, 0, "A-Za-z0-9_")) {
    const stmt = statementAt(round, at);
    if (!stmt || stmt === own) continue;
    const hit = innermostAt(stmt.expr, at, (e) => e.k === "ref" && e.name === id && e.start === at);
    if (hit) return { holder: stmt, ref: hit.e, parent: hit.parent };
  }
  return null;
}

/** Whether `name` is spelt close to one of `names`: a slip of the keys. */
function speltLike(name: string, names: Iterable<string>): boolean {
  const close = closeEnough(name);
  for (const n of names) if (distance(name, n, close + 1) <= close) return true;
  return false;
}

/**
 * The component an unknown call `call` (in statement `stmtId`, whose expression is `root`) most
 * likely meant, or null when none is a confident choice: one whose signature takes its arguments
 * as they stand, allowed where it stands, with the best meaning and spelling among those.
 */
export function nameByShape(round: Round, call: CallExpr, root: Expr, stmtId: string): string | null {
  const comps = round.library.components;
  if (comps.size > MAX_SHAPE_CANDIDATES) return null;
  // A name that means nothing and is spelt like no component has no candidate, wherever it
  // stands, unless its arguments alone may name one (choose).
  const named = `\u0000${call.name}`;
  if (call.args.length === 0 && !round.shapeNames.has(named))
    round.shapeNames.set(named, [...comps.values()].some((c) => nameMeaning(call.name, c.name) > 0) || speltLike(call.name, comps.keys()) ? "" : null);
  if (call.args.length === 0 && round.shapeNames.get(named) === null) return null;
  // A statement that is the call: where it is used says what stands around it.
  const use = call === root ? firstUse(round, stmtId) : null;
  const slot = call !== root ? slotOf(root, call) : use && slotOf(use.holder.expr, use.ref);
  const parent = slot ? comps.get(slot.call.name) : undefined;
  // `root` must be the library's root component, when it names one.
  const only = call === root && stmtId === "root" ? round.library.root : undefined;
  // The same call where the same parent takes it gets the same answer (a list of like items).
  const written = call.end - call.start <= 200 ? round.text.slice(call.start, call.end) : null;
  const key = written === null ? null : `${parent?.name ?? ""}/${slot?.index ?? -1}/${written}`;
  const memo = round.shapeNames;
  if (key !== null && memo.has(key)) return memo.get(key)!;
  // A name spelt like no component (not a slip of the keys; two or three letters, `Th`, `CTA`,
  // are spelt like too many): like items of one list first, as what the model wrote beside it
  // says most of what it meant.
  let best: string | null = null;
  if (only === undefined && !(call.name.length > 3 && speltLike(call.name, comps.keys()))) {
    const list = call !== root ? innermostAt(root, call.start, (e) => e === call)?.parent : use?.parent;
    best = list?.k === "arr" ? likeItsSiblings(round, call, list, call !== root ? call : use!.ref) : null;
  }
  best ??= choose(round, call, only, slot, parent);
  // A parent whose own arguments are out of place (mended this round too) allows nothing yet:
  // the name is chosen as if it stood alone.
  if (best === null && parent && slot) best = onlyOneGoes(round, call, slot, parent);
  if (best === null && parent) best = choose(round, call, only, null, undefined);
  if (key !== null) memo.set(key, best);
  return best;
}

/**
 * The component every other item of `list` is (`Choice("sales", "Sales")` among SelectItems,
 * `Wedge("Travel", 10)` among Slices, each item written in place or a statement the list names),
 * when it takes the call's arguments as they stand; else null. `own`: the call's item (the call,
 * or the reference to the statement it is).
 */
function likeItsSiblings(round: Round, call: CallExpr, list: Extract<Expr, { k: "arr" }>, own: Expr): string | null {
  if (!call.args.every((a) => PLAIN.has(a.k))) return null;
  // Its nearest neighbours: a list of a thousand statements is not read whole for one call.
  const at = list.items.indexOf(own);
  let name: string | null = null;
  for (const item of list.items.slice(Math.max(0, at - NEIGHBOURS), at + NEIGHBOURS + 1)) {
    if (item === own) continue;
    const value = item.k === "ref" ? round.defs.get(item.name)?.expr : item;
    if (value?.k !== "call" || (name !== null && value.name !== name)) return null;
    name = value.name;
  }
  const component = name === null ? undefined : round.library.components.get(name);
  return component && round.fit.score(call.args, component).perfect ? component.name : null;
}

// Arguments whose fit says what they are: not an expression (`[…] + 1`), which may fit anything.
const PLAIN = new Set<Expr["k"]>(["str", "num", "bool", "null", "arr", "obj", "ref", "call"]);
const NEIGHBOURS = 2;

/** The one component the parent takes where the call stands (`Dataset(…)` where only Series go), when it takes the call's arguments as they stand. */
function onlyOneGoes(round: Round, call: CallExpr, slot: Slot, parent: Component): string | null {
  let one: Component | null = null;
  for (const c of round.library.components.values()) {
    if (!round.fit.fits(wrapped({ ...call, name: c.name }, slot), parent, slot.index)) continue;
    if (one !== null) return null;
    one = c;
  }
  return one && round.fit.score(call.args, one).perfect ? one.name : null;
}

/** `value` in as many lists as the slot holds it in. */
function wrapped(value: Expr, slot: Slot): Expr {
  for (let i = 0; i < slot.lists; i++) value = { k: "arr", items: [value], start: value.start, end: value.end };
  return value;
}

function choose(round: Round, call: CallExpr, only: string | undefined, slot: Slot | null, parent: Component | undefined): string | null {
  let best: string | null = null;
  let bestScore = -Infinity;
  for (const c of round.library.components.values()) {
    if (only !== undefined && c.name !== only) continue;
    const meaning = nameMeaning(call.name, c.name);
    const d = distance(call.name, c.name);
    // A confident choice means something or is spelt close, or (the fit alone) takes every
    // argument as it stands with one that tells (a listed value, the component a list holds).
    const byFitAlone = meaning === 0 && d > closeEnough(call.name);
    if (parent && slot) {
      if (!round.fit.fits(wrapped({ ...call, name: c.name }, slot), parent, slot.index)) continue;
    }
    // The arguments as reshape.ts may write them (props by name, children or values wrapped;
    // unless the fit alone names the component, two swapped), each value as the value passes
    // would mend it: the reading that fits best.
    let args = call.args;
    let fit = round.fit.score(args, c);
    // Taking the arguments as written, nothing moved or mended, tells most of what was meant.
    const asWritten = fit.perfect ? 0.5 : 0;
    if (!fit.perfect) fit = round.fit.score(mendedValues(round, args, c), c);
    for (const reading of fit.perfect ? [] : argReadings(round, call, c)) {
      if (byFitAlone && reading.swapped) continue;
      const f = round.fit.score(mendedValues(round, reading.args, c), c);
      if (f.score > fit.score || (f.perfect && !fit.perfect)) [args, fit] = [reading.args, f];
    }
    // Most arguments must fit: the others may hold mistakes of their own, mended next round.
    if (args.length > 0 && (fit.score < 0 || (fit.score === 0 && meaning === 0))) continue;
    if (byFitAlone && !(args.length > 0 && fit.perfect && fit.strength > args.length)) continue;
    const spelling = Math.max(0, 1 - d / Math.max(call.name.length, c.name.length));
    const score = (fit.perfect ? 3 : 0) + asWritten + fit.score / Math.max(1, args.length) + 2 * meaning + spelling + 0.25 * fit.strength;
    if (score > bestScore) {
      best = c.name;
      bestScore = score;
    }
  }
  return best;
}

/**
 * When no component takes an unknown call, its text survives: a call whose arguments are all
 * strings and numbers becomes the text component the position allows (textComponent), its
 * strings joined. Null when the call holds more than text, or no text component may stand there.
 */
export function demoted(round: Round, call: CallExpr, root: Expr, stmtId: string): { start: number; end: number; text: string } | null {
  if (call.args.length === 0 || !call.args.every((a) => a.k === "str" || a.k === "num")) return null;
  if (round.library.components.size > MAX_SHAPE_CANDIDATES) return null;
  const slot = call === root ? usedAt(round, stmtId) : slotOf(root, call);
  const only = call === root && stmtId === "root" ? round.library.root : undefined;
  const text = call.args.map((a) => (a.k === "str" ? a.v : a.k === "num" ? String(a.v) : "")).join(" ");
  const best = textComponent(round, { k: "str", v: text, start: call.start, end: call.end }, slot, only);
  return best ? { start: call.start, end: call.end, text: `${best.name}(${JSON.stringify(text)})` } : null;
}

/**
 * A string where its parent takes only components (`AccordionItem("q", "Q?", ["The answer."])`):
 * held in the text component the position allows, as written. Null when none may stand there.
 */
export function stringAsText(round: Round, str: Expr, root: Expr): { start: number; end: number; text: string } | null {
  if (str.k !== "str" || round.library.components.size > MAX_SHAPE_CANDIDATES) return null;
  const slot = slotOf(root, str);
  const best = slot && textComponent(round, str, slot, undefined);
  return best ? { start: str.start, end: str.end, text: `${best.name}(${round.text.slice(str.start, str.end)})` } : null;
}

/**
 * The text component that may stand in `slot` holding `str` alone: one whose first property takes
 * free text and whose others are optional; one named for text first, then the fewest properties.
 */
function textComponent(round: Round, str: Extract<Expr, { k: "str" }>, slot: Slot | null, only: string | undefined): Component | null {
  const comps = round.library.components;
  const parent = slot ? comps.get(slot.call.name) : undefined;
  let best: Component | null = null;
  const rank = (c: Component) => [/text/i.test(c.name) ? 0 : 1, c.props.length, c.name.length];
  const compare = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  for (const c of comps.values()) {
    if ((only !== undefined && c.name !== only) || !c.props[0] || !freeText(c.props[0].schema)) continue;
    if (!round.fit.score([str], c).perfect) continue;
    if (parent && slot) {
      const value: Expr = { k: "call", name: c.name, args: [str], start: str.start, end: str.end, nameEnd: str.start };
      if (!round.fit.fits(wrapped(value, slot), parent, slot.index)) continue;
    }
    if (!best || compare(rank(c), rank(best)) < 0) best = c;
  }
  return best;
}

/**
 * The component that holds a list of `call`'s component, where `call` stands and its parent does
 * not take it (a Button in a Card's children, which take the Buttons that hold buttons): one
 * whose first property is a list of that component alone and that requires nothing else (not a
 * container of anything, which would make any misplaced call fit). Null when none does, or more
 * than one.
 */
export function heldBy(round: Round, call: CallExpr, root: Expr, stmtId: string): string | null {
  const comps = round.library.components;
  if (comps.size > MAX_SHAPE_CANDIDATES) return null;
  const groups = [...comps.values()].filter(
    (c) => c.props.length > 0 && !c.props.some((p, i) => i > 0 && p.required) && namedComponent(c.props[0].schema.items, round.library)?.name === call.name,
  );
  // Where it stands is looked up only for a component some group holds.
  const slot = groups.length === 0 ? null : call === root ? usedAt(round, stmtId) : slotOf(root, call);
  const parent = slot ? comps.get(slot.call.name) : undefined;
  if (!slot || !parent) return null;
  const list: Expr = { k: "arr", items: [call], start: call.start, end: call.end };
  let found: string | null = null;
  for (const c of groups) {
    if (!round.fit.fits(list, c, 0)) continue;
    let value: Expr = { ...call, name: c.name, args: [list] };
    for (let i = 0; i < slot.lists; i++) value = { k: "arr", items: [value], start: call.start, end: call.end };
    if (!round.fit.fits(value, parent, slot.index)) continue;
    if (found !== null) return null;
    found = c.name;
  }
  return found;
}
