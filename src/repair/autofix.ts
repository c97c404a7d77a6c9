// The Autofix pipeline once a request is accepted: frame → check → sanitizer → fixing model →
// rewrap. Pure: the fixing model arrives as an injected `complete` function. Used by the server
// route and by `tessera fix`.
import { frame, isValid, parseAndInspect, type Inspection, type Library } from "../lang/index.ts";
import { reframe, type Framed } from "../lang/frame.ts";
import type { FixError, ParseResult } from "../lang/types.ts";
import { repair } from "./index.ts";
import { modelFix, type CompleteFn, type TokenUsage } from "./model-fix.ts";

export interface ContextTurn {
  role: "system" | "developer" | "user" | "assistant";
  text: string;
}

export type FixStatus = "already_valid" | "fixed" | "fix_failed";

export interface FixOutcome {
  status: FixStatus;
  content: string | null;
  fixed_errors: FixError[];
  unfixed_errors: FixError[];
  usage: TokenUsage;
  /** Which attempt produced the outcome, for logs and monitoring. */
  by: "none" | "sanitizer" | "model";
}

export const NO_USAGE: TokenUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

export interface Checked {
  generation: string;
  framed: Framed;
  result: ParseResult;
  valid: boolean;
  /** The statements and placed errors behind `result` (null when it is certainly valid): the
   *  repair starts from them instead of parsing the generation again. */
  inspection: Inspection | null;
}

/** Checks only the program inside the fence(s) or envelope. */
export function checkGeneration(generation: string, library: Library): Checked {
  const { result, inspection } = parseAndInspect(generation, library);
  // The framing is read again only if the fixing model needs the program alone: the check
  // framed the generation already, and the sanitizer edits it in its wrapping.
  let framed: Framed | null = null;
  return {
    generation,
    get framed() {
      return (framed ??= frame(generation));
    },
    result,
    valid: isValid(result),
    inspection,
  };
}

export function alreadyValid(generation: string): FixOutcome {
  return { status: "already_valid", content: generation, fixed_errors: [], unfixed_errors: [], usage: NO_USAGE, by: "none" };
}

export interface FixInput {
  checked: Checked;
  library: Library;
  source: Record<string, unknown>;
  context: ContextTurn[];
  instructions: string;
  /** The fixing model, or null when none is configured. Its failures propagate (→ 500). */
  complete: CompleteFn | null;
}

/** Both attempts: the sanitizer, then (when it leaves errors and one is configured) the fixing model. */
export async function runFix(input: FixInput): Promise<FixOutcome> {
  const first = sanitizerFix(input);
  return first.status === "fixed" || !input.complete ? first : modelAttempt(input, first.unfixed_errors, input.complete);
}

/**
 * Attempt 1: the deterministic sanitizer, on the whole generation: it edits the program where it
 * stands (in each fenced block), so the wrapping comes back byte for byte. Its result is checked
 * rather than trusted: `fixed` means the checker found no error in the content itself (the
 * sanitizer's last inspection is of exactly that text), so it is not parsed once more. Synchronous:
 * a caller can tell whether the fixing model is needed before it pays for a model call.
 */
export function sanitizerFix(input: Omit<FixInput, "complete">): FixOutcome {
  const { generation, result } = input.checked;
  const sanitized = repair(generation, input.library, { result, inspection: input.checked.inspection });
  if (sanitized.status === "fixed" && sanitized.content !== null) {
    return { status: "fixed", content: sanitized.content, fixed_errors: sanitized.fixed_errors, unfixed_errors: [], usage: NO_USAGE, by: "sanitizer" };
  }
  const remaining = sanitized.unfixed_errors.length ? sanitized.unfixed_errors : result.errors;
  return { status: "fix_failed", content: null, fixed_errors: [], unfixed_errors: remaining, usage: NO_USAGE, by: "sanitizer" };
}

/** Attempt 2: the fixing model, given the errors the sanitizer left. */
export async function modelAttempt(input: Omit<FixInput, "complete">, remaining: FixError[], complete: CompleteFn): Promise<FixOutcome> {
  const { framed, result } = input.checked;
  const fixed = await modelFix({
    library: input.source,
    compiled: input.library,
    context: input.context,
    program: framed.program,
    errors: remaining,
    instructions: input.instructions,
    complete,
  });
  if (fixed.status === "fixed") {
    // Keep the original program's trailing line break so the wrapping reads as it came in.
    const trailing = /\s*$/.exec(framed.program)?.[0] ?? "";
    return {
      status: "fixed",
      content: reframe(framed, fixed.program + trailing),
      fixed_errors: result.errors,
      unfixed_errors: [],
      usage: fixed.usage,
      by: "model",
    };
  }
  return { status: "fix_failed", content: null, fixed_errors: [], unfixed_errors: remaining, usage: fixed.usage, by: "model" };
}
