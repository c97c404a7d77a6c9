// One implementation of the OpenAI Chat Completions wire, configured three times:
// OpenAI itself, the aggregator (OpenRouter-compatible) and any local OpenAI-compatible server.
// The request goes out nearly verbatim: this is the format the client already speaks.

import * as v from "valibot";
import { checked, streamEvent } from "./checked.ts";
import {
  ProviderError,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatRequest,
  type ProviderAdapter,
  type ProviderRequest,
  type SseEvent,
  type StreamOptions,
  type Target,
} from "./types.ts";

export interface OpenAICompatibleConfig {
  name: string;
  keyEnv: string | null;
  baseUrlEnv: string;
  defaultBaseUrl: string | null;
  /** Some servers only know `max_tokens`: send that instead of `max_completion_tokens`. */
  legacyMaxTokens: boolean;
  /** Ask the upstream for a usage chunk on every stream, so usage can be logged. */
  alwaysStreamUsage: boolean;
}

export function openAICompatible(cfg: OpenAICompatibleConfig): ProviderAdapter {
  return {
    name: cfg.name,
    keyEnv: cfg.keyEnv,
    baseUrlEnv: cfg.baseUrlEnv,
    defaultBaseUrl: cfg.defaultBaseUrl,
    toRequest: (req, target, stream) => toRequest(cfg, req, target, stream),
    fromResponse,
    fromStream,
    errorMessage: openAIErrorMessage,
  };
}

function toRequest(cfg: OpenAICompatibleConfig, req: ChatRequest, target: Target, stream: boolean): ProviderRequest {
  const body: Record<string, unknown> = { ...req, model: target.model, stream };
  delete body.stream_options;
  if (cfg.legacyMaxTokens && req.max_completion_tokens !== undefined) {
    body.max_tokens = req.max_tokens ?? req.max_completion_tokens;
    delete body.max_completion_tokens;
  }
  if (stream) {
    const include = cfg.alwaysStreamUsage || req.stream_options?.include_usage === true;
    if (include) body.stream_options = { include_usage: true };
  } else {
    delete body.stream;
  }
  const headers: Record<string, string> = {};
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  return { url: `${trimSlash(target.baseUrl)}/chat/completions`, headers, body };
}

// The chat-completions wire is untagged: the fields read here (and by the bridges downstream),
// checked; the rest passes through as the provider sent it.
const Text = v.optional(v.nullable(v.string()));
const Usage = v.optional(v.nullable(v.looseObject({ prompt_tokens: v.number(), completion_tokens: v.number(), total_tokens: v.number() })));
const Finish = v.optional(v.nullable(v.string()));
const Completion = v.looseObject({
  id: v.string(),
  created: v.number(),
  choices: v.array(
    v.looseObject({
      index: v.number(),
      message: v.looseObject({
        content: Text,
        tool_calls: v.optional(v.nullable(v.array(v.looseObject({ id: v.string(), function: v.looseObject({ name: v.string(), arguments: v.string() }) })))),
      }),
      finish_reason: Finish,
    }),
  ),
  usage: Usage,
});
const Chunk = v.looseObject({
  id: v.string(),
  created: v.number(),
  choices: v.optional(
    v.array(
      v.looseObject({
        index: v.number(),
        delta: v.optional(
          v.looseObject({
            content: Text,
            tool_calls: v.optional(
              v.nullable(
                v.array(
                  v.looseObject({
                    index: v.number(),
                    id: v.optional(v.nullable(v.string())),
                    function: v.optional(v.looseObject({ name: v.optional(v.nullable(v.string())), arguments: v.optional(v.nullable(v.string())) })),
                  }),
                ),
              ),
            ),
          }),
        ),
        finish_reason: Finish,
      }),
    ),
  ),
  usage: Usage,
});
/** OpenRouter and some local servers report failures inside the stream, as an event of their own. */
const MaybeFailure = v.looseObject({ error: v.optional(v.unknown()) });

function fromResponse(body: unknown, model: string): ChatCompletion {
  const b = body as { choices?: unknown; error?: { message?: string } } | null;
  if (!b || typeof b !== "object" || !Array.isArray(b.choices)) {
    throw new ProviderError(`provider answered without choices${b?.error?.message ? `: ${b.error.message}` : ""}`, 502, 200);
  }
  // Checked, then passed on whole (values the types narrow, as finish_reason's, are the provider's to choose).
  return { ...(checked(Completion, b, "provider answered", 200) as Omit<ChatCompletion, "object" | "model">), object: "chat.completion", model };
}

async function* fromStream(events: AsyncIterable<SseEvent>, opts: StreamOptions): AsyncGenerator<ChatCompletionChunk> {
  let finished = false;
  for await (const ev of events) {
    if (ev.data === "[DONE]") return;
    const event = streamEvent(MaybeFailure, ev.data, "provider");
    if (event.error) throw new ProviderError(`provider stream failed: ${errorText(event.error)}`, 502, null);
    const checkedChunk = checked(Chunk, event, "provider sent a stream event", null);
    // Checked above; passed on whole (values the types narrow, as finish_reason's, are the provider's to choose).
    const chunk = checkedChunk as Omit<ChatCompletionChunk, "object" | "model"> as ChatCompletionChunk;
    chunk.model = opts.model;
    chunk.object = "chat.completion.chunk";
    if (chunk.choices?.some((c) => c.finish_reason)) finished = true;
    yield chunk;
  }
  // No [DONE]: acceptable only when the answer had clearly finished.
  if (!finished) throw new ProviderError("provider stream ended before the answer finished", 502, null);
}

function errorText(error: unknown): string {
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" ? message : "unknown error";
}

export function openAIErrorMessage(status: number, text: string): string {
  try {
    const j = JSON.parse(text);
    const m = j?.error?.message ?? j?.message ?? (typeof j?.error === "string" ? j.error : undefined);
    if (typeof m === "string" && m) return m;
  } catch {
    /* not JSON: fall through */
  }
  return text.trim().slice(0, 500) || `HTTP ${status}`;
}

export function trimSlash(u: string): string {
  return u.endsWith("/") ? u.slice(0, -1) : u;
}
