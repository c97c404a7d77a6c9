// Calls the grammar cannot read as calls because of their name's case: `text("Hello")`,
// `stack([...])`, `count(rows)`. A model meant a component (or a builtin without its `@`); the
// call is renamed, never dropped. Only names that start with a lower-case letter or `_` are
// looked at: an upper-case name is a component call the checker reports (unknownComponents).
import { ACTION_STEPS, BUILTINS } from "../lang/check.ts";
import type { Library } from "../lang/index.ts";
import { nearest } from "./nearest.ts";

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
// Calls that are not library components but are written with an upper-case name.
const SPECIAL = ["Action", "Query", "Mutation"];

/** The name a lower-case call `name` should have, or null when none is close enough. */
export function callName(name: string, library: Library): string | null {
  const lower = name.toLowerCase();
  for (const c of library.components.keys()) if (c.toLowerCase() === lower) return c;
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
    if (!/^[a-z_]/.test(name)) continue;
    let k = i + 1;
    while (text[k] === " " || text[k] === "\t") k++;
    if (text[k] === "(") out.push({ start, end: start + name.length, name });
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
