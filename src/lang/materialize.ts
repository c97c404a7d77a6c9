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

let statementBuilds = 0;
/** Statement values built so far (for tests that a value is built once). */
export function statementsBuilt(): number {
  return statementBuilds;
}

/**
 * Statement values by name, with who used which: a value stays while its statement is the one
 * its name resolves to and no name it looked up (directly or through the values it used) has
 * been bound anew since (`changed`, applied at the next `sync`).
 */
export class TreeCache {
  readonly entries = new Map<string, Entry>();
  // Entries the last `sync` dropped, for the read that follows it to build again from, and the
  // names that sync bound anew or dropped: a value it builds again redoes only what led to those.
  stale = new Map<string, Entry>();
  dirty = new Set<string>();
  // For each name, the names of the entries whose build looked it up (a note left from an older
  // statement of that name only drops a value once too often).
  private readonly users = new Map<string, Set<string>>();
  private pending = new Set<string>();

  /** Name `name` now resolves to another statement (or to one where it resolved to none). */
  changed(name: string): void {
    this.pending.add(name);
  }

  /** Drops every entry that used a changed name, and those that used them, up to the top. */
  sync(): void {
    // What an earlier sync dropped and its read did not build again was not reached: its parts
    // predate that sync's changes, so it is built afresh if it is ever reached again. (New sets,
    // not clear(): Bun's clear() of a used set costs more than a read's whole rebuild.)
    this.stale = new Map();
    const dirty = (this.dirty = this.pending);
    this.pending = new Set();
    const todo = [...dirty];
    while (todo.length) {
      const name = todo.pop()!;
      const users = this.users.get(name);
      if (!users) continue;
      for (const user of users) {
        const entry = this.entries.get(user);
        if (entry === undefined) continue;
        this.entries.delete(user);
        this.stale.set(user, entry);
        dirty.add(user);
        todo.push(user);
      }
    }
  }

  used(user: string, name: string): void {
    let set = this.users.get(name);
    if (!set) this.users.set(name, (set = new Set()));
    set.add(user);
  }
}

/**
 * The display tree of `defs`. `cache`: values kept from earlier reads of the same program as it
 * grows (its changes given to it since); without one, values are still built once per read.
 */
export function materializeRoot(
  getText: () => string,
  defs: Defs,
  library: Library,
  partial: Set<string>,
  cache: TreeCache = new TreeCache(),
): ElementNode | null {
  if (!defs.get("root")) return null;
  let text: string | null = null;
  const source = (e: Expr) => (text ??= getText()).slice(e.start, e.end);
  // Names being built (a reference back to one is a cycle), innermost last.
  const building: string[] = [];
  const inProgress = new Set<string>();
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
    // Every lookup is noted, also when the same statement is built again: a build may look up
    // names the last one did not (an argument skipped while a required one before it was missing).
    if (building.length) cache.used(building[building.length - 1], name);
    const target = defs.get(name);
    if (!target || inProgress.has(name)) {
      if (target) cycles++;
      return DROPPED;
    }
    if (target.kind === "query" || target.kind === "mutation" || target.kind === "state") {
      return { type: "expression", source: name } satisfies RuntimeValue;
    }
    const isPartial = partial.has(name);
    const kept = cache.entries.get(name);
    if (kept && kept.stmt === target && kept.partial === isPartial) return kept.value;
    const old = cache.stale.get(name);
    const again = old !== undefined && old.stmt === target && old.partial === isPartial && isContainer(target.expr) ? old : null;
    building.push(name);
    inProgress.add(name);
    const before = cycles;
    statementBuilds++;
    let value: unknown;
    let parts: Map<Expr, unknown[]> | null = null;
    let index: RefIndex | null = null;
    if (again === null) value = build(target.expr, name, null);
    else {
      cache.stale.delete(name);
      index = again.index ?? refIndex(target.expr);
      if (index.count < WIDE) value = build(target.expr, name, null);
      else if (again.parts === null) value = build(target.expr, name, (parts = new Map()));
      else {
        parts = again.parts;
        const marked = markChanged(index, cache.dirty);
        value = marked.size === 0 ? again.value : buildAgain(target.expr as Container, name, parts, marked);
      }
    }
    inProgress.delete(name);
    building.pop();
    if (cycles === before) cache.entries.set(name, { stmt: target, partial: isPartial, value, parts, index });
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
    const out: unknown[] = [];
    for (const v of own) if (v !== DROPPED) out.push(v);
    return out;
  }

  function objectOf(e: Extract<Expr, { k: "obj" }>, own: unknown[]): Record<string, unknown> {
    return Object.fromEntries(e.entries.map((entry, i) => [entry.key, orNull(own[i])]));
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
        const seen = refsSeen;
        const own: unknown[] = new Array(e.entries.length);
        for (let i = 0; i < e.entries.length; i++) own[i] = build(e.entries[i].value, undefined, parts);
        if (parts !== null && refsSeen !== seen) parts.set(e, own);
        return objectOf(e, own);
      }
      case "ref":
        return ref(e.name);
      case "call": {
        if (parts === null) return element(e, statementId, null, null, null, null);
        const seen = refsSeen;
        const own: unknown[] = new Array(e.args.length).fill(UNBUILT);
        const value = element(e, statementId, own, parts, null, null);
        if (refsSeen !== seen) parts.set(e, own);
        return value;
      }
      default:
        return { type: "expression", source: source(e) } satisfies RuntimeValue;
    }
  }
}
