// Named arguments, `Button(label: "Go", action: "x")`, rewritten to positions by the component's
// property order; positional ones may come first (`Stack([a, b], direction: "row")`) or between
// (`TextContent(text: "Hi", "large")`). The argument list is read by the parser itself: the named
// part as an object literal (or, mixed, each piece as an array's item), the positional part as an
// array's items.
import { inspect, type Expr, type Library } from "../lang/index.ts";
import { balance } from "../lang/balance.ts";
import { nearest } from "./nearest.ts";
import { placesByName } from "./by-name.ts";

// A call; its arguments are read only when one of them looks named (below).
const CALL = /([A-Z][A-Za-z0-9_]*)\(/g;
// `name:` where an argument starts (read where the search stands): a candidate, the parser decides.
const NAMED_AT = /\s*[A-Za-z_][A-Za-z0-9_]*\s*:(?![:=])/y;

/**
 * Where the call whose `(` stands at `open` closes, and where its named arguments begin: at
 * `open` itself when the first is named, else at the comma before the first named one (-1: none
 * is). Strings and brackets inside are stepped over, so each call costs the length of its own
 * arguments. Null when it does not close in `line`, or closes with another bracket.
 */
function callExtent(line: string, open: number): { close: number; namedFrom: number } | null {
  let depth = 0;
  let namedFrom = -1;
  for (let i = open; i < line.length; i++) {
    const c = line[i];
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < line.length && line[i] !== c; i++) if (line[i] === "\\") i++;
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (--depth === 0) return c === ")" ? { close: i, namedFrom } : null;
      continue;
    }
    if (namedFrom === -1 && depth === 1 && (i === open || c === ",")) {
      NAMED_AT.lastIndex = i + 1;
      if (NAMED_AT.test(line)) namedFrom = i;
    }
  }
  return null;
}

/** A value read from a line: its key (named) or "", its text, and what it reads as. */
type Read = { key: string; value: string; expr: Expr };

/** Reads `seg` as `open` + seg + `close` (an object's entries or an array's items), or null. */
function readLiteral(seg: string, library: Library, open: "{" | "["): Read[] | null {
  if (seg.includes("```")) return null;
  const probe = `x = ${open}${seg}${open === "{" ? "}" : "]"}`;
  const ins = inspect(probe, library);
  const stmt = ins.statements[0];
  if (ins.broken.length || ins.statements.length !== 1 || stmt.expr.end !== probe.length) return null;
  const e = stmt.expr;
  const read = (key: string, x: Expr) => ({ key, value: probe.slice(x.start, x.end), expr: x });
  if (open === "{") return e.k === "obj" ? e.entries.map((x) => read(x.key, x.value)) : null;
  return e.k === "arr" ? e.items.map((x) => read("", x)) : null;
}

/** `seg` split at its commas outside strings and brackets. */
function pieces(seg: string): string[] {
  const { commas, commaDepths } = balance(seg);
  const cuts = [-1, ...commas.filter((_, k) => commaDepths[k] === 0), seg.length];
  return cuts.slice(1).map((to, k) => seg.slice(cuts[k] + 1, to));
}

/**
 * Named arguments with positional ones among them (`TextContent(text: "Hi", "large")`): each
 * piece read alone, an unnamed one keyed "" (placed by its value, as a key naming no property is).
 */
function readMixed(seg: string, library: Library): Read[] | null {
  const keys: string[] = [];
  const values = pieces(seg).map((piece) => {
    NAMED_AT.lastIndex = 0;
    if (!NAMED_AT.test(piece)) {
      keys.push("");
      return piece;
    }
    keys.push(piece.slice(0, NAMED_AT.lastIndex - 1).trim());
    return piece.slice(NAMED_AT.lastIndex);
  });
  const read = readLiteral(values.join(","), library, "[");
  return read && read.length === keys.length ? read.map((r, k) => ({ ...r, key: keys[k] })) : null;
}

/** The arguments of the call at `open`…`close`: positional ones, then the named ones from `namedFrom` (callExtent), or null unless both read. */
function readArgs(line: string, open: number, close: number, namedFrom: number, library: Library): { positional: Read[]; named: Read[] } | null {
  const seg = line.slice(namedFrom + 1, close);
  const named = readLiteral(seg, library, "{") ?? readMixed(seg, library);
  if (named === null) return null;
  if (namedFrom === open) return { positional: [], named };
  const positional = readLiteral(line.slice(open + 1, namedFrom), library, "[");
  return positional && { positional, named };
}

/** Rewrites the last named-argument call in `line`, or returns null when there is none it can read. */
function rewriteLast(line: string, library: Library): string | null {
  const matches = [...line.matchAll(CALL)];
  for (let m = matches.length - 1; m >= 0; m--) {
    const match = matches[m];
    const name = match[1];
    const open = match.index! + name.length;
    // A name the library lacks keeps its arguments in the order written (the name is chosen
    // next round, by shape); one it has takes them by property name.
    const extent = callExtent(line, open);
    if (extent === null || extent.namedFrom === -1) continue;
    const { close, namedFrom } = extent;
    const args = readArgs(line, open, close, namedFrom, library);
    if (args !== null) {
      const component = library.components.get(name) ?? library.components.get(nearest(name, library.components.keys()) ?? "");
      const { positional, named } = args;
      if (!component) return line.slice(0, match.index!) + `${name}(${[...positional, ...named].map((e) => e.value).join(", ")})` + line.slice(close + 1);
      // Each in the place its key names (by-name.ts: `variant: "small"` goes where "small" is
      // listed); one with no place is dropped. When a name takes the place of a positional
      // argument, or finds none (`Card("card", children: [a])`, `Buttons("row", children: [b])`),
      // the positional ones were not meant as the first: they are placed by their values, after
      // the named ones, if fewer are then dropped.
      const entries = (reads: Read[]) => reads.map((e) => ({ key: e.key, value: e.expr }));
      const dropped = (p: number[] | null) => (p === null ? Infinity : p.filter((i) => i === -1).length);
      let given = named;
      let places = placesByName(component, entries(named), positional.length);
      const slots: (string | undefined)[] = positional.map((e) => e.value);
      if (dropped(places) > 0 && positional.length > 0) {
        const all = [...named, ...positional]; // positional ones are keyed ""
        const byValue = placesByName(component, entries(all));
        if (dropped(byValue) < dropped(places)) {
          given = all;
          places = byValue;
          slots.length = 0;
        }
      }
      if (places === null) return null;
      given.forEach((e, k) => {
        if (places[k] !== -1) slots[places[k]] = e.value;
      });
      // Gaps before a given argument hold `null`: fine for optional properties.
      const out = Array.from(slots, (v) => v ?? "null");
      return line.slice(0, match.index!) + `${name}(${out.join(", ")})` + line.slice(close + 1);
    }
  }
  return null;
}

/** `line` with every named-argument call made positional (innermost last first), or null. */
export function positional(line: string, library: Library): string | null {
  let out = line;
  let changed = false;
  for (let i = 0; i < 32; i++) {
    const next = rewriteLast(out, library);
    if (next === null || next === out) break;
    out = next;
    changed = true;
  }
  return changed ? out : null;
}
