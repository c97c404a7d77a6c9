// The one shape every provider adapter speaks: chat-completions in, chat-completions out.
// Adapters are pure translators; src/providers/call.ts does the HTTP.

// The chat-completions types (src/chat/types.ts) are re-exported for the adapters.
export * from "../chat/types.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatRequest } from "../chat/types.ts";

/** One server-sent event as read off the wire. */
export interface SseEvent {
  event: string;
  data: string;
}

/** Where and how to reach the provider for one call. */
export interface Target {
  /** The model id the provider itself knows (no `{provider}/` prefix unless the adapter wants it). */
  model: string;
  baseUrl: string;
  apiKey: string | null;
}

export interface ProviderRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface StreamOptions {
  /** The id, created and model every chunk of this answer carries. */
  id: string;
  created: number;
  model: string;
}

/** One provider: pure translation both ways. */
export interface ProviderAdapter {
  /** Provider id as written before the slash. */
  readonly name: string;
  /** Env variable that holds the server's key; null when none is needed (local). */
  readonly keyEnv: string | null;
  readonly baseUrlEnv: string;
  readonly defaultBaseUrl: string | null;
  toRequest(req: ChatRequest, target: Target, stream: boolean): ProviderRequest;
  fromResponse(body: unknown, model: string): ChatCompletion;
  fromStream(events: AsyncIterable<SseEvent>, opts: StreamOptions): AsyncIterable<ChatCompletionChunk>;
  /** The provider's own error message out of an error body. */
  errorMessage(status: number, bodyText: string): string;
}

/** A provider failed: answered with an error, could not be reached, or broke its stream. */
export class ProviderError extends Error {
  constructor(
    message: string,
    /** The status Tessera answers with: 502, or 429 for a provider's 429. */
    readonly status: number,
    /** The provider's own status, when it answered. */
    readonly upstreamStatus: number | null,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

// What each provider says when a request is longer than the model's context window: OpenAI and
// the aggregators ("maximum context length is …", code context_length_exceeded), Anthropic
// ("prompt is too long: … tokens > … maximum"), Gemini ("The input token count (…) exceeds the
// maximum number of tokens allowed (…)").
const CONTEXT_OVERFLOW = /maximum context length|context_length_exceeded|context window|prompt is too long|exceeds the maximum number of tokens/i;

/** Whether the provider refused the request for being longer than the model's context window. */
export function isContextOverflow(e: unknown): boolean {
  return e instanceof ProviderError && (e.upstreamStatus === 400 || e.upstreamStatus === 413) && CONTEXT_OVERFLOW.test(e.message);
}
