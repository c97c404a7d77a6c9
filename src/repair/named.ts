// Named arguments, `Button(label: "Go", action: "x")`, rewritten to positions by the component's
// property order. The argument list is read by the parser itself, as an object literal.
import { inspect, type Library } from "../lang/index.ts";
import { nearest } from "./nearest.ts";

// A call whose first argument is `name:`; only a candidate, the parser decides.
const NAMED_CALL = /([A-Z][A-Za-z0-9_]*)\(\s*[A-Za-z_][A-Za-z0-9_]*\s*:(?![:=])/g;
const PROBE = "x = {";

/** Reads `seg` as the inside of an object literal: entry keys and value texts, or null. */
function readEntries(seg: string, library: Library): { key: string; value: string }[] | null {
  if (seg.includes("```")) return null;
  const probe = `${PROBE}${seg}}`;
  const ins = inspect(probe, library);
  const stmt = ins.statements[0];
  if (ins.broken.length || ins.statements.length !== 1 || stmt.expr.k !== "obj" || stmt.expr.end !== probe.length) return null;
  return stmt.expr.entries.map((e) => ({ key: e.key, value: probe.slice(e.value.start, e.value.end) }));
}

/** Rewrites the last named-argument call in `line`, or returns null when there is none it can read. */
function rewriteLast(line: string, library: Library): string | null {
  const matches = [...line.matchAll(NAMED_CALL)];
  for (let m = matches.length - 1; m >= 0; m--) {
    const match = matches[m];
    const name = match[1];
    const open = match.index! + name.length;
    // A name the library lacks keeps its arguments in the order written (the name is chosen
    // next round, by shape); one it has takes them by property name.
    const component = library.components.get(name) ?? library.components.get(nearest(name, library.components.keys()) ?? "");
    // The closing parenthesis is the first `)` after which the inside reads as entries.
    for (let close = line.indexOf(")", open); close !== -1; close = line.indexOf(")", close + 1)) {
      const entries = readEntries(line.slice(open + 1, close), library);
      if (!entries) continue;
      if (!component) return line.slice(0, match.index!) + `${name}(${entries.map((e) => e.value).join(", ")})` + line.slice(close + 1);
      const names = component.props.map((p) => p.name);
      const slots: (string | undefined)[] = [];
      for (const { key, value } of entries) {
        const exact = names.indexOf(key);
        const loose = exact !== -1 ? exact : names.indexOf(nearest(key, names) ?? "");
        if (loose !== -1) slots[loose] = value; // keys that name no property are dropped
      }
      // Gaps before a given argument hold `null`: fine for optional properties.
      const args = Array.from(slots, (v) => v ?? "null");
      return line.slice(0, match.index!) + `${name}(${args.join(", ")})` + line.slice(close + 1);
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
