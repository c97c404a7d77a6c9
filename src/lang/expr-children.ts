// The direct sub-expressions of an expression tree node: one place that knows every kind's children.
import type { Expr } from "./types.ts";

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
