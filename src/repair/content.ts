// What a repair must keep for its result to count as a fix: the program's content. Measured as
//   - the free-text strings of its statements (not those the generation has orphaned, never
//     displayed, nor state, queries and mutations): string literals where the schema takes free
//     text, not listed values or numbers a repair rewrites, and not arguments past a component's
//     last property (never displayed);
//   - the text strings (with a space in them) of named lines the parser could not read (complete
//     ones, not a cut-off end): there the schema is not known, and a one-word string may be a
//     listed value a repair rewrites;
//   - the number of component calls in those statements (a renamed call is kept).
// The result keeps the content when it holds every such string (as often; in another case for
// a line that could not be read; or inside a longer string, where an unknown call's strings were
// joined in a text component) and as many calls.
import type { Expr, Inspection, Library, PropSchema, Statement } from "../lang/index.ts";
import { decodeString } from "../lang/ast.ts";
import { eachNode } from "./exprs.ts";
import { nearest } from "./nearest.ts";
import { TOOL_CALLS } from "../lang/check.ts";
import { jsxTexts } from "./jsx.ts";
import { closedQuote, innerQuotes, mendLine, numberIn } from "./mend.ts";
import { normal } from "./meaning.ts";
import { unmoved } from "./reinspect.ts";

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

/** The quoted literals of `text` outside comments, each as the parser reads it; a quote open at a line's end is none. */
function quoted(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c !== '"' && c !== "'" && c !== "`") continue;
    let j = i + 1;
    for (; j < text.length && text[j] !== c && text[j] !== "\n"; j++) if (text[j] === "\\" && j + 1 < text.length) j++;
    if (j < text.length && text[j] !== "\n") add(out, c === "`" ? text.slice(i + 1, j) : decodeString(text.slice(i, j + 1)));
    i = j;
  }
  return out;
}

/**
 * The text strings of a line the parser could not read: the quoted literals with a space inside
 * that every reading of its quotes finds (mend.ts: as written, a closing quote put back, quotes
 * inside a string escaped), the line first read as the repair reads it (a string typed over lines
 * is one), and the text children of its JSX elements. Where a quote slipped, the strings after it
 * are not certain, and not counted.
 */
function literalStrings(written: string, out: Map<string, number>): void {
  const agreed = agreedStrings(mendLine(written) ?? written);
  // A statement over lines: a quote that slipped in one line leaves the others' strings certain
  // (each line read alone, as a string holds no line break), though read whole they shift. Not
  // so with a template literal, which may hold line breaks.
  const lines = written.trimEnd().split("\n");
  if (lines.length > 1 && !written.includes("`")) {
    const byLine = new Map<string, number>();
    for (const line of lines) for (const [s, n] of agreedStrings(mendLine(line) ?? line)) byLine.set(s, (byLine.get(s) ?? 0) + n);
    for (const [s, n] of byLine) agreed.set(s, Math.max(n, agreed.get(s) ?? 0));
  }
  // One word may be a listed value a repair rewrites ("vertical" → "column"): text has a space;
  // a number with its unit (`6 rows`, quoted by the mend) may become its number.
  const texts = new Map<string, number>();
  for (const [s, n] of agreed) if (n > 0 && /\s/.test(s.trim()) && numberIn(s) === null) texts.set(s, n);
  // A JSX element's text children are text, one word too; unquoted, they are certain though the element may not read.
  const children = new Map<string, number>();
  for (const s of jsxTexts(written)) add(children, s);
  for (const [s, n] of children) texts.set(s, Math.max(n, texts.get(s) ?? 0));
  for (const [s, n] of texts) out.set(s, (out.get(s) ?? 0) + n);
}

/** The quoted literals every reading of `text`'s quotes finds, each as often as the fewest finds it. */
function agreedStrings(text: string): Map<string, number> {
  const agreed = quoted(text);
  for (const reading of [closedQuote(text), innerQuotes(text)]) {
    if (reading === null) continue;
    const found = quoted(reading);
    for (const [s, n] of agreed) agreed.set(s, Math.min(n, found.get(s) ?? 0));
  }
  return agreed;
}

/** Adds the content of one statement's expression (see the top of this file). `every`: every string, listed values included. */
function addContent(expr: Expr, library: Library, into: Content, every: boolean): void {
  const visit = (e: Expr, schema: PropSchema | null): void => {
    switch (e.k) {
      case "str":
        // Where no schema says (an unknown component's arguments), one word may be a listed value
        // a repair rewrites (`"16px"` → `"m"`, `"true"` → true): text has a space, as in a line
        // that could not be read.
        if ((every || freeText(schema)) && (schema !== null || /\s/.test(e.v.trim()))) add(into.strings, e.v);
        return;
      case "ref":
        // A statement's name the model quoted where a component goes keeps its text as the reference.
        if (every) add(into.strings, e.name);
        return;
      case "arr":
        for (const item of e.items) visit(item, itemsOf(schema));
        return;
      case "obj":
        for (const entry of e.entries) visit(entry.value, propertyOf(schema, entry.key));
        return;
      case "call": {
        const component = library.components.get(e.name);
        // What a tool is asked is not displayed; nor is it where the name is a tool call misspelt.
        if (TOOL_CALLS.includes(e.name) || (!component && nearest(e.name, TOOL_CALLS) !== null)) return;
        if (component || /^[A-Z]/.test(e.name)) into.calls++;
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
  visit(expr, null);
}

const WORDS = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const STRINGS = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g;
const CALLS = /(?<![A-Za-z0-9_$.])([A-Z][A-Za-z0-9_]*)[ \t]*\(/g;

/** How many calls of library components a line that could not be read writes (outside its strings). */
function libraryCalls(text: string, library: Library): number {
  let n = 0;
  for (const m of text.replace(STRINGS, '""').matchAll(CALLS)) if (library.components.has(m[1])) n++;
  return n;
}

// Something, `=`, then a call: a statement, whatever stands before its `=`.
const STATEMENT_SHAPED = /^[^="'`(]*=[ \t]*[A-Z][A-Za-z0-9_]*[ \t]*\(/;

/**
 * Whether the repaired program (`result`, inspected as `last`) keeps the content of the
 * generation (inspected as `first`). Statements the repair left as they were (same name, same
 * text) keep theirs: only the others are read, so a long program with one mended line costs
 * that line (and a comparison of statement texts), not a walk of every tree. Statements the
 * generation had orphaned (never displayed, unless named in a line that could not be read) and
 * state, queries and mutations are not content.
 */
export function keepsContent(generation: string, first: Inspection, result: string, last: Inspection, library: Library): boolean {
  // The two lists of statements, walked side by side: most statements are the same in both, in
  // the same order; a few statements on either side are looked ahead for a mended one.
  const a = first.statements;
  const b = last.statements;
  // A statement the sanitizer's rounds only moved is the generation's own (reinspect.ts): its
  // text is not compared.
  const same = (s: Statement, t: Statement) =>
    unmoved(t) === s || (s.id === t.id && s.end - s.start === t.end - t.start && generation.slice(s.start, s.end) === result.slice(t.start, t.end));
  const changedA: Statement[] = [];
  const changedB: Statement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (same(a[i], b[j])) {
      i++;
      j++;
      continue;
    }
    // An insertion on one side (a hoisted statement, a built root), or a mended statement on both.
    const aheadB = [1, 2, 3].find((k) => j + k < b.length && same(a[i], b[j + k]));
    const aheadA = aheadB === undefined ? [1, 2, 3].find((k) => i + k < a.length && same(a[i + k], b[j])) : undefined;
    if (aheadB !== undefined) for (let k = 0; k < aheadB; k++) changedB.push(b[j++]);
    else if (aheadA !== undefined) for (let k = 0; k < aheadA; k++) changedA.push(a[i++]);
    else {
      changedA.push(a[i++]);
      changedB.push(b[j++]);
    }
  }
  while (i < a.length) changedA.push(a[i++]);
  while (j < b.length) changedB.push(b[j++]);
  // Orphaned only because the line that used it could not be read is not "never displayed".
  const orphaned = new Set(first.errors.filter((e) => e.code === "orphaned").map((e) => e.statementId));
  for (const line of first.broken) for (const word of generation.slice(line.start, line.end).match(WORDS) ?? []) orphaned.delete(word);
  const before: Content = { strings: new Map(), calls: 0 };
  for (const s of changedA) {
    if (orphaned.has(s.id) || s.id.startsWith("$") || s.kind === "query" || s.kind === "mutation") continue;
    addContent(s.expr, library, before, false);
  }
  // A line that could not be read: its strings, and its calls when something uses its name (a
  // line nobody refers to is never displayed). Who refers to what is read only when needed.
  let used: Set<string> | null = null;
  const isUsed = (id: string) => {
    if (used === null) {
      const names = (used = new Set(["root"]));
      for (const s of first.statements) eachNode(s.expr, (n) => n.k === "ref" && names.add(n.name));
      for (const line of first.broken) {
        const text = generation.slice(line.start, line.end);
        for (const word of text.slice(line.id === undefined ? 0 : text.indexOf("=") + 1).match(WORDS) ?? []) names.add(word);
      }
    }
    return used.has(id);
  };
  for (const line of first.broken) {
    if (line.incomplete) continue;
    // Read without its line break, as a line is mended (a statement in backticks is one then).
    const text = generation.slice(line.start, line.end).replace(/\r?\n$/, "");
    const calls = libraryCalls(text, library);
    // A line whose name the parser could not find (`título = …`, `Intro: title = …`) is code
    // still when it calls a component of the library: its strings count; prose does not.
    if (line.id === undefined && calls === 0) continue;
    literalStrings(text, before.strings);
    // Its calls count when something uses its name; a line whose name could not be found, when it
    // reads as a statement all the same (`refresh[Btn = Button(…)`): what it calls is meant to show.
    if (calls > 0 && (line.id === undefined ? STATEMENT_SHAPED.test(text) : isUsed(line.id))) before.calls += calls;
  }
  const after: Content = { strings: new Map(), calls: 0 };
  for (const s of changedB) addContent(s.expr, library, after, true);
  return keeps(before, after);
}

/** Whether `after` keeps `before`: every string (as often, or as a listed value's other form) and as many calls. */
function keeps(before: Content, after: Content): boolean {
  if (after.calls < before.calls) return false;
  const loose = new Map<string, number>();
  for (const [s, n] of after.strings) {
    const form = normal(s);
    loose.set(form, (loose.get(form) ?? 0) + n);
  }
  for (const [s, n] of before.strings) {
    if ((after.strings.get(s) ?? 0) >= n) continue;
    // A string of a line that could not be read is counted as written; the result may hold it
    // in another form (a listed value mended: case, separators) or, being free text, as it was.
    if ((loose.get(normal(s)) ?? 0) >= n) continue;
    // Text kept inside another string (an unknown call's strings joined in a text component).
    let inside = false;
    for (const t of after.strings.keys()) if (t.length > s.length && t.includes(s)) inside = true;
    if (!inside) return false;
  }
  return true;
}
