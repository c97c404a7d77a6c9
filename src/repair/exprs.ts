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

/** Every node with its parent, outermost first. */
export function* walk(e: Expr, parent: Expr | null = null): Generator<{ e: Expr; parent: Expr | null }> {
  yield { e, parent };
  for (const c of children(e)) yield* walk(c, e);
}

/** The innermost node satisfying `pred` whose span holds offset `at`, with its parent. */
export function innermostAt(root: Expr, at: number, pred: (e: Expr) => boolean): { e: Expr; parent: Expr | null } | null {
  let found: { e: Expr; parent: Expr | null } | null = null;
  for (const hit of walk(root)) {
    if (hit.e.start <= at && at < Math.max(hit.e.end, hit.e.start + 1) && pred(hit.e)) found = hit;
  }
  return found;
}

/** Every call in the tree. */
export function calls(root: Expr): CallExpr[] {
  const out: CallExpr[] = [];
  for (const { e } of walk(root)) if (e.k === "call") out.push(e);
  return out;
}
