// Queries over the parser's expression trees (src/lang Expr): children, and the node at an offset.
import type { Expr } from "../lang/index.ts";

export type CallExpr = Extract<Expr, { k: "call" }>;

/** Direct sub-expressions in source order. */
export function children(e: Expr): Expr[] {
  switch (e.k) {
    case "arr":
      return e.items;
    case "obj":
      return e.entries.map((entry) => entry.value);
    case "call":
    case "builtin":
      return e.args;
    case "action":
      return e.steps;
    case "unary":
      return [e.arg];
    case "binary":
      return [e.left, e.right];
    case "ternary":
      return [e.cond, e.then, e.else];
    case "member":
      return [e.obj];
    case "index":
      return [e.obj, e.index];
    default:
      return [];
  }
}

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

/**
 * The innermost node satisfying `pred` whose span holds offset `at`, with its parent. A node's
 * span holds its children's, so only the nodes on the way down to `at` are looked at.
 */
export function innermostAt(root: Expr, at: number, pred: (e: Expr) => boolean): { e: Expr; parent: Expr | null } | null {
  const holds = (e: Expr) => e.start <= at && at < Math.max(e.end, e.start + 1);
  let found: { e: Expr; parent: Expr | null } | null = null;
  let parent: Expr | null = null;
  let e: Expr | undefined = holds(root) ? root : undefined;
  while (e !== undefined) {
    if (pred(e)) found = { e, parent };
    parent = e;
    e = children(e).findLast(holds);
  }
  return found;
}

/** Every call in the tree. */
export function calls(root: Expr): CallExpr[] {
  const out: CallExpr[] = [];
  eachNode(root, (e) => e.k === "call" && out.push(e));
  return out;
}
