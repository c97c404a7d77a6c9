// The one shape every provider adapter speaks: chat-completions in, chat-completions out.
// Adapters are pure translators; src/providers/call.ts does the HTTP.

export type Role = "system" | "developer" | "user" | "assistant" | "tool";

export interface TextPart { type: "text"; text: string }
export interface ImagePart { type: "image_url"; image_url: { url: string; detail?: string } }
export type ContentPart = TextPart | ImagePart | ({ type: string } & Record<string, unknown>);

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: Role;
  content?: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface FunctionTool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
}

export type ToolChoice =
  | "none" | "auto" | "required"
  | { type: "function"; function: { name: string } };

export type ResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null } };

/** A checked embed request, minus `byok`, with `model` still in `{provider}/{model}` form. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  tools?: FunctionTool[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stop?: string | string[];
  response_format?: ResponseFormat;
  seed?: number;
  user?: string;
  stream_options?: { include_usage?: boolean };
}

export interface Usage { prompt_tokens: number; completion_tokens: number; total_tokens: number }

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: {
    index: number;
    message: { role: "assistant"; content: string | null; tool_calls?: ToolCall[]; refusal?: null };
    finish_reason: FinishReason | null;
    logprobs: null;
  }[];
  usage?: Usage;
}

export interface ChunkToolCall {
  index: number;
  id?: string;
  type?: "function";
  function?: { name?: string; arguments?: string };
}

export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: {
    index: number;
    delta: { role?: "assistant"; content?: string | null; tool_calls?: ChunkToolCall[] };
    finish_reason: FinishReason | null;
    logprobs?: null;
  }[];
  usage?: Usage | null;
}

/** One server-sent event as read off the wire. */
export interface SseEvent { event: string; data: string }

/** Where and how to reach the provider for one call. */
export interface Target {
  /** The model id the provider itself knows (no `{provider}/` prefix unless the adapter wants it). */
  model: string;
  baseUrl: string;
  apiKey: string | null;
}

export interface ProviderRequest { url: string; headers: Record<string, string>; body: unknown }

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

/** The request asks for something this provider cannot take: a 400 for the client. */
export class UnsupportedRequestError extends Error {
  readonly status = 400;
  constructor(message: string, readonly param: string | null = null) {
    super(message);
    this.name = "UnsupportedRequestError";
  }
}
