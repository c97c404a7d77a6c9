// The chat-completions wire as Tessera speaks it inside: what a client sends to Embed, what the
// Responses bridge (src/responses) translates to and from, and what every provider adapter takes
// and gives back (src/providers). Types only, and the one refusal a translation may raise: pure.

export type Role = "system" | "developer" | "user" | "assistant" | "tool";

export interface TextPart {
  type: "text";
  text: string;
}
export interface ImagePart {
  type: "image_url";
  image_url: { url: string; detail?: string };
}
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

export type ToolChoice = "none" | "auto" | "required" | { type: "function"; function: { name: string } };

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

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

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

/** The request asks for something this provider (or the chat wire) cannot take: a 400 for the client. */
export class UnsupportedRequestError extends Error {
  readonly status = 400;
  constructor(
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = "UnsupportedRequestError";
  }
}
