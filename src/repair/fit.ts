// How well arguments fit a component's signature, by the checker's own rules: what the repairs
// weigh when they choose between candidate edits (a name, an order of arguments, a wrapping).
import { Checker, type Defs } from "../lang/check.ts";
import type { Component, Expr, Library, PropSchema } from "../lang/index.ts";

export interface Fitter {
  /** Whether `value` fits property `i` of `component`. */
  fits(value: Expr, component: Component, i: number): boolean;
  /** Arguments that fit minus those that do not, missing required ones and excess ones; and whether all fit. */
  score(args: readonly Expr[], component: Component): { score: number; perfect: boolean; strength: number };
}

function telling(schema: PropSchema): boolean {
  return (
    schema.enum !== undefined ||
    schema.$ref !== undefined ||
    (schema.items !== undefined && telling(schema.items)) ||
    (schema.anyOf ?? schema.oneOf ?? []).some(telling)
  );
}

export function fitter(library: Library, defs: Defs): Fitter {
  const checker = new Checker(library, defs, new Set());
  const fits = (value: Expr, component: Component, i: number) => {
    const prop = component.props[i];
    return prop !== undefined && (value.k === "null" ? !prop.required || prop.hasDefault : checker.accepts(value, prop));
  };
  return {
    fits,
    score(args, component) {
      let score = 0;
      // How telling the fit is: a listed value or a component where one is wanted says more
      // than a string where any string will do.
      let strength = 0;
      let perfect = args.length <= component.props.length;
      component.props.forEach((prop, i) => {
        const arg = args[i];
        if (arg === undefined) {
          if (prop.required && !prop.hasDefault) {
            score -= 1;
            perfect = false;
          }
          return;
        }
        if (fits(arg, component, i)) {
          score += arg.k === "null" ? 0 : 1;
          if (arg.k !== "null") strength += telling(prop.schema) ? 2 : 1;
        } else {
          score -= 1;
          perfect = false;
        }
      });
      score -= Math.max(0, args.length - component.props.length);
      return { score, perfect, strength };
    },
  };
}
