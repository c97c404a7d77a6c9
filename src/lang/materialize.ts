// Builds the display tree (`ParseResult.root`) from checked statements. Run only when `root`
// is read: most callers want the verdict, not the tree.
import type { Library } from "./library.ts";
import type { Defs } from "./check.ts";
import type { ElementNode, Expr } from "./types.ts";

export interface RuntimeValue {
  type: "expression";
  source: string;
}

export function materializeRoot(getText: () => string, defs: Defs, library: Library, partial: Set<string>): ElementNode | null {
  const root = defs.get("root");
  if (!root) return null;
  const seen = new Set<string>(["root"]);
  const value = build(root.expr, "root");
  return value !== null && typeof value === "object" && (value as ElementNode).type === "element" ? (value as ElementNode) : null;

  function build(e: Expr, statementId: string | undefined): unknown {
    switch (e.k) {
      case "str":
      case "num":
      case "bool":
        return e.v;
      case "null":
        return null;
      case "arr":
        return e.items.map((item) => build(item, undefined));
      case "obj":
        return Object.fromEntries(e.entries.map((entry) => [entry.key, build(entry.value, undefined)]));
      case "ref": {
        const target = defs.get(e.name);
        if (!target || seen.has(e.name)) return null;
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
        if (!component) return null;
        const props: Record<string, unknown> = {};
        for (let i = 0; i < component.props.length; i++) {
          const prop = component.props[i];
          const arg = e.args[i];
          const value = arg === undefined ? undefined : build(arg, undefined);
          if (value === undefined || value === null) {
            if (prop.hasDefault) props[prop.name] = prop.schema.default;
            else if (prop.required) return null; // missing-required / null-required: dropped
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
