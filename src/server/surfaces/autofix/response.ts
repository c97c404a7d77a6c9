// The Autofix answer: a chat completion plus fix_summary (spec 2.2).
import { randomBytes } from "node:crypto";
import type { FixOutcome } from "../../../repair/autofix.ts";

export const AUTOFIX_MODEL = "service/autofix";

export function autofixCompletion(outcome: FixOutcome, now = Date.now()) {
  return {
    id: `fix_${randomBytes(12).toString("hex")}`,
    object: "chat.completion" as const,
    created: Math.floor(now / 1000),
    model: AUTOFIX_MODEL,
    choices: [
      {
        index: 0,
        finish_reason: "stop" as const,
        message: { role: "assistant" as const, content: outcome.content, refusal: null },
        logprobs: null,
      },
    ],
    usage: outcome.usage,
    fix_summary: {
      status: outcome.status,
      fixed_errors: outcome.fixed_errors,
      unfixed_errors: outcome.unfixed_errors,
    },
  };
}
