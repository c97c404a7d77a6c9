// The Responses wire's shapes, as Tessera stores and sends them (OpenAI's Responses API).
// Items are plain JSON objects; only the fields the bridge reads are typed.
import type { UrlCitation } from "./citations.ts";
import type { ArtifactToolIn, ImageSearchToolIn, McpToolIn, ToolChoiceIn, WebSearchToolIn } from "./schema.ts";

export type ItemStatus = "in_progress" | "completed" | "incomplete";

export interface InputTextPart {
  type: "input_text";
  text: string;
}
export interface OutputTextPart {
  type: "output_text";
  text: string;
  annotations: UrlCitation[];
  logprobs: [];
}
export interface InputImagePart {
  type: "input_image";
  image_url?: string | null;
  file_id?: string | null;
  detail?: string;
}
export interface InputFilePart {
  type: "input_file";
  file_data?: string;
  file_url?: string;
  file_id?: string;
  filename?: string;
}
export interface RefusalPart {
  type: "refusal";
  refusal: string;
}
export type ContentPart = InputTextPart | OutputTextPart | InputImagePart | InputFilePart | RefusalPart | { type: "text"; text: string };

export interface MessageItem {
  type: "message";
  id: string;
  role: "user" | "assistant" | "system" | "developer";
  status: ItemStatus;
  content: ContentPart[];
  phase?: "commentary" | "final_answer";
}
/** A message the model wrote: its content is output text (or a refusal). */
export interface OutputMessageItem extends MessageItem {
  role: "assistant";
  content: (OutputTextPart | RefusalPart)[];
}

export interface FunctionCallItem {
  type: "function_call";
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: ItemStatus;
}

export interface FunctionCallOutputItem {
  type: "function_call_output";
  id: string;
  call_id: string;
  output: string | ContentPart[];
  status: ItemStatus;
}

/** A function_call_output in a Response's output: the service ran the call itself (the artifact tool) and wrote text. */
export interface OutputFunctionCallOutputItem extends FunctionCallOutputItem {
  output: string;
}

export interface ReasoningItem {
  type: "reasoning";
  id: string;
  summary: unknown[];
  status?: ItemStatus;
}
export interface CompactionItem {
  type: "compaction";
  id: string;
  encrypted_content: string;
}

// Hosted tools' items (run by the service, not the application).
export interface McpToolListed {
  name: string;
  input_schema: Record<string, unknown>;
  description?: string | null;
  annotations?: unknown;
}
export interface McpListToolsItem {
  type: "mcp_list_tools";
  id: string;
  server_label: string;
  tools: McpToolListed[];
  error?: string | null;
}
export type McpCallError =
  | { type: "mcp_protocol_error"; code: number; message: string }
  | { type: "mcp_tool_execution_error"; content: unknown }
  | { type: "http_error"; code: number; message: string };
export interface McpCallItem {
  type: "mcp_call";
  id: string;
  server_label: string;
  name: string;
  arguments: string;
  output: string | null;
  error: McpCallError | null;
  approval_request_id?: string | null;
  status: "in_progress" | "calling" | "completed" | "incomplete" | "failed";
}
export interface McpApprovalRequestItem {
  type: "mcp_approval_request";
  id: string;
  server_label: string;
  name: string;
  arguments: string;
}
export interface McpApprovalResponseItem {
  type: "mcp_approval_response";
  id: string;
  approval_request_id: string;
  approve: boolean;
  reason?: string | null;
}
export interface WebSearchCallItem {
  type: "web_search_call";
  id: string;
  status: "in_progress" | "searching" | "completed" | "failed";
  action: { type: "search"; query: string; queries?: string[]; sources?: { type: "url"; url: string }[] };
  /** Only when `include` asks for web_search_call.results. */
  results?: { url: string; title: string; snippet: string }[];
}
export interface ImageSearchResultOut {
  /** The full image, absolute. */
  image_url: string;
  title: string;
  /** The page the image is on. */
  source_url: string | null;
  thumbnail_url: string | null;
  width: number | null;
  height: number | null;
}
export interface ImageSearchCallItem {
  type: "image_search_call";
  id: string;
  status: "in_progress" | "searching" | "completed" | "failed";
  action: { type: "search"; query: string };
  results: ImageSearchResultOut[];
}
export type HostedItem = McpListToolsItem | McpCallItem | McpApprovalRequestItem | McpApprovalResponseItem | WebSearchCallItem | ImageSearchCallItem;

/** An item as stored: every one has an id. */
export type Item = MessageItem | FunctionCallItem | FunctionCallOutputItem | ReasoningItem | CompactionItem | HostedItem;
export type OutputItem = OutputMessageItem | FunctionCallItem | OutputFunctionCallOutputItem | Exclude<HostedItem, McpApprovalResponseItem>;

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type IncompleteReason = "max_output_tokens" | "content_filter";

export type ResponseStatus = "queued" | "in_progress" | "completed" | "failed" | "incomplete" | "cancelled";

export interface FunctionToolOut {
  type: "function";
  name: string;
  description: string | null;
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
}

/** An MCP tool as the Response echoes it: without `authorization`, and only the names of its `headers`. */
export type McpToolOut = Omit<McpToolIn, "authorization" | "headers"> & { headers: Record<string, "[redacted]"> | null };

/** A hosted tool as the Response echoes it: its settings, never `authorization` or `headers`' values. */
export type HostedToolOut = McpToolOut | WebSearchToolIn | ImageSearchToolIn | ArtifactToolIn;

export type TextFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; name: string; schema: Record<string, unknown>; description?: string | null; strict?: boolean | null };

/** The Response object: every field the client types and the Open Responses schema require. */
export interface ResponseObject {
  id: string;
  object: "response";
  created_at: number;
  completed_at: number | null;
  status: ResponseStatus;
  /** Tessera fails a response only for its own reasons (the provider's, or its own): server_error. */
  error: { code: "server_error"; message: string } | null;
  incomplete_details: { reason: IncompleteReason } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  model: string;
  output: OutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  conversation: { id: string } | null;
  /** Reasoning settings are not taken (nor passed on): always nulls. */
  reasoning: { effort: null; summary: null };
  store: boolean;
  background: boolean;
  service_tier: "default";
  temperature: number;
  top_p: number;
  presence_penalty: number;
  frequency_penalty: number;
  top_logprobs: number;
  text: { format: TextFormat; verbosity: "low" | "medium" | "high" };
  /** The request's, as given (validated by schema.ts), or "auto". */
  tool_choice: ToolChoiceIn;
  /** The request's tools as given, hosted ones without their credentials. */
  tools: (FunctionToolOut | HostedToolOut)[];
  truncation: "auto" | "disabled";
  usage: ResponseUsage | null;
  user: string | null;
  safety_identifier: string | null;
  prompt_cache_key: string | null;
  metadata: Record<string, string>;
}
