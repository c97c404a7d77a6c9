// Autofix attempt 2: ask the fixing model for a corrected program and check its answer like any
// generation. The model call itself is injected (`complete`), so this file stays free of I/O;
// the HTTP client lives at the edge (src/server/surfaces/autofix/fixing-model.ts).
import { frame, isValid, parse, type Library } from "../lang/index.ts";
import type { FixError } from "../lang/types.ts";
import { buildFixPrompt, type FixPromptInput, type PromptTurn } from "./fix-prompt.ts";

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface Completion {
  content: string;
  usage: TokenUsage;
}

/**
 * One chat completion from the fixing model; rejects when the model cannot be reached or fails.
 * `signal` ends the call early (its client has gone).
 */
export type CompleteFn = (messages: PromptTurn[], signal?: AbortSignal) => Promise<Completion>;

export type ModelFixResult =
  | { status: "fixed"; program: string; usage: TokenUsage }
  | { status: "fix_failed"; program: null; remaining: FixError[]; usage: TokenUsage };

export async function modelFix(input: FixPromptInput & { compiled: Library; complete: CompleteFn }): Promise<ModelFixResult> {
  const answer = await input.complete(buildFixPrompt(input));
  // Models often fence their answer despite being told not to: read only the program inside.
  const program = trimProgram(frame(answer.content).program);
  const result = parse(program, input.compiled);
  if (program !== "" && isValid(result)) return { status: "fixed", program, usage: answer.usage };
  return { status: "fix_failed", program: null, remaining: result.errors, usage: answer.usage };
}

/** Drops blank lines around the answer but keeps the program's own line endings inside. */
function trimProgram(text: string): string {
  return text.replace(/^\s*\n/, "").replace(/\s+$/, "");
}
