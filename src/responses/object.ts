// The Response object (pure): the request's settings echoed with the defaults filled in, so that
// every field the client types and the Open Responses schema require holds a value, never null
// where a value is due (temperature, top_p, tool_choice, truncation, service_tier, penalties …).
import type { Usage } from "../chat/types.ts";
import type { CreateBody, ToolIn } from "./schema.ts";
import type { FunctionToolOut, HostedToolOut, IncompleteReason, OutputItem, ResponseObject, ResponseUsage, TextFormat } from "./types.ts";

/** The settings part of a Response: fixed at creation, stored with it. */
export type ResponseSettings = Omit<ResponseObject, "status" | "output" | "usage" | "error" | "incomplete_details" | "completed_at">;

export function settingsOf(body: CreateBody, id: string, createdAt: number, conversationId: string | null): ResponseSettings {
  const format = (body.text?.format ?? { type: "text" }) as TextFormat;
  return {
    id,
    object: "response",
    created_at: createdAt,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: body.max_tool_calls ?? null,
    model: body.model,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    conversation: conversationId ? { id: conversationId } : null,
    reasoning: { effort: null, summary: null },
    store: body.store ?? true,
    background: body.background ?? false,
    service_tier: "default",
    temperature: body.temperature ?? 1,
    top_p: body.top_p ?? 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    top_logprobs: 0,
    text: { format: format.type === "json_schema" ? { description: null, strict: null, ...format } : format, verbosity: body.text?.verbosity ?? "medium" },
    tool_choice: body.tool_choice ?? "auto",
    tools: echoedTools(body),
    truncation: body.truncation ?? "disabled",
    user: body.user ?? null,
    safety_identifier: body.safety_identifier ?? null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    metadata: body.metadata ?? {},
  };
}

/** The request as it may be stored: MCP tools without `authorization` and `headers`. */
export function bodyWithoutCredentials<T extends Pick<CreateBody, "tools">>(body: T): T {
  if (!body.tools?.some((t) => t.type === "mcp")) return body;
  return { ...body, tools: body.tools.map((t) => (t.type === "mcp" ? { ...t, authorization: undefined, headers: undefined } : t)) };
}

/** The application's function tools, as the chat wire's declarations are made from. */
export function functionTools(body: Pick<CreateBody, "tools">): FunctionToolOut[] {
  return (body.tools ?? [])
    .filter((t): t is Extract<ToolIn, { type: "function" }> => t.type === "function")
    .map((t) => ({
      type: "function",
      name: t.name,
      description: t.description ?? null,
      parameters: t.parameters ?? null,
      strict: t.strict ?? null,
    }));
}

/**
 * The tools as the Response shows them. An MCP tool's credentials are left out: `authorization`
 * is dropped and `headers` keeps only the names (values are never stored nor sent back).
 */
function echoedTools(body: Pick<CreateBody, "tools">): (FunctionToolOut | HostedToolOut)[] {
  const fns = functionTools(body);
  let f = 0;
  return (body.tools ?? []).map((t) => {
    if (t.type === "function") return fns[f++]!;
    if (t.type === "mcp") {
      const { authorization: _a, headers, ...rest } = t;
      return { ...rest, headers: headers ? Object.fromEntries(Object.keys(headers).map((k) => [k, "[redacted]" as const])) : null };
    }
    return { ...t };
  });
}

export interface ResponseState {
  status: ResponseObject["status"];
  output: OutputItem[];
  usage?: Usage | null;
  error?: ResponseObject["error"];
  incompleteReason?: IncompleteReason | null;
  completedAt?: number | null;
}

export function responseObject(settings: ResponseSettings, s: ResponseState): ResponseObject {
  return {
    ...settings,
    status: s.status,
    completed_at: s.completedAt ?? null,
    error: s.error ?? null,
    incomplete_details: s.incompleteReason ? { reason: s.incompleteReason } : null,
    output: s.output,
    usage: s.usage ? responseUsage(s.usage) : null,
  };
}

export function responseUsage(u: Usage): ResponseUsage {
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.total_tokens ?? u.prompt_tokens + u.completion_tokens,
  };
}
