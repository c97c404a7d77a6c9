// The repair API (Autofix attempt 1): `repair` decides the outcome, `sanitize` does the edits.
import { isValid, parseAndInspect, type FixError, type Inspection, type Library, type ParseResult } from "../lang/index.ts";
import { calls, findNode } from "./exprs.ts";
import { nearest } from "./nearest.ts";
import { callName, lowerCaseCalls } from "./rename.ts";
import { sanitize } from "./sanitize.ts";
import { keepsContent } from "./content.ts";
import { FENCE } from "../lang/frame.ts";

export { sanitize } from "./sanitize.ts";
export type { Sanitized } from "./sanitize.ts";

export interface RepairOutcome {
  status: "already_valid" | "fixed" | "fix_failed";
  content: string | null;
  fixed_errors: FixError[];
  unfixed_errors: FixError[];
}

/** Whether the result still calls a library component the generation had (the first one found answers). */
function keepsAComponent(result: string, resultIns: Inspection, original: string, originalIns: Inspection, library: Library): boolean {
  const hadRoot = originalIns.statements.some((s) => s.id === "root");
  // The first such call answers: a long program's root is not walked past it.
  for (const stmt of resultIns.statements) {
    const kept = findNode(stmt.expr, (call) => {
      if (call.k !== "call") return false;
      // A root the sanitizer built (its text new) is not something the generation had.
      if (!hadRoot && stmt.id === "root" && call === stmt.expr && !original.includes(result.slice(call.start, call.end))) return false;
      return library.components.has(call.name);
    });
    if (kept) return true;
  }
  return false;
}

/**
 * Whether the result lost a statement of the generation that held a call a rename would have
 * made a component: a line `t = text()` dropped because `Text()` still missed its text. Such a
 * result reads valid but has thrown away what the model wrote; it is not a fix.
 */
function lostToRename(generation: string, original: Inspection, result: Inspection, library: Library): boolean {
  // Usually the result keeps every statement, in order: then no set of names is needed for them.
  const aligned = result.statements.length >= original.statements.length && original.statements.every((s, i) => result.statements[i].id === s.id);
  if (aligned && !original.broken.some((line) => line.id !== undefined)) return false;
  const kept = new Set(result.statements.map((s) => s.id));
  const text = generation;
  for (const line of original.broken) {
    if (line.id === undefined || kept.has(line.id)) continue;
    if (lowerCaseCalls(text.slice(line.start, line.end)).some((c) => callName(c.name, library) !== null)) return true;
  }
  for (const stmt of original.statements) {
    if (kept.has(stmt.id)) continue;
    for (const call of calls(stmt.expr)) {
      if (!library.components.has(call.name) && nearest(call.name, library.components.keys()) !== null) return true;
    }
  }
  return false;
}

/**
 * Repairs a bare, fenced or enveloped generation. `fixed` only when the result is valid, keeps
 * at least one component of the generation, has not dropped a statement a rename could have
 * kept, and keeps the program's content (its strings and component calls: content.ts);
 * its content is the whole generation in its wrapping. Otherwise `fix_failed` with the
 * errors left (or the generation's own): the fixing model, when there is one, gets the original.
 */
export function repair(generation: string, library: Library, checked?: { result: ParseResult; inspection: Inspection | null }): RepairOutcome {
  // One inspection of each text carries through: the generation's (from the check, or made
  // here from the same parse as the verdict) and the result's (the sanitizer's last round).
  const { result: parsed, inspection } = checked ?? parseAndInspect(generation, library);
  if (isValid(parsed) || inspection === null) {
    return { status: "already_valid", content: generation, fixed_errors: [], unfixed_errors: [] };
  }
  const fence = strayClosingFence(generation);
  if (fence !== null) return withoutStrayFence(generation.slice(0, fence), parsed.errors, library);
  const result = sanitize(generation, library, inspection);
  const { first, last } = result;
  if (
    result.remaining.length === 0 &&
    keepsAComponent(result.content, last, generation, first, library) &&
    !lostToRename(generation, first, last, library) &&
    keepsContent(generation, first, result.content, last, library)
  ) {
    return { status: "fixed", content: result.content, fixed_errors: result.fixed, unfixed_errors: [] };
  }
  const unfixed = result.remaining.length ? result.remaining : result.original;
  return { status: "fix_failed", content: null, fixed_errors: [], unfixed_errors: unfixed };
}

/**
 * Where a fence line stands that closes a program no fence opened (the program, then a last line
 * of three backticks): read as a fence that opens an empty block, it leaves no program at all
 * (OpenUI's parser too then renders nothing). Null unless it is the generation's only fence line,
 * its last line that is not blank, with text before it.
 */
function strayClosingFence(generation: string): number | null {
  let end = generation.length;
  while (end > 0 && /\s/.test(generation[end - 1]!)) end--;
  const start = generation.lastIndexOf("\n", end - 1) + 1;
  if (start === 0 || !FENCE.test(generation.slice(start, end)) || !/\S/.test(generation.slice(0, start))) return null;
  // Three backticks elsewhere in a line (`Here: ```openui`) open no block here.
  for (let at = generation.indexOf("```"); at !== -1 && at < start; at = generation.indexOf("```", at + 3)) {
    const from = generation.lastIndexOf("\n", at) + 1;
    const to = generation.indexOf("\n", at);
    if (FENCE.test(generation.slice(from, to === -1 ? generation.length : to))) return null;
  }
  return start;
}

/** The program before a stray closing fence, repaired without that fence line: the fence's removal is the fix of `errors`. */
function withoutStrayFence(program: string, errors: FixError[], library: Library): RepairOutcome {
  const inner = repair(program, library);
  if (inner.status === "fix_failed") return inner;
  return { status: "fixed", content: inner.content, fixed_errors: [...errors, ...inner.fixed_errors], unfixed_errors: [] };
}
