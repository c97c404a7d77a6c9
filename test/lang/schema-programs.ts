// Programs written against any compiled library, from its schema and a seed: every component
// called with arguments made for its props' shapes (types, enums, consts, integers, items,
// properties, $refs and anyOf/oneOf branches), with now and then one of the mistakes models make
// (a value of the wrong kind, an enum member that is not one, a fraction for an integer, a
// component the $ref does not allow, a required argument left out or null, one argument too
// many, an unknown name). Used to hold the fast verdict to the checker on a real library.
import type { Library } from "../../src/lang/library.ts";
import { ARR, BOOL, NULL, NUM, OBJ, STR, type Shape } from "../../src/lang/shape.ts";
import { random } from "./library-programs.ts";

export function schemaProgram(library: Library, seed: number): string {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const wrong = () => r() < 0.02;
  const components = [...library.components.values()];
  const byName = new Map(components.map((c) => [c.name, c]));
  const count = 2 + Math.floor(r() * 10);
  const kinds = Array.from({ length: count }, () => pick(components));
  const lines: string[] = [];

  // A statement below `from` whose component `allowed` accepts, or null.
  const refBelow = (from: number, allowed: (name: string) => boolean): string | null => {
    const fitting: number[] = [];
    for (let i = from + 1; i < count; i++) if (allowed(kinds[i].name)) fitting.push(i);
    return fitting.length && r() < 0.5 ? `s${pick(fitting)}` : null;
  };
  const literal = (json: unknown) =>
    typeof json === "string" ? pick([JSON.stringify(json), `'${json.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`]) : JSON.stringify(json);
  const text = () => pick(['"Total"', "'Last 30 days'", '"q\\"uote"', '""', '"é ✓"', "$title", '"a" + "b"']);

  const value = (shape: Shape, at: number, depth: number): string => {
    if (wrong()) return pick(["1", '"x"', "true", "[]", "{}", "ghost", "Nope()", "null", "2.5"]);
    if (depth > 3) return "null";
    if (shape.any) return pick([text(), "3", "true", "null", "[1]", "$title", "q.rows"]);
    if (shape.refs) {
      // Now and then a component the $ref does not allow, called here or by reference.
      const allows = r() < 0.05 ? (name: string) => !shape.refs!.has(name) : (name: string) => shape.refs!.has(name);
      const names = components.map((c) => c.name).filter(allows);
      return refBelow(at, allows) ?? (names.length ? call(pick(names), at, depth + 1) : "null");
    }
    if (shape.branches) return value(pick(shape.branches), at, depth + 1);
    if (shape.hasConst) return literal(shape.schema.const);
    if (shape.enumValues && r() < 0.9) return literal(pick([...shape.enumValues]));
    const allowed = [STR, NUM, BOOL, NULL, ARR, OBJ].filter((bit) => (shape.kinds & bit) !== 0);
    switch (pick(allowed)) {
      case STR:
        return shape.enumValues ? '"not-a-member"' : text();
      case NUM:
        return shape.integerOnly ? pick(["3", "-1", "0", "12", "1e2", "4.0"]) : pick(["3", "-1.5", "2e3", "0", "99.9"]);
      case BOOL:
        return pick(["true", "false"]);
      case NULL:
        return "null";
      case ARR: {
        const items = shape.items;
        const list = Array.from({ length: Math.floor(r() * 4) }, () => (items ? value(items, at, depth + 1) : pick(['"a"', "1", "true"])));
        return `[${list.join(", ")}]`;
      }
      default: {
        const entries = shape.properties
          ? [...shape.properties].filter(() => r() < 0.7).map(([key, sub]) => `${pick([key, JSON.stringify(key)])}: ${value(sub, at, depth + 1)}`)
          : [];
        if (r() < 0.1) entries.push("extra: 1");
        return `{${entries.join(", ")}}`;
      }
    }
  };

  // A call of component `name`: its props in order, trailing optional ones often left out.
  function call(name: string, at: number, depth: number): string {
    const props = byName.get(name)!.props;
    let given = props.length;
    while (given > 0 && !props[given - 1].required && r() < 0.5) given--;
    if (wrong() && given > 0) given--;
    const args = props.slice(0, given).map((prop) => (!prop.required && r() < 0.1 ? "null" : value(prop.shape, at, depth)));
    if (wrong()) args.push('"one too many"');
    return `${name}(${args.join(", ")})`;
  }

  for (let i = 0; i < count; i++) lines.push(`s${i} = ${call(kinds[i].name, i, 0)}`);
  const root = library.root ?? components[0].name;
  const children = Array.from({ length: count }, (_, i) => `s${i}`).filter(() => !wrong());
  lines.push(`root = ${root}([${children.join(", ")}])`, '$title = "T"', 'q = Query("orders", {}, {rows: []})');
  if (r() < 0.5) lines.reverse();
  return lines.join("\n") + "\n";
}
