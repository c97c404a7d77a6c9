// Builds the display tree (`ParseResult.root`) from checked statements. Run only when `root`
// is read: most callers want the verdict, not the tree.
import type { Library } from "./library.ts";
import type { Defs } from "./check.ts";
import type { ElementNode, Expr } from "./types.ts";

export interface RuntimeValue {
  type: "expression";
  source: string;
}

// What a dropped element builds to (a reference to nothing or to a cycle, an unknown component,
// a missing or null required property without a default, a statement not yet streamed): left
// out of an array, `null` in any other place.
const DROPPED: unique symbol = Symbol("dropped");

export function materializeRoot(getText: () => string, defs: Defs, library: Library, partial: Set<string>): ElementNode | null {
  const root = defs.get("root");
  if (!root) return null;
  const seen = new Set<string>(["root"]);
  const value = build(root.expr, "root");
  return value !== null && value !== DROPPED && typeof value === "object" && (value as ElementNode).type === "element" ? (value as ElementNode) : null;

  function orNull(value: unknown): unknown {
    return value === DROPPED ? null : value;
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
      case "ref": {
        const target = defs.get(e.name);
        if (!target || seen.has(e.name)) return DROPPED;
        if (target.kind === "query" || target.kind === "mutation" || target.kind === "state") {
          return { type: "expression", source: e.name } satisfies RuntimeValue;
        }
        seen.add(e.name);
        const value = build(target.expr, e.name);
        seen.delete(e.name);
        return value;
      }
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
            else if (prop.required) return DROPPED; // missing-required / null-required
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
        return { type: "expression", source: getText().slice(e.start, e.end) } satisfies RuntimeValue;
    }
  }
}
