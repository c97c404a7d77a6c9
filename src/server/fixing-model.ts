// The fixing model over HTTP (OpenAI-compatible /chat/completions). The only place that holds the
// provider key; errors carry the status and model name, never the key or the request body.
import type { FixingModelConfig } from "./config.ts";
import type { CompleteFn } from "../repair/model-fix.ts";

export class FixingModelError extends Error {}

const TIMEOUT_MS = 60_000;

export function openAiFixingModel(cfg: FixingModelConfig, fetchImpl: typeof fetch = fetch): CompleteFn {
  return async (messages) => {
    let res: Response;
    try {
      res = await fetchImpl(`${cfg.baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${cfg.apiKey}` },
        body: JSON.stringify({ model: cfg.model, messages, temperature: 0 }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (e) {
      throw new FixingModelError(`fixing model ${cfg.model} could not be reached: ${(e as Error).name}`);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new FixingModelError(`fixing model ${cfg.model} answered HTTP ${res.status}`);
    }
    const json = (await res.json().catch(() => null)) as {
      choices?: { message?: { content?: unknown } }[];
      usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
    } | null;
    const content = json?.choices?.[0]?.message?.content;
    if (typeof content !== "string") throw new FixingModelError(`fixing model ${cfg.model} sent no message content`);
    const prompt = json?.usage?.prompt_tokens ?? 0;
    const completion = json?.usage?.completion_tokens ?? 0;
    return {
      content,
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: json?.usage?.total_tokens ?? prompt + completion },
    };
  };
}
