// The Responses wire's shapes, as Tessera stores and sends them (OpenAI's Responses API).
// Items are plain JSON objects; only the fields the bridge reads are typed.

export type ItemStatus = "in_progress" | "completed" | "incomplete";

export interface InputTextPart { type: "input_text"; text: string }
export interface OutputTextPart { type: "output_text"; text: string; annotations: unknown[]; logprobs: unknown[] }
export interface InputImagePart { type: "input_image"; image_url?: string | null; file_id?: string | null; detail?: string }
export interface InputFilePart { type: "input_file"; file_data?: string; file_url?: string; file_id?: string; filename?: string }
export interface RefusalPart { type: "refusal"; refusal: string }
export type ContentPart = InputTextPart | OutputTextPart | InputImagePart | InputFilePart | RefusalPart | { type: "text"; text: string };

export interface MessageItem {
  type: "message";
  id: string;
  role: "user" | "assistant" | "system" | "developer";
  status: ItemStatus;
  content: ContentPart[];
  phase?: "commentary" | "final_answer";
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

export interface ReasoningItem { type: "reasoning"; id: string; summary: unknown[]; status?: ItemStatus }
export interface CompactionItem { type: "compaction"; id: string; encrypted_content: string }

/** An item as stored: every one has an id. */
export type Item = MessageItem | FunctionCallItem | FunctionCallOutputItem | ReasoningItem | CompactionItem;
export type OutputItem = MessageItem | FunctionCallItem;

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponseStatus = "queued" | "in_progress" | "completed" | "failed" | "incomplete" | "cancelled";

export interface FunctionToolOut { type: "function"; name: string; description: string | null; parameters: Record<string, unknown> | null; strict: boolean | null }

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
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  model: string;
  output: OutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  conversation: { id: string } | null;
  reasoning: { effort: string | null; summary: string | null };
  store: boolean;
  background: boolean;
  service_tier: string;
  temperature: number;
  top_p: number;
  presence_penalty: number;
  frequency_penalty: number;
  top_logprobs: number;
  text: { format: TextFormat; verbosity: "low" | "medium" | "high" };
  tool_choice: unknown;
  tools: FunctionToolOut[];
  truncation: "auto" | "disabled";
  usage: ResponseUsage | null;
  user: string | null;
  safety_identifier: string | null;
  prompt_cache_key: string | null;
  metadata: Record<string, string>;
}

/** A stream event before its sequence number is given. */
export type ResponseEvent = { type: string } & Record<string, unknown>;
