// fast-check generators of programs in the UI language, and of mutations of programs.
import fc from "fast-check";

const name = fc.stringMatching(/^[a-z_][A-Za-z0-9_]{0,6}$/).filter((n) => !["true", "false", "null"].includes(n));
const component = fc.stringMatching(/^[A-Z][A-Za-z0-9]{0,6}$/).filter((n) => n !== "Action");
const ws = fc.constantFrom("", " ", "  ", "\t");
const gap = fc.constantFrom("", " ", "\n", "\n  ", " // c\n", " # c\n ");

const stringLit = fc.oneof(
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.stringMatching(/^[a-z '\\]{0,6}$/).map((s) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`),
);
const numberLit = fc.oneof(
  fc.integer({ min: -999, max: 999 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((d) => String(d)),
);
const literal = fc.oneof(stringLit, numberLit, fc.constantFrom("true", "false", "null"));

const { expr } = fc.letrec<{ expr: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    literal,
    name,
    name.map((n) => `$${n}`),
    fc.tuple(gap, fc.array(tie("expr"), { maxLength: 3 }), gap).map(([a, items, b]) => `[${a}${items.join(`,${a}`)}${b}]`),
    fc.tuple(fc.array(fc.tuple(name, tie("expr")), { maxLength: 3 }), gap).map(([entries, g]) => `{${g}${entries.map(([k, v]) => `${k}: ${v}`).join(", ")}}`),
    fc.tuple(component, fc.array(tie("expr"), { maxLength: 3 }), gap).map(([c, args, g]) => `${c}(${g}${args.join(", ")})`),
    fc.tuple(fc.constantFrom("Count", "Sum", "Run", "Set"), fc.array(tie("expr"), { maxLength: 2 })).map(([b, args]) => `@${b}(${args.join(", ")})`),
    fc.array(tie("expr"), { maxLength: 2 }).map((steps) => `Action([${steps.join(", ")}])`),
    // Not an action (what follows the array is not `)`): a call of a component named Action.
    fc
      .tuple(fc.array(tie("expr"), { maxLength: 2 }), fc.constantFrom(",", " + 1", "[0]", ".a", "\n", ", 2", "\n]"))
      .map(([steps, after]) => `Action([${steps.join(", ")}]${after})`),
    tie("expr").map((e) => `(${e})`),
  ),
  expr: fc.oneof(
    { depthSize: "small" },
    tie("atom"),
    fc
      .tuple(tie("atom"), fc.constantFrom("+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||"), ws, tie("atom"))
      .map(([a, op, w, b]) => `${a}${w}${op}${w}${b}`),
    fc.tuple(fc.constantFrom("!", "-"), tie("atom")).map(([op, a]) => `${op}${a}`),
    fc.tuple(tie("atom"), tie("atom"), tie("atom"), fc.constantFrom(" ", "\n  ")).map(([c, a, b, br]) => `${c}${br}? ${a}${br}: ${b}`),
    fc.tuple(tie("atom"), name).map(([a, n]) => `${a}.${n}`),
    fc.tuple(tie("atom"), tie("atom")).map(([a, i]) => `${a}[${i}]`),
  ),
}));

const statement = fc
  .tuple(
    fc.oneof(
      name,
      name.map((n) => `$${n}`),
    ),
    ws,
    expr,
  )
  .map(([n, w, e]) => `${n}${w}=${w}${e}`);

export const programArb = fc
  .array(fc.oneof({ weight: 6, arbitrary: statement }, { weight: 1, arbitrary: fc.constantFrom("", "// note", "Here is prose.") }), { maxLength: 6 })
  .map((lines) => lines.join("\n"));

const pieces = ["(", ")", "[", "]", "{", "}", '"', "'", ",", ":", "?", "=", "\n", " ", "//", "#", "\\", "-", ".", "@", "$", "a", "A", "1"];

/** A program from `corpus` with a few characters inserted, deleted or replaced. */
export function mutationArb(corpus: string[]) {
  const edit = fc.tuple(fc.nat(), fc.constantFrom("insert", "delete", "replace"), fc.constantFrom(...pieces));
  return fc.tuple(fc.constantFrom(...corpus.filter((t) => t.length > 0)), fc.array(edit, { minLength: 1, maxLength: 4 })).map(([text, edits]) => {
    let out = text;
    for (const [at, kind, piece] of edits) {
      const i = at % (out.length + 1);
      if (kind === "insert") out = out.slice(0, i) + piece + out.slice(i);
      else if (kind === "delete") out = out.slice(0, i) + out.slice(i + 1);
      else out = out.slice(0, i) + piece + out.slice(i + 1);
    }
    return out;
  });
}

/** Lines of quotes, escapes and brackets of every kind, mostly strings and brackets that never close, and lines that start statements among them. */
export const quotesArb = fc
  .array(fc.constantFrom('"', "'", '\\"', "\\'", "\\", "\\u12", "\\x", "a", " ", "(", "(", "[", "[", "{", ")", "]", "}", "\n", "\ny = 1\n"), { maxLength: 32 })
  .map((parts) => "x = " + parts.join(""));
