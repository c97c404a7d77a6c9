// The fixing model (Autofix attempt 2), through the provider adapters: any `{provider}/{model}`
// Embed can reach. Errors carry the status and model name, never the key or the request body.
import type { FixingModelConfig } from "../../config.ts";
import type { CompleteFn } from "../../../repair/model-fix.ts";
import { adapterFor } from "../../../providers/registry.ts";
import { complete } from "../../../providers/call.ts";
import type { ChatMessage } from "../../../providers/types.ts";

export class FixingModelError extends Error {}

/** How long the fixing model may take to answer (also what bounds an Autofix call's credit hold). */
export const FIXING_MODEL_TIMEOUT_MS = 60_000;

export function providerFixingModel(cfg: FixingModelConfig): CompleteFn {
  const adapter = adapterFor(cfg.provider);
  const id = `${cfg.provider}/${cfg.model}`;
  return async (messages, signal) => {
    // The timeout, and the client's leaving: the provider's connection closes on either.
    const deadline = AbortSignal.timeout(FIXING_MODEL_TIMEOUT_MS);
    let answer;
    try {
      answer = await complete(
        adapter,
        { model: id, messages: messages as ChatMessage[], temperature: 0 },
        { model: cfg.model, baseUrl: cfg.baseUrl, apiKey: cfg.apiKey },
        signal ? AbortSignal.any([deadline, signal]) : deadline,
      );
    } catch (e) {
      throw new FixingModelError(`fixing model ${id} failed: ${(e as Error).message}`);
    }
    const content = answer.choices[0]?.message.content;
    if (typeof content !== "string") throw new FixingModelError(`fixing model ${id} sent no message content`);
    return { content, usage: answer.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } };
  };
}
