// Queries over the parser's expression trees (src/lang Expr): children, and the node at an offset.
import type { Expr } from "../lang/index.ts";
import { children } from "../lang/expr-children.ts";

export { children };

export type CallExpr = Extract<Expr, { k: "call" }>;
export type ObjExpr = Extract<Expr, { k: "obj" }>;
export type ArrExpr = Extract<Expr, { k: "arr" }>;

/** A text, a number or a boolean: a value written as it is. */
export const isLiteral = (e: Expr): boolean => e.k === "str" || e.k === "num" || e.k === "bool";

/**
 * Calls `visit` on every node, outermost first. A loop over a stack of its own: a generator that
 * delegated to itself level by level made each node cost its depth, and a sanitizer round on a
 * program nested 400 deep several seconds.
 */
export function eachNode(root: Expr, visit: (e: Expr) => void): void {
  const stack: Expr[] = [root];
  while (stack.length) {
    const e = stack.pop()!;
    visit(e);
    const kids = children(e);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}

/** The first node, outermost first, satisfying `pred` (the rest not visited), or undefined. */
export function findNode(root: Expr, pred: (e: Expr) => boolean): Expr | undefined {
  const stack: Expr[] = [root];
  while (stack.length) {
    const e = stack.pop()!;
    if (pred(e)) return e;
    const kids = children(e);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return undefined;
}

/**
 * The innermost node satisfying `pred` whose span holds offset `at`, with its parent and its
 * index among the parent's children. A node's span holds its children's, so only the nodes on
 * the way down to `at` are looked at.
 */
export function innermostAt(root: Expr, at: number, pred: (e: Expr) => boolean): { e: Expr; parent: Expr | null; index: number } | null {
  let found: { e: Expr; parent: Expr | null; index: number } | null = null;
  let parent: Expr | null = null;
  let index = -1;
  let e: Expr | undefined = holds(root, at) ? root : undefined;
  while (e !== undefined) {
    if (pred(e)) found = { e, parent, index };
    parent = e;
    if (e.k === "obj") {
      // Its children() would be a new array of every entry's value: read the entries in place.
      index = lastHolding(e.entries, (entry) => entry.value, at);
      e = e.entries[index]?.value;
    } else {
      const kids = children(e);
      index = lastHolding(kids, (kid) => kid, at);
      e = kids[index];
    }
  }
  return found;
}

function holds(e: Expr, at: number): boolean {
  return e.start <= at && at < Math.max(e.end, e.start + 1);
}

/**
 * The index of the last child holding `at`, or -1. Children are in source order and do not
 * overlap, so only the last one starting at or before `at` can hold it: a binary search, where
 * a scan cost each error of a 10,000-item array the whole array (quadratic in the sanitizer).
 */
export function lastHolding<T>(list: readonly T[], node: (item: T) => Expr, at: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (node(list[mid]).start <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && holds(node(list[lo - 1]), at) ? lo - 1 : -1;
}

/** Every call in the tree. */
export function calls(root: Expr): CallExpr[] {
  const out: CallExpr[] = [];
  eachNode(root, (e) => e.k === "call" && out.push(e));
  return out;
}
