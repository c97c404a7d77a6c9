// Builds the display tree (`ParseResult.root`) from checked statements. Run only when `root`
// is read: most callers want the verdict, not the tree.
//
// Each statement's value is built once and shared: a value referenced from several places (or
// through `x1 = [x2, x2]` chains, 2^n ways) is the same object everywhere, built once. A stream
// keeps its TreeCache from read to read, so a statement that has ended is built once for the
// whole stream: a read after a push rebuilds only what the push changed (the statements whose
// names it bound anew, and those that use them, up to `root`).
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

interface Entry {
  stmt: Statement;
  partial: boolean;
  value: unknown;
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
  // For each name, the names of the entries whose build looked it up. Kept once noted: a value
  // built again from the same statement looks up the same names, so only a statement built for
  // the first time notes its lookups (a long list rebuilt on every push would note each item
  // again); a note left from an older statement of that name only drops a value once too often.
  private readonly users = new Map<string, Set<string>>();
  // The statement each name's lookups were noted for.
  readonly noted = new Map<string, Statement>();
  private readonly pending = new Set<string>();

  /** Name `name` now resolves to another statement (or to one where it resolved to none). */
  changed(name: string): void {
    this.pending.add(name);
  }

  /** Drops every entry that used a changed name, and those that used them, up to the top. */
  sync(): void {
    const todo = [...this.pending];
    this.pending.clear();
    while (todo.length) {
      const name = todo.pop()!;
      const users = this.users.get(name);
      if (!users) continue;
      for (const user of users) if (this.entries.delete(user)) todo.push(user);
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
  // Names being built (a reference back to one is a cycle), innermost last; whether each notes
  // its lookups (see TreeCache.users).
  const building: string[] = [];
  const noting: boolean[] = [];
  const inProgress = new Set<string>();
  // A value built while a cycle was cut depends on where the walk came in: it is not kept.
  let cycles = 0;
  const value = ref("root");
  return value !== null && value !== DROPPED && typeof value === "object" && (value as ElementNode).type === "element" ? (value as ElementNode) : null;

  function orNull(value: unknown): unknown {
    return value === DROPPED ? null : value;
  }

  function ref(name: string): unknown {
    if (building.length && noting[noting.length - 1]) cache.used(building[building.length - 1], name);
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
    building.push(name);
    const note = cache.noted.get(name) !== target;
    if (note) cache.noted.set(name, target);
    noting.push(note);
    inProgress.add(name);
    const before = cycles;
    statementBuilds++;
    const value = build(target.expr, name);
    inProgress.delete(name);
    building.pop();
    noting.pop();
    if (cycles === before) cache.entries.set(name, { stmt: target, partial: isPartial, value });
    return value;
  }

  function build(e: Expr, statementId: string | undefined): unknown {
    switch (e.k) {
      case "str":
      case "num":
      case "bool":
        return e.v;
      case "null":
        return null;
      case "arr": {
        const out: unknown[] = [];
        for (const item of e.items) {
          const value = build(item, undefined);
          if (value !== DROPPED) out.push(value);
        }
        return out;
      }
      case "obj":
        return Object.fromEntries(e.entries.map((entry) => [entry.key, orNull(build(entry.value, undefined))]));
      case "ref":
        return ref(e.name);
      case "call": {
        const component = library.components.get(e.name);
        if (!component) return DROPPED;
        const props: Record<string, unknown> = {};
        for (let i = 0; i < component.props.length; i++) {
          const prop = component.props[i];
          const arg = e.args[i];
          const built = arg === undefined ? undefined : build(arg, undefined);
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
        const element: ElementNode = { type: "element", component: e.name, props, partial: statementId !== undefined && partial.has(statementId) };
        if (statementId !== undefined) element.statementId = statementId;
        return element;
      }
      default:
        return { type: "expression", source: source(e) } satisfies RuntimeValue;
    }
  }
}
