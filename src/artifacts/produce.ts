// One artifact generation or edit, from the model's answer to a checked program: the generation
// prompt (or the edit-mode prompt and the merge of the patch into the base), then the check, the
// sanitizer and, when one is configured, the fixing model. Pure: both models arrive as injected
// functions (their failures propagate to the caller).
import { frame, isValid, parse } from "../lang/index.ts";
import type { FixError } from "../lang/types.ts";
import { checkGeneration, modelAttempt, sanitizerFix, type ContextTurn } from "../repair/autofix.ts";
import type { PromptTurn } from "../repair/fix-prompt.ts";
import type { CompleteFn, TokenUsage } from "../repair/model-fix.ts";
import type { ArtifactLibrary } from "./kinds.ts";
import { mergeProgram, type MergeResult } from "./merge.ts";
import { editPrompt, editRequest, generationPrompt } from "./prompt.ts";

/** A program's size limit: Autofix's generation limit. */
export const MAX_ARTIFACT_CHARS = 100_000;

export type ArtifactTask =
  | { kind: "generate"; turns: PromptTurn[] }
  /** `base`: the program being edited; `instruction`: what to change. */
  | { kind: "edit"; base: string; instruction: string };

export interface ProduceInput {
  lib: ArtifactLibrary;
  task: ArtifactTask;
  /** The application's own instructions (its system turns), shown after the library's. */
  instructions: string;
  /** The model that writes the artifact. */
  complete: CompleteFn;
  /** The fixing model, or null. */
  fixer: CompleteFn | null;
}

export type Produced =
  | {
      ok: true;
      program: string;
      outcome: "already_valid" | "fixed";
      /** Who fixed it, when it was fixed. */
      by: "none" | "sanitizer" | "model";
      corrected: string[];
      usage: TokenUsage;
      /** What an edit's merge changed (null for a generation). */
      merge: MergeResult | null;
    }
  | { ok: false; reason: "too_large" | "invalid"; message: string; errors: FixError[]; usage: TokenUsage };

function add(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

/** The messages the artifact model is sent. */
export function artifactMessages(input: Pick<ProduceInput, "lib" | "task" | "instructions">): PromptTurn[] {
  const { lib, task } = input;
  const check = (program: string) => isValid(parse(program, lib.library));
  if (task.kind === "generate") return [{ role: "system", content: generationPrompt(lib, input.instructions, check) }, ...task.turns];
  return [
    { role: "system", content: editPrompt(lib, input.instructions, check) },
    { role: "user", content: editRequest(frame(task.base).program.trim(), task.instruction) },
  ];
}

export async function produceArtifact(input: ProduceInput): Promise<Produced> {
  const { lib, task } = input;
  const answer = await input.complete(artifactMessages(input));
  let usage = answer.usage;
  let merge: MergeResult | null = null;
  let program: string;
  if (task.kind === "edit") {
    merge = mergeProgram(task.base, answer.content);
    program = merge.program;
  } else program = frame(answer.content).program.trim();
  const context: ContextTurn[] =
    task.kind === "edit"
      ? [{ role: "user", text: task.instruction }]
      : task.turns.filter((t) => t.role !== "system").map((t) => ({ role: t.role, text: t.content }));
  const checked = await checkArtifact(lib, program, { context, instructions: input.instructions, fixer: input.fixer });
  usage = add(usage, checked.usage);
  return checked.ok ? { ...checked, usage, merge } : { ...checked, usage };
}

export type CheckedArtifact =
  | { ok: true; program: string; outcome: "already_valid" | "fixed"; by: "none" | "sanitizer" | "model"; corrected: string[]; usage: TokenUsage }
  | { ok: false; reason: "too_large" | "invalid"; message: string; errors: FixError[]; usage: TokenUsage };

const NO_USAGE: TokenUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/** A program checked against the kind's library and, when it has errors, repaired: the sanitizer, then the fixing model (when given). */
export async function checkArtifact(
  lib: ArtifactLibrary,
  program: string,
  o: { context: ContextTurn[]; instructions: string; fixer: CompleteFn | null },
): Promise<CheckedArtifact> {
  let usage = NO_USAGE;
  const tooLarge = (what: string, n: number): CheckedArtifact => ({
    ok: false,
    reason: "too_large",
    message: `${what} is ${n} characters, over the limit of ${MAX_ARTIFACT_CHARS}`,
    errors: [],
    usage,
  });
  if (program.length > MAX_ARTIFACT_CHARS) return tooLarge("the program", program.length);
  const checked = checkGeneration(program, lib.library);
  if (checked.valid) return { ok: true, program, outcome: "already_valid", by: "none", corrected: [], usage };
  const fixInput = { checked, library: lib.library, source: lib.source, context: o.context, instructions: o.instructions };
  let outcome = sanitizerFix(fixInput);
  if (outcome.status !== "fixed" && o.fixer) {
    outcome = await modelAttempt(fixInput, outcome.unfixed_errors, o.fixer);
    usage = outcome.usage;
  }
  if (outcome.status === "fixed" && outcome.content !== null) {
    const fixed = outcome.content.trim();
    if (fixed.length > MAX_ARTIFACT_CHARS) return tooLarge("the repaired program", fixed.length);
    return {
      ok: true,
      program: fixed,
      outcome: "fixed",
      by: outcome.by === "model" ? "model" : "sanitizer",
      corrected: checked.result.errors.map((e) => e.code),
      usage,
    };
  }
  return { ok: false, reason: "invalid", message: "the program has errors that could not be repaired", errors: outcome.unfixed_errors, usage };
}
