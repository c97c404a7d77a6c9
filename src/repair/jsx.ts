// JSX elements as the calls they stand for: `<Callout variant="info" title="Note">Read me</Callout>`
// → `Callout(variant: "info", title: "Note", children: "Read me")`. Attributes become named
// arguments; children become one more, `children`, which names no property and so goes to the
// first free one its value fits (by-name.ts): a text or a `{…}` expression alone as it is,
// elements and several children as a list. An element that does not read as JSX is left as it was.

const NAME = /[A-Za-z][A-Za-z0-9_]*/y;
const ATTRIBUTE = /[A-Za-z_][\w-]*/y;
const SPACE = /\s*/y;
// Elements read inside one another, at most: a line nested deeper is read as no JSX at all (a
// line of a thousand unclosed tags costs one try, not a try from each tag).
const MAX_DEPTH = 32;

/** `line` with its JSX elements written as calls, or null when it has none that reads. */
export function jsxAsCalls(line: string): string | null {
  return elementsAsCalls(line, 0, { reached: false });
}

/** Depth so far, and whether an element was nested past MAX_DEPTH (then nothing is read). */
type Deep = { reached: boolean };

/** jsxAsCalls for code at `depth` elements deep (what an attribute's or a child's braces hold). */
function elementsAsCalls(line: string, depth: number, deep: Deep): string | null {
  let out = "";
  let from = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"' || c === "'" || c === "`") {
      i = quoteEnd(line, i);
      continue;
    }
    if (c !== "<" || !/[A-Za-z]/.test(line[i + 1] ?? "")) continue;
    const element = readElement(line, i, depth, deep);
    if (deep.reached) return null;
    if (!element) continue;
    out += line.slice(from, i) + element.call;
    from = element.end;
    i = element.end - 1;
  }
  return from === 0 ? null : out + line.slice(from);
}

/** The offset of the quote that closes the string opened at `at` (the line's end when none does). */
function quoteEnd(text: string, at: number): number {
  const quote = text[at];
  let j = at + 1;
  for (; j < text.length && text[j] !== quote; j++) if (text[j] === "\\") j++;
  return Math.min(j, text.length);
}

/** The offset just past the `}` that closes the brace at `at`, strings inside skipped; -1 when none does. */
function braceEnd(text: string, at: number): number {
  let depth = 0;
  for (let j = at; j < text.length; j++) {
    const c = text[j];
    if (c === '"' || c === "'" || c === "`") j = quoteEnd(text, j);
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return j + 1;
  }
  return -1;
}

function match(pattern: RegExp, text: string, at: number): string | null {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0] ?? null;
}

const skipSpace = (text: string, at: number) => at + (match(SPACE, text, at)?.length ?? 0);

/** The element that opens at `at` (a `<` before a letter) as a call, and where it ends; null when it does not read. */
function readElement(text: string, at: number, depth: number, deep: Deep): { call: string; end: number } | null {
  const name = match(NAME, text, at + 1);
  if (!name) return null;
  if (depth > MAX_DEPTH) {
    deep.reached = true;
    return null;
  }
  // An HTML element (`<h2>`) is named as a component would be, for the name to be matched by shape.
  const callee = name[0].toUpperCase() + name.slice(1);
  const args: string[] = [];
  let i = at + 1 + name.length;
  for (;;) {
    i = skipSpace(text, i);
    if (text.startsWith("/>", i)) return { call: `${callee}(${args.join(", ")})`, end: i + 2 };
    if (text[i] === ">") break;
    const key = match(ATTRIBUTE, text, i);
    if (!key) return null;
    i = skipSpace(text, i + key.length);
    if (text[i] !== "=") {
      args.push(`${key}: true`); // a bare attribute is a boolean set
      continue;
    }
    i = skipSpace(text, i + 1);
    const value = attributeValue(text, i, depth, deep);
    if (!value) return null;
    args.push(`${key}: ${value.text}`);
    i = value.end;
  }
  const children: { element: boolean; value: string }[] = [];
  i++;
  for (;;) {
    if (i >= text.length) return null;
    if (text.startsWith("</", i)) {
      // Any name closes it (a misspelt closing tag): the nesting is read, not checked.
      const closing = skipSpace(text, i + 2);
      const end = skipSpace(text, closing + (match(NAME, text, closing)?.length ?? 0));
      if (text[end] !== ">") return null;
      i = end + 1;
      break;
    }
    if (text[i] === "<") {
      const inner = readElement(text, i, depth + 1, deep);
      if (!inner) return null;
      children.push({ element: true, value: inner.call });
      i = inner.end;
    } else if (text[i] === "{") {
      const end = braceEnd(text, i);
      if (end === -1) return null;
      const inner = code(text.slice(i + 1, end - 1).trim(), depth, deep);
      if (inner && !/^\/\*[\s\S]*\*\/$/.test(inner)) children.push({ element: false, value: inner });
      i = end;
    } else {
      let end = i;
      while (end < text.length && text[end] !== "<" && text[end] !== "{") end++;
      const words = childText(text.slice(i, end));
      if (words) children.push({ element: false, value: JSON.stringify(words) });
      i = end;
    }
  }
  // Beside an attribute named `children`, they are one more argument, placed by what they are.
  const key = args.some((a) => a.startsWith("children:")) ? "" : "children: ";
  if (children.length === 1 && !children[0].element) args.push(key + children[0].value);
  else if (children.length > 0) args.push(`${key}[${children.map((c) => c.value).join(", ")}]`);
  return { call: `${callee}(${args.join(", ")})`, end: i };
}

/** What braces hold, its elements written as calls (`{<Tag label="A" />}`). */
const code = (inner: string, depth: number, deep: Deep) => (inner.includes("<") && elementsAsCalls(inner, depth + 1, deep)) || inner;

/** An attribute's value at `at`: a quoted string as written, or what `{…}` holds. */
function attributeValue(text: string, at: number, depth: number, deep: Deep): { text: string; end: number } | null {
  const c = text[at];
  if (c === '"' || c === "'") {
    const end = quoteEnd(text, at);
    return end < text.length ? { text: text.slice(at, end + 1), end: end + 1 } : null;
  }
  if (c !== "{") return null;
  const end = braceEnd(text, at);
  return end === -1 ? null : { text: code(text.slice(at + 1, end - 1).trim(), depth, deep), end };
}

/**
 * A text child as the model meant it: blank lines around it dropped, its lines kept (Markdown's
 * breaks mean something), the indentation they share with the tags taken off.
 */
function childText(raw: string): string {
  const lines = raw.split("\n").map((l) => l.trimEnd());
  while (lines.length > 0 && lines[0].trim() === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 0) return "";
  const indent = Math.min(...lines.slice(1).map((l) => (l === "" ? Infinity : l.length - l.trimStart().length)));
  return [lines[0].trim(), ...lines.slice(1).map((l) => l.slice(Math.min(indent, l.length)))].join("\n");
}

// Text between a tag's end and the next tag: a JSX child, unquoted.
const CHILD_TEXT = />([^<>{}]*[^<>{}\s][^<>{}]*)<\/?[A-Za-z]/g;

/** The texts a line's JSX children hold (of a line with a closing tag), as the call would hold them. */
export function jsxTexts(line: string): string[] {
  if (!line.includes("</")) return [];
  return [...line.matchAll(CHILD_TEXT)].map((m) => childText(m[1]));
}
