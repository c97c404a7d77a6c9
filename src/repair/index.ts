// The repair API (Autofix attempt 1): `repair` decides the outcome, `sanitize` does the edits.
import { inspect, isValid, parse, type FixError, type Library } from "../lang/index.ts";
import { calls } from "./exprs.ts";
import { sanitize } from "./sanitize.ts";

export { sanitize } from "./sanitize.ts";
export type { Sanitized } from "./sanitize.ts";

export interface RepairOutcome {
  status: "already_valid" | "fixed" | "fix_failed";
  content: string | null;
  fixed_errors: FixError[];
  unfixed_errors: FixError[];
}

/** Library components the program calls, by name. */
function componentsKept(result: string, original: string, library: Library): Set<string> {
  const out = new Set<string>();
  const hadRoot = inspect(original, library).statements.some((s) => s.id === "root");
  for (const stmt of inspect(result, library).statements) {
    for (const call of calls(stmt.expr)) {
      // A root the sanitizer built (its text new) is not something the generation had.
      if (!hadRoot && stmt.id === "root" && call === stmt.expr && !original.includes(result.slice(call.start, call.end))) continue;
      if (library.components.has(call.name)) out.add(call.name);
    }
  }
  return out;
}

/**
 * Repairs a bare, fenced or enveloped generation. `fixed` only when the result is valid and keeps
 * at least one component of the generation; its content is the whole generation in its wrapping.
 */
export function repair(generation: string, library: Library): RepairOutcome {
  if (isValid(parse(generation, library))) {
    return { status: "already_valid", content: generation, fixed_errors: [], unfixed_errors: [] };
  }
  const result = sanitize(generation, library);
  const kept = componentsKept(result.content, generation, library);
  if (result.remaining.length === 0 && kept.size > 0) {
    return { status: "fixed", content: result.content, fixed_errors: result.fixed, unfixed_errors: [] };
  }
  const unfixed = result.remaining.length ? result.remaining : result.original;
  return { status: "fix_failed", content: null, fixed_errors: [], unfixed_errors: unfixed };
}
