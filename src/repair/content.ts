// What a repair must keep for its result to count as a fix: the program's content. Measured as
//   - the free-text strings of the statements `root` displays (every statement when there is no
//     `root`): string literals where the schema takes free text, not listed values or numbers a
//     repair rewrites, and not arguments past a component's last property (never displayed);
//   - the text strings (with a space in them) of named lines the parser could not read (complete
//     ones, not a cut-off end): there the schema is not known, and a one-word string may be a
//     listed value a repair rewrites;
//   - the number of component calls in those statements (a renamed call is kept).
// The result keeps the content when it holds every such string (as often) and as many calls.
import type { Expr, Inspection, Library, PropSchema, Statement } from "../lang/index.ts";

export interface Content {
  strings: Map<string, number>;
  calls: number;
}

const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

function freeText(schema: PropSchema | null): boolean {
  if (schema === null) return true;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.some(freeText);
  if (schema.enum || schema.const !== undefined) return false;
  const t = schema.type;
  return t === undefined || t === "string" || (Array.isArray(t) && t.includes("string"));
}

function itemsOf(schema: PropSchema | null): PropSchema | null {
  if (schema === null) return null;
  if (schema.items) return schema.items;
  for (const b of schema.anyOf ?? schema.oneOf ?? []) if (b.items) return b.items;
  return null;
}

function propertyOf(schema: PropSchema | null, key: string): PropSchema | null {
  if (schema === null) return null;
  if (schema.properties?.[key]) return schema.properties[key];
  for (const b of schema.anyOf ?? schema.oneOf ?? []) if (b.properties?.[key]) return b.properties[key];
  return null;
}

/** The text strings of `text` outside comments: quoted literals with a space inside. */
function literalStrings(text: string, out: Map<string, number>): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c !== '"' && c !== "'" && c !== "`") continue;
    let j = i + 1;
    let s = "";
    for (; j < text.length && text[j] !== c && text[j] !== "\n"; j++) {
      if (text[j] === "\\" && j + 1 < text.length) j++;
      s += text[j];
    }
    // One word may be a listed value a repair rewrites ("vertical" → "column"): text has a space.
    if (/\s/.test(s.trim())) add(out, s);
    i = j;
  }
}

/**
 * The content of an inspected program (see the top of this file). `every`: count every string
 * the displayed statements hold, listed values included (for a result, which may hold a string
 * of the generation's unreadable lines as a listed value).
 */
export function contentOf(ins: Inspection, text: string, library: Library, every = false): Content {
  const defs = new Map<string, Statement>();
  for (const s of ins.statements) {
    defs.delete(s.id);
    defs.set(s.id, s);
  }
  const strings = new Map<string, number>();
  let calls = 0;
  const seen = new Set<string>();
  const visit = (e: Expr, schema: PropSchema | null): void => {
    switch (e.k) {
      case "str":
        if (every || freeText(schema)) add(strings, e.v);
        return;
      case "arr":
        for (const item of e.items) visit(item, itemsOf(schema));
        return;
      case "obj":
        for (const entry of e.entries) visit(entry.value, propertyOf(schema, entry.key));
        return;
      case "ref":
        if (!seen.has(e.name) && defs.has(e.name)) {
          seen.add(e.name);
          visit(defs.get(e.name)!.expr, schema);
        }
        return;
      case "call": {
        if (e.name === "Query" || e.name === "Mutation") return; // what a tool is asked: not displayed
        const component = library.components.get(e.name);
        if (component || /^[A-Z]/.test(e.name)) calls++;
        const props = component?.props;
        e.args.forEach((a, i) => {
          if (props && i >= props.length) return; // past the last property: never displayed
          visit(a, props ? props[i].schema : null);
        });
        return;
      }
      case "builtin":
        for (const a of e.args) visit(a, null);
        return;
      case "binary":
        visit(e.left, null);
        visit(e.right, null);
        return;
      case "ternary":
        visit(e.then, null);
        visit(e.else, null);
        return;
      default:
        return;
    }
  };
  if (defs.has("root")) {
    seen.add("root");
    visit(defs.get("root")!.expr, null);
  } else {
    for (const s of defs.values()) {
      if (seen.has(s.id) || s.kind === "state") continue;
      seen.add(s.id);
      visit(s.expr, null);
    }
  }
  for (const line of ins.broken) if (line.id !== undefined && !line.incomplete) literalStrings(text.slice(line.start, line.end), strings);
  return { strings, calls };
}

/** Whether `after` keeps `before`: every string (as often, or as a listed value's other form) and as many calls. */
export function keepsContent(before: Content, after: Content): boolean {
  if (after.calls < before.calls) return false;
  const loose = new Map<string, number>();
  for (const [s, n] of after.strings) loose.set(s.toLowerCase(), (loose.get(s.toLowerCase()) ?? 0) + n);
  for (const [s, n] of before.strings) {
    if ((after.strings.get(s) ?? 0) >= n) continue;
    // A string of a line that could not be read is counted as written; the result may hold it
    // in another case (a listed value mended) or, being free text, as it was.
    if ((loose.get(s.toLowerCase()) ?? 0) < n) return false;
  }
  return true;
}
