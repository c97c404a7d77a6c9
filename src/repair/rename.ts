// Calls the grammar cannot read as calls because of their name's case: `text("Hello")`,
// `stack([...])`, `count(rows)`, or because it is written as words (`Text Content(`). A model
// meant a component (or a builtin without its `@`); the call is renamed, never dropped. Of single
// names, only those that start with a lower-case letter or `_` are looked at: an upper-case name
// is a component call the checker reports (unknownComponents).
import { ACTION_STEPS, BUILTINS, TOOL_CALLS } from "../lang/check.ts";
import type { Library } from "../lang/index.ts";
import { componentByCase } from "../lang/library.ts";
import { nearest } from "./nearest.ts";

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
// Calls that are not library components but are written with an upper-case name.
const SPECIAL = ["Action", ...TOOL_CALLS];

/** The name a lower-case call `name` should have, or null when none is close enough. */
export function callName(name: string, library: Library): string | null {
  const component = componentByCase(library, name);
  if (component !== undefined) return component;
  const lower = name.toLowerCase();
  for (const c of SPECIAL) if (c.toLowerCase() === lower) return c;
  for (const b of [...BUILTINS, ...ACTION_STEPS]) if (b.toLowerCase() === lower) return `@${b}`;
  return nearest(name, library.components.keys());
}

export interface LowerCall {
  start: number;
  end: number;
  name: string;
}

/** Calls in `text` (outside strings and comments) whose name starts with a lower-case letter or `_`. */
export function lowerCaseCalls(text: string): LowerCall[] {
  const out: LowerCall[] = [];
  for (const word of codeWords(text)) {
    if (!/^[a-z_]/.test(word.name)) continue;
    let k = word.end;
    while (text[k] === " " || text[k] === "\t") k++;
    if (text[k] === "(") out.push(word);
  }
  return out;
}

// Words a component name is written as at most (`Text Content`, `Form Control Group`).
const MAX_NAME_WORDS = 3;
const CALL_OPENS = /[ \t]*\(/y;

/** `text` with each call whose name is written as words that make a component's name (`Text Content(`, `text-content(`) named so, or null when none is. */
export function joinedCallNames(text: string, library: Library): string | null {
  const words = codeWords(text);
  let out = "";
  let at = 0;
  for (let w = 0; w < words.length; w++) {
    let k = w;
    // Words one space, tab or hyphen apart (`text-content(`, as in HTML), the last one before `(`.
    while (k + 1 < words.length && k + 1 - w < MAX_NAME_WORDS && /^(?:[ \t]+|-)$/.test(text.slice(words[k].end, words[k + 1].start))) k++;
    for (let last = k; last > w; last--) {
      CALL_OPENS.lastIndex = words[last].end;
      if (!CALL_OPENS.test(text)) continue;
      const joined = words
        .slice(w, last + 1)
        .map((x) => x.name)
        .join("");
      const name = componentByCase(library, joined);
      if (name === undefined) continue;
      out += text.slice(at, words[w].start) + name;
      at = words[last].end;
      w = last;
      break;
    }
  }
  return at === 0 ? null : out + text.slice(at);
}

/** The words of `text` outside strings and comments, not part of a member, state or builtin name. */
function codeWords(text: string): LowerCall[] {
  const out: LowerCall[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c && text[i] !== "\n"; i++) if (text[i] === "\\") i++;
      continue;
    }
    if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (!NAME_START.test(c)) continue;
    const start = i;
    while (i + 1 < text.length && NAME_CHAR.test(text[i + 1])) i++;
    const name = text.slice(start, i + 1);
    const before = text[start - 1];
    if (before !== undefined && /[A-Za-z0-9_$@.]/.test(before)) continue; // part of a member, state or builtin
    out.push({ start, end: start + name.length, name });
  }
  return out;
}

/** `text` with every lower-case call renamed to its component (or builtin), or null when none is. */
export function renameLowerCaseCalls(text: string, library: Library): string | null {
  let out = "";
  let at = 0;
  for (const call of lowerCaseCalls(text)) {
    const name = callName(call.name, library);
    if (name === null) continue;
    out += text.slice(at, call.start) + name;
    at = call.end;
  }
  return at === 0 ? null : out + text.slice(at);
}
