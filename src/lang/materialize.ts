// Builds the display tree (`ParseResult.root`) from checked statements. Run only when `root`
// is read: most callers want the verdict, not the tree.
//
// Each statement's value is built once and shared: a value referenced from several places (or
// through `x1 = [x2, x2]` chains, 2^n ways) is the same object everywhere, built once. A stream
// keeps its TreeCache from read to read, so a statement that has ended is built once for the
// whole stream: a read after a push rebuilds only what the push changed (the statements whose
// names it bound anew, and those that use them, up to `root`). A statement rebuilt because a
// name it uses changed keeps what it built (its arrays' items, objects' values, calls'
// arguments) and builds again only the paths that lead to the changed names: `root` over a
// hundred sections costs one item per push, not a hundred. Values already handed out are never
// changed: a path built again is new objects, everything beside it the same ones.
import type { Library } from "./library.ts";
import type { Defs } from "./check.ts";
import type { ElementNode, Expr, Statement } from "./types.ts";

export interface RuntimeValue {
  type: "expression";
  source: string;
}

// What a dropped element builds to (a reference to nothing or to a cycle, an unknown component,
// a missing or null required property without a default, a statement not yet streamed): left
// out of an array, `null` in any other place.
const DROPPED: unique symbol = Symbol("dropped");
// A call's argument not built: a required property before it was missing, so the call dropped.
const UNBUILT: unique symbol = Symbol("unbuilt");

type Container = Extract<Expr, { k: "arr" | "obj" | "call" }>;
const isContainer = (e: Expr): e is Container => e.k === "arr" || e.k === "obj" || e.k === "call";

/** Where a statement's references stand: the `ref` nodes by name, and each node's parent and place in it. */
interface RefIndex {
  refs: Map<string, Expr[]>;
  up: Map<Expr, { parent: Container; at: number }>;
  /** References in all. */
  count: number;
}

// A statement with fewer references than this is built again whole: looking them all up costs
// less than keeping its parts and marking paths.
const WIDE = 16;

function refIndex(top: Expr): RefIndex {
  const index: RefIndex = { refs: new Map(), up: new Map(), count: 0 };
  const walk = (e: Expr) => {
    if (e.k === "ref") {
      index.count++;
      const list = index.refs.get(e.name);
      if (list) list.push(e);
      else index.refs.set(e.name, [e]);
      return;
    }
    if (!isContainer(e)) return;
    const children = e.k === "arr" ? e.items : e.k === "call" ? e.args : e.entries.map((entry) => entry.value);
    for (let at = 0; at < children.length; at++) {
      index.up.set(children[at], { parent: e, at });
      walk(children[at]);
    }
  };
  walk(top);
  return index;
}

interface Entry {
  stmt: Statement;
  partial: boolean;
  value: unknown;
  // Kept once the statement is built a second time (a name it uses changed): what each array,
  // object and call holding a reference built for its items, values or arguments (DROPPED and
  // UNBUILT included), and where its references stand. Internal: never handed out.
  parts: Map<Expr, unknown[]> | null;
  index: RefIndex | null;
}

/**
 * What the cache knows of one name: one lookup by name finds it all (a read looks up every
 * name on the paths it builds again, and a handful of map lookups per name was most of a read).
 */
interface Slot {
  readonly name: string;
  /** Its value, while nothing it was built from has changed; null for a name resolved to nothing. */
  entry: Entry | null;
  /** What it resolved to then: DROPPED for nothing, a kept value otherwise. */
  kept: unknown;
  /** The entry the sync numbered `staleAt` dropped, for that sync's read to build again from. */
  stale: Entry | null;
  staleAt: number;
  /** The slots whose builds looked this name up (never forgotten: an old note costs one rebuild). */
  users: Set<Slot> | null;
  /** The names its last build looked up, as noted in their `users`. */
  deps: Slot[];
  /** Being built now: a reference back to it is a cycle. */
  building: boolean;
}

const NOTHING: unique symbol = Symbol("nothing"); // Slot.kept when no value is kept

let statementBuilds = 0;
/** Statement values built so far (for tests that a value is built once). */
export function statementsBuilt(): number {
  return statementBuilds;
}

/**
 * Statement values by name, with who used which: a value stays until its name, or a name it
 * looked up (directly or through the values it used), is bound anew (`changed`, applied at the
 * next `sync`). The stream tells it every name it binds anew (statements ended, and the open ones
 * before and after each chunk), so a kept value needs no check against the statements at a read.
 */
export class TreeCache {
  private readonly slots = new Map<string, Slot>();
  // Numbers the syncs: a slot's stale entry is for the read after the sync that dropped it only.
  epoch = 0;
  // The names the last sync bound anew or dropped: a value it builds again redoes only what led to those.
  dirty = new Set<string>();
  private pending = new Set<string>();

  /** Name `name` now resolves to another statement (or to one where it resolved to none). */
  changed(name: string): void {
    this.pending.add(name);
  }

  slot(name: string): Slot {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = { name, entry: null, kept: NOTHING, stale: null, staleAt: -1, users: null, deps: [], building: false };
      this.slots.set(name, slot);
    }
    return slot;
  }

  /** Drops the value of every changed name and of every value that used one, up to the top. */
  sync(): void {
    // What an earlier sync dropped and its read did not build again was not reached: its parts
    // predate this sync's changes, so it is built afresh if it is ever reached again.
    const epoch = ++this.epoch;
    // New sets, not clear(): Bun's clear() of a used set costs more than a read's whole rebuild.
    const dirty = (this.dirty = this.pending);
    this.pending = new Set();
    const todo: Slot[] = [];
    for (const name of dirty) {
      const slot = this.slots.get(name);
      if (slot === undefined) continue;
      drop(slot, epoch);
      todo.push(slot);
    }
    while (todo.length) {
      const users = todo.pop()!.users;
      if (users === null) continue;
      for (const user of users) {
        if (user.kept === NOTHING) continue;
        drop(user, epoch);
        dirty.add(user.name);
        todo.push(user);
      }
    }
  }
}

// `slot`'s build looked up `deps`: each notes it as a user (unless the last build looked up the same).
function noteUses(slot: Slot, deps: Slot[]): void {
  const last = slot.deps;
  if (last.length === deps.length) {
    let same = true;
    for (let i = 0; i < deps.length && same; i++) same = last[i] === deps[i];
    if (same) return;
  }
  for (const dep of deps) (dep.users ??= new Set()).add(slot);
  slot.deps = deps;
}

function drop(slot: Slot, epoch: number): void {
  if (slot.entry !== null) {
    slot.stale = slot.entry;
    slot.staleAt = epoch;
  }
  slot.entry = null;
  slot.kept = NOTHING;
}

/**
 * What a stream keeps of a list in its cut statement: its first items, which the parser has read
 * whole, the same objects from read to read (see cut-tree.ts), and what the first
 * `values.length` of them built, while the names they looked up (`deps`, with the values they
 * had then) are not built again.
 */
export class KeptItems {
  /** The items (an object's entries), kept in front of those the list itself holds after its first `skip`. */
  items: (Expr | { key: string; value: Expr })[] = [];
  skip = 0;
  values: unknown[] = [];
  /** `values` without those dropped (an array's items so far). */
  shown: unknown[] = [];
  deps: Slot[] = [];
  depValues: unknown[] = [];
  names = new Set<string>();
  // The sync whose read last found them still valid.
  checkedAt = -1;
}

/** The program's text from `start` to `end` (an expression's source). */
export type SourceOf = (start: number, end: number) => string;

/** The source of a program held whole in `text`. */
export const sourceIn =
  (text: string): SourceOf =>
  (start, end) =>
    text.slice(start, end);

/**
 * The display tree of `defs`. `cache`: values kept from earlier reads of the same program as it
 * grows (its changes given to it since); without one, values are still built once per read.
 */
export function materializeRoot(
  source: SourceOf,
  defs: Defs,
  library: Library,
  partial: Set<string>,
  cache: TreeCache = new TreeCache(),
  cut: { statement: Statement; kept: ReadonlyMap<Expr, KeptItems> } | null = null,
): ElementNode | null {
  if (!defs.get("root")) return null;
  // While the cut statement is built: what its lists have kept.
  let active: ReadonlyMap<Expr, KeptItems> | null = null;
  // For each statement being built, innermost last, the names its build has looked up so far.
  const looked: Slot[][] = [];
  // A value built while a cycle was cut depends on where the walk came in: it is not kept.
  let cycles = 0;
  // References met so far: a node that met none has nothing to build again, and is not kept in parts.
  let refsSeen = 0;
  const value = ref("root");
  return value !== null && value !== DROPPED && typeof value === "object" && (value as ElementNode).type === "element" ? (value as ElementNode) : null;

  function orNull(value: unknown): unknown {
    return value === DROPPED ? null : value;
  }

  function ref(name: string): unknown {
    refsSeen++;
    const slot = cache.slot(name);
    // Every lookup is noted, also when the same statement is built again: a build may look up
    // names the last one did not (an argument skipped while a required one before it was missing).
    if (looked.length) looked[looked.length - 1].push(slot);
    if (slot.kept !== NOTHING) return slot.kept;
    if (slot.building) {
      cycles++;
      return DROPPED;
    }
    const target = defs.get(name);
    if (!target) return (slot.kept = DROPPED);
    if (target.kind === "query" || target.kind === "mutation" || target.kind === "state") {
      return { type: "expression", source: name } satisfies RuntimeValue;
    }
    const isPartial = partial.has(name);
    const old = slot.staleAt === cache.epoch ? slot.stale : null;
    slot.stale = null;
    const again = old !== null && old.stmt === target && old.partial === isPartial && isContainer(target.expr) ? old : null;
    slot.building = true;
    looked.push([]);
    const outer = active;
    active = cut !== null && target === cut.statement ? cut.kept : null;
    const before = cycles;
    statementBuilds++;
    let value: unknown;
    let parts: Map<Expr, unknown[]> | null = null;
    let index: RefIndex | null = null;
    if (again === null) value = build(target.expr, name, null);
    else {
      index = again.index ?? refIndex(target.expr);
      if (index.count < WIDE) value = build(target.expr, name, null);
      else if (again.parts === null) value = build(target.expr, name, (parts = new Map()));
      else {
        parts = again.parts;
        const marked = markChanged(index, cache.dirty);
        value = marked.size === 0 ? again.value : buildAgain(target.expr as Container, name, parts, marked);
      }
    }
    active = outer;
    slot.building = false;
    noteUses(slot, looked.pop()!);
    if (cycles === before) {
      slot.entry = { stmt: target, partial: isPartial, value, parts, index };
      slot.kept = value;
    }
    return value;
  }

  // The containers on the paths from the top to the references to `dirty` names, each with the
  // places in it to build again.
  function markChanged(index: RefIndex, dirty: ReadonlySet<string>): Map<Container, number[]> {
    const marked = new Map<Container, number[]>();
    const mark = (node: Expr) => {
      for (let up = index.up.get(node); up !== undefined; up = index.up.get(up.parent)) {
        const places = marked.get(up.parent);
        if (places) {
          places.push(up.at);
          return; // the paths above it are marked already
        }
        marked.set(up.parent, [up.at]);
      }
    };
    if (dirty.size <= index.refs.size) {
      for (const name of dirty) for (const node of index.refs.get(name) ?? []) mark(node);
    } else for (const [name, nodes] of index.refs) if (dirty.has(name)) for (const node of nodes) mark(node);
    return marked;
  }

  // A marked container built again from its kept parts: only the marked places are built anew.
  function buildAgain(e: Container, statementId: string | undefined, parts: Map<Expr, unknown[]>, marked: Map<Container, number[]>): unknown {
    const own = parts.get(e);
    const places = marked.get(e);
    if (own === undefined || places === undefined) return build(e, statementId, parts);
    switch (e.k) {
      case "arr":
        for (const at of places) own[at] = again(e.items[at], parts, marked);
        return present(own);
      case "obj":
        for (const at of places) own[at] = again(e.entries[at].value, parts, marked);
        return objectOf(e, own);
      case "call": {
        // Arguments left unbuilt last time are built afresh (their kept parts, if any, are older).
        const redo: number[] = [];
        for (const at of places) {
          if (own[at] !== UNBUILT) redo.push(at);
          own[at] = UNBUILT;
        }
        return element(e, statementId, own, parts, marked, redo);
      }
    }
  }

  // A marked place built again: a reference looked up, a container from its kept parts.
  function again(node: Expr, parts: Map<Expr, unknown[]>, marked: Map<Container, number[]>): unknown {
    if (node.k === "ref") return ref(node.name);
    return isContainer(node) ? buildAgain(node, undefined, parts, marked) : build(node, undefined, parts);
  }

  function present(own: unknown[]): unknown[] {
    // Mostly nothing is dropped: a copy at once, not item by item.
    let at = own.indexOf(DROPPED);
    if (at === -1) return own.slice();
    const out = own.slice(0, at);
    for (; at < own.length; at++) if (own[at] !== DROPPED) out.push(own[at]);
    return out;
  }

  function objectOf(e: Extract<Expr, { k: "obj" }>, own: unknown[]): Record<string, unknown> {
    return Object.fromEntries(e.entries.map((entry, i) => [entry.key, orNull(own[i])]));
  }

  // Whether what `kept` built still holds: none of the names it looked up built again since (the
  // last sync's changes, when it was checked at the read before; else each looked up again).
  function stillKept(kept: KeptItems): void {
    if (kept.checkedAt === cache.epoch) return;
    let valid = true;
    if (kept.checkedAt === cache.epoch - 1) {
      for (const name of cache.dirty) if (kept.names.has(name)) valid = false;
    } else for (let j = 0; j < kept.deps.length && valid; j++) valid = ref(kept.deps[j].name) === kept.depValues[j];
    if (!valid) {
      kept.values = [];
      kept.shown = [];
      kept.deps = [];
      kept.depValues = [];
      kept.names = new Set();
    }
    kept.checkedAt = cache.epoch;
  }

  // Keeps `values`, built for the next kept items while the statement looked up `mine` from
  // `mark` on; not when one of those has no value kept (then neither has what follows).
  function keep(kept: KeptItems, values: unknown[], mine: Slot[], mark: number): boolean {
    for (let j = mark; j < mine.length; j++) if (mine[j].kept === NOTHING) return false;
    for (const value of values) {
      kept.values.push(value);
      if (value !== DROPPED) kept.shown.push(value);
    }
    for (let j = mark; j < mine.length; j++) {
      kept.deps.push(mine[j]);
      kept.depValues.push(mine[j].kept);
      kept.names.add(mine[j].name);
    }
    return true;
  }

  // Builds the kept items not built yet, keeping what they build while it can be kept; what
  // could not be kept goes to `rest`, in order (dropped ones left out when `present`).
  function buildKept(kept: KeptItems, rest: unknown[], present: boolean): void {
    const mine = looked[looked.length - 1];
    let keeping = true;
    for (let i = kept.values.length; i < kept.items.length; i++) {
      const item = kept.items[i];
      const mark = mine.length;
      const before = cycles;
      const value = build("k" in item ? item : item.value, undefined, null);
      keeping &&= cycles === before && keep(kept, [value], mine, mark);
      if (!keeping && (!present || value !== DROPPED)) rest.push(value);
    }
  }

  // An array, its kept items as they were built: one copy of them, not one per item.
  function keptArray(e: Extract<Expr, { k: "arr" }>, kept: KeptItems): unknown[] {
    stillKept(kept);
    const rest: unknown[] = [];
    buildKept(kept, rest, true);
    for (let j = kept.skip; j < e.items.length; j++) {
      const value = build(e.items[j], undefined, null);
      if (value !== DROPPED) rest.push(value);
    }
    // slice() and push, not concat(): Bun's concat() of arrays of objects copies item by item.
    const out = kept.shown.slice();
    for (const value of rest) out.push(value);
    return out;
  }

  // An object, its kept entries' values as they were built.
  function keptObject(e: Extract<Expr, { k: "obj" }>, kept: KeptItems): Record<string, unknown> {
    stillKept(kept);
    const entries = (kept.items as { key: string; value: Expr }[]).concat(e.entries.slice(kept.skip));
    const rest: unknown[] = [];
    buildKept(kept, rest, false);
    const own = kept.values.concat(rest);
    for (let j = kept.skip; j < e.entries.length; j++) own.push(build(e.entries[j].value, undefined, null));
    return Object.fromEntries(entries.map((entry, i) => [entry.key, orNull(own[i])]));
  }

  // A call's element, its kept arguments as they were built.
  function keptElement(call: Extract<Expr, { k: "call" }>, statementId: string | undefined, kept: KeptItems): unknown {
    stillKept(kept);
    const e = { ...call, args: (kept.items as Expr[]).concat(call.args.slice(kept.skip)) };
    const own: unknown[] = new Array(e.args.length).fill(UNBUILT);
    const from = kept.values.length;
    for (let i = 0; i < from; i++) own[i] = kept.values[i];
    const mine = looked[looked.length - 1];
    const mark = mine.length;
    const before = cycles;
    const value = element(e, statementId, own, null, null, null);
    let to = from;
    while (to < kept.items.length && own[to] !== UNBUILT) to++;
    if (to > from && cycles === before) keep(kept, own.slice(from, to), mine, mark);
    return value;
  }

  // A call's element. `own`: its arguments as built, UNBUILT where not yet (null: not kept);
  // `redo`: the places built again from their kept parts (the others are built afresh).
  function element(
    e: Extract<Expr, { k: "call" }>,
    statementId: string | undefined,
    own: unknown[] | null,
    parts: Map<Expr, unknown[]> | null,
    marked: Map<Container, number[]> | null,
    redo: number[] | null,
  ): unknown {
    const component = library.components.get(e.name);
    if (!component) return DROPPED;
    const props: Record<string, unknown> = {};
    for (let i = 0; i < component.props.length; i++) {
      const prop = component.props[i];
      let built: unknown;
      if (i < e.args.length) {
        if (own === null) built = build(e.args[i], undefined, parts);
        else {
          built = own[i];
          if (built === UNBUILT)
            built = own[i] = redo !== null && marked !== null && redo.includes(i) ? again(e.args[i], parts!, marked) : build(e.args[i], undefined, parts);
        }
      }
      const value = built === DROPPED ? null : built;
      if (value === undefined || value === null) {
        if (prop.hasDefault) props[prop.name] = prop.schema.default;
        else if (prop.required)
          return DROPPED; // missing-required / null-required
        else if (value === null) props[prop.name] = null;
        continue;
      }
      props[prop.name] = value;
    }
    const node: ElementNode = { type: "element", component: e.name, props, partial: statementId !== undefined && partial.has(statementId) };
    if (statementId !== undefined) node.statementId = statementId;
    return node;
  }

  // `parts`: where to keep what each container holding a reference built (null: not kept).
  function build(e: Expr, statementId: string | undefined, parts: Map<Expr, unknown[]> | null): unknown {
    switch (e.k) {
      case "str":
      case "num":
      case "bool":
        return e.v;
      case "null":
        return null;
      case "arr": {
        if (parts === null) {
          const kept = active?.get(e);
          if (kept !== undefined) return keptArray(e, kept);
          const out: unknown[] = [];
          for (const item of e.items) {
            const value = build(item, undefined, null);
            if (value !== DROPPED) out.push(value);
          }
          return out;
        }
        const seen = refsSeen;
        const own: unknown[] = new Array(e.items.length);
        for (let i = 0; i < e.items.length; i++) own[i] = build(e.items[i], undefined, parts);
        if (refsSeen !== seen) parts.set(e, own);
        return present(own);
      }
      case "obj": {
        if (parts === null) {
          const kept = active?.get(e);
          if (kept !== undefined) return keptObject(e, kept);
        }
        const seen = refsSeen;
        const own: unknown[] = new Array(e.entries.length);
        for (let i = 0; i < e.entries.length; i++) own[i] = build(e.entries[i].value, undefined, parts);
        if (parts !== null && refsSeen !== seen) parts.set(e, own);
        return objectOf(e, own);
      }
      case "ref":
        return ref(e.name);
      case "call": {
        if (parts === null) {
          const kept = active?.get(e);
          return kept === undefined ? element(e, statementId, null, null, null, null) : keptElement(e, statementId, kept);
        }
        const seen = refsSeen;
        const own: unknown[] = new Array(e.args.length).fill(UNBUILT);
        const value = element(e, statementId, own, parts, null, null);
        if (refsSeen !== seen) parts.set(e, own);
        return value;
      }
      default:
        return { type: "expression", source: source(e.start, e.end) } satisfies RuntimeValue;
    }
  }
}
