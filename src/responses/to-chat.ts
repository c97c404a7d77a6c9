// Responses input → a chat-completions request for the provider adapters (pure).
// `previous_response_id` and `conversation` arrive here already resolved into `history`;
// the order is the Open Responses rule: earlier input, earlier output, then the new input.
import {
  UnsupportedRequestError,
  type ChatMessage,
  type ChatRequest,
  type ContentPart as ChatPart,
  type FunctionTool,
  type ToolChoice,
} from "../chat/types.ts";
import { IMAGE_SEARCH_FUNCTION, imageSearchText, mcpFunctionName, mcpResultText, WEB_SEARCH_FUNCTION, webSearchText } from "./hosted.ts";
import { newId } from "./ids.ts";
import type { InputItemIn, ToolChoiceIn } from "./schema.ts";
import type { ContentPart, FunctionToolOut, Item, McpApprovalRequestItem, McpApprovalResponseItem, McpCallItem, TextFormat } from "./types.ts";

/** An input item once it has an id; item references are left for the caller to resolve. */
export type NormalizedInput = Item | { type: "item_reference"; id: string };

/** A string is one user message; every item gets an id (the client's own, when it sent one). */
export function normalizeInput(input: string | InputItemIn[] | undefined): NormalizedInput[] {
  if (input === undefined) return [];
  if (typeof input === "string") {
    return [{ type: "message", id: newId("message"), role: "user", status: "completed", content: [{ type: "input_text", text: input }] }];
  }
  return input.map((raw): NormalizedInput => {
    const it = raw as Record<string, unknown> & { type?: string };
    const type = it.type ?? (it.role !== undefined ? "message" : "item_reference");
    switch (type) {
      case "message": {
        const m = it as {
          id?: string;
          role: "user" | "assistant" | "system" | "developer";
          content: string | ContentPart[];
          phase?: "commentary" | "final_answer" | null;
        };
        const textType = m.role === "assistant" ? "output_text" : "input_text";
        const content: ContentPart[] =
          typeof m.content === "string"
            ? [textType === "output_text" ? { type: "output_text", text: m.content, annotations: [], logprobs: [] } : { type: "input_text", text: m.content }]
            : m.content.map((p) => (p.type === "output_text" ? { annotations: [], logprobs: [], ...(p as object) } : p) as ContentPart);
        return { type: "message", id: m.id ?? newId("message"), role: m.role, status: "completed", content, ...(m.phase ? { phase: m.phase } : {}) };
      }
      case "function_call": {
        const f = it as unknown as { id?: string; call_id: string; name: string; arguments: string };
        return { type: "function_call", id: f.id ?? newId("functionCall"), call_id: f.call_id, name: f.name, arguments: f.arguments, status: "completed" };
      }
      case "function_call_output": {
        const f = it as unknown as { id?: string; call_id: string; output: string | ContentPart[] };
        return { type: "function_call_output", id: f.id ?? newId("functionCallOutput"), call_id: f.call_id, output: f.output, status: "completed" };
      }
      case "reasoning":
        return { type: "reasoning", id: (it.id as string | undefined) ?? newId("reasoning"), summary: (it.summary as unknown[] | undefined) ?? [] };
      case "compaction":
        return { type: "compaction", id: (it.id as string | undefined) ?? newId("compaction"), encrypted_content: it.encrypted_content as string };
      case "mcp_approval_response": {
        const a = it as unknown as { id?: string | null; approval_request_id: string; approve: boolean; reason?: string | null };
        return {
          type: "mcp_approval_response",
          id: a.id ?? newId("mcpApprovalResponse"),
          approval_request_id: a.approval_request_id,
          approve: a.approve,
          reason: a.reason ?? null,
        };
      }
      case "mcp_call":
        return { output: null, error: null, status: "completed", ...(it as object) } as Item;
      case "mcp_approval_request":
      case "mcp_list_tools":
        return it as unknown as Item;
      case "web_search_call":
        return { status: "completed", ...(it as object), action: { type: "search", query: "", ...(it.action as object | undefined) } } as unknown as Item;
      case "image_search_call":
        return {
          status: "completed",
          results: [],
          ...(it as object),
          action: { type: "search", query: "", ...(it.action as object | undefined) },
        } as unknown as Item;
      default:
        return { type: "item_reference", id: it.id as string };
    }
  });
}

export interface ChatOptions {
  model: string;
  instructions?: string | null;
  tools?: FunctionToolOut[];
  toolChoice?: ToolChoiceIn;
  parallelToolCalls?: boolean | null;
  temperature?: number | null;
  topP?: number | null;
  maxOutputTokens?: number | null;
  format?: TextFormat;
  user?: string | null;
  /** The text a compaction item stands for (the caller opens its sealed content). */
  summaryOf: (item: Extract<Item, { type: "compaction" }>) => string;
  /** What the model was told of a hosted call of this turn (fuller than its item keeps), by item id. */
  resultText?: (id: string) => string | undefined;
}

/** Every item (history then new input) as chat messages, plus the request's parameters. */
export function toChatRequest(items: Item[], opts: ChatOptions): ChatRequest {
  const messages: ChatMessage[] = [];
  if (opts.instructions) messages.push({ role: "system", content: opts.instructions });
  const calls = new Set<string>();
  const hosted = hostedLinks(items);
  const resultOf = (id: string, fallback: () => string) => opts.resultText?.(id) ?? fallback();
  /** A hosted call: the model's tool call and, right after it, what came of it (as one exchange). */
  const exchange = (id: string, name: string, args: string, result: string) => {
    const call = { id, type: "function" as const, function: { name, arguments: args } };
    const last = messages[messages.length - 1];
    // Text the model wrote before the call is the same assistant turn, as on the chat wire.
    if (last?.role === "assistant") (last.tool_calls ??= []).push(call);
    else messages.push({ role: "assistant", content: null, tool_calls: [call] });
    messages.push({ role: "tool", tool_call_id: id, content: result });
  };
  items.forEach((item, i) => {
    switch (item.type) {
      case "mcp_call":
        if (item.approval_request_id && hosted.requests.has(item.approval_request_id)) break; // told with its request
        exchange(
          item.id,
          mcpFunctionName(item.server_label, item.name),
          item.arguments,
          resultOf(item.id, () => mcpResultText(item)),
        );
        break;
      case "mcp_approval_request":
        exchange(item.id, mcpFunctionName(item.server_label, item.name), item.arguments, approvalOutcome(item, hosted, opts.resultText));
        break;
      case "web_search_call":
        exchange(
          item.id,
          WEB_SEARCH_FUNCTION,
          JSON.stringify({ query: item.action.query }),
          resultOf(item.id, () => webSearchText(item)),
        );
        break;
      case "image_search_call":
        exchange(
          item.id,
          IMAGE_SEARCH_FUNCTION,
          JSON.stringify({ query: item.action.query }),
          resultOf(item.id, () => imageSearchText(item)),
        );
        break;
      case "mcp_list_tools":
      case "mcp_approval_response":
        break; // the tools are declared; an answer to an approval is told with its request
      case "message": {
        if (item.role === "assistant") {
          messages.push({ role: "assistant", content: partsText(item.content) });
        } else if (item.role === "user") {
          messages.push({ role: "user", content: item.content.map((p, j) => userPart(p, `input[${i}].content[${j}]`)) });
        } else {
          messages.push({ role: item.role, content: partsText(item.content) });
        }
        break;
      }
      case "function_call": {
        calls.add(item.call_id);
        const call = { id: item.call_id, type: "function" as const, function: { name: item.name, arguments: item.arguments } };
        const last = messages[messages.length - 1];
        // Parallel calls are one assistant turn on the chat wire.
        if (last?.role === "assistant") (last.tool_calls ??= []).push(call);
        else messages.push({ role: "assistant", content: null, tool_calls: [call] });
        break;
      }
      case "function_call_output":
        if (!calls.has(item.call_id)) {
          throw new UnsupportedRequestError(`No tool call found for function call output with call_id ${item.call_id}`, "input");
        }
        messages.push({ role: "tool", tool_call_id: item.call_id, content: typeof item.output === "string" ? item.output : partsText(item.output) });
        break;
      case "compaction":
        messages.push({ role: "system", content: `Summary of the conversation so far:\n${opts.summaryOf(item)}` });
        break;
      case "reasoning":
        break; // the chat wire has no place for another model's reasoning
    }
  });
  const req: ChatRequest = { model: opts.model, messages, stream: true, stream_options: { include_usage: true } };
  const tools = toolsFor(opts.tools ?? [], opts.toolChoice);
  if (tools.tools.length) req.tools = tools.tools;
  if (tools.choice !== undefined) req.tool_choice = tools.choice;
  if (opts.parallelToolCalls != null && tools.tools.length) req.parallel_tool_calls = opts.parallelToolCalls;
  if (opts.temperature != null) req.temperature = opts.temperature;
  if (opts.topP != null) req.top_p = opts.topP;
  if (opts.maxOutputTokens != null) req.max_completion_tokens = opts.maxOutputTokens;
  if (opts.user) req.user = opts.user;
  if (opts.format && opts.format.type !== "text") {
    req.response_format =
      opts.format.type === "json_object"
        ? { type: "json_object" }
        : {
            type: "json_schema",
            json_schema: {
              name: opts.format.name,
              schema: opts.format.schema,
              ...(opts.format.description ? { description: opts.format.description } : {}),
              strict: opts.format.strict ?? null,
            },
          };
  }
  return req;
}

function partsText(parts: ContentPart[]): string {
  return parts.map((p) => ("text" in p ? p.text : p.type === "refusal" ? p.refusal : "")).join("");
}

function userPart(p: ContentPart, param: string): ChatPart {
  switch (p.type) {
    case "input_text":
    case "output_text":
    case "text":
      return { type: "text", text: p.text };
    case "refusal":
      return { type: "text", text: p.refusal };
    case "input_image":
      if (!p.image_url)
        throw new UnsupportedRequestError("input_image needs image_url (a data: or http(s) URL): there is no file store to take a file_id from", param);
      return { type: "image_url", image_url: { url: p.image_url, ...(p.detail ? { detail: p.detail } : {}) } };
    case "input_file": {
      if (p.file_data) {
        const data = p.file_data.startsWith("data:") ? p.file_data : `data:application/pdf;base64,${p.file_data}`;
        return { type: "file", file: { file_data: data, filename: p.filename ?? "file.pdf" } };
      }
      throw new UnsupportedRequestError("input_file needs file_data (base64): file_id and file_url are not supported", param);
    }
  }
}

/** Approval requests of these items, and what answered each (a response, the call it allowed). */
function hostedLinks(items: Item[]) {
  const requests = new Set<string>();
  const responses = new Map<string, McpApprovalResponseItem>();
  const calls = new Map<string, McpCallItem>();
  for (const item of items) {
    if (item.type === "mcp_approval_request") requests.add(item.id);
    else if (item.type === "mcp_approval_response") responses.set(item.approval_request_id, item);
    else if (item.type === "mcp_call" && item.approval_request_id) calls.set(item.approval_request_id, item);
  }
  return { requests, responses, calls };
}

/**
 * What the model is told of a call that waited for approval: its result once approved and run,
 * the refusal (with the user's reason), or that no answer came (the conversation went on).
 */
function approvalOutcome(req: McpApprovalRequestItem, links: ReturnType<typeof hostedLinks>, resultText?: (id: string) => string | undefined): string {
  const call = links.calls.get(req.id);
  if (call) return resultText?.(call.id) ?? mcpResultText(call);
  const answer = links.responses.get(req.id);
  if (answer && !answer.approve) return `The user refused this call${answer.reason ? `: ${answer.reason}` : "."} Do not try it again unless asked.`;
  if (answer) return "The user approved this call, but it was not run.";
  return "This call needed the user's approval and none was given: it was not run.";
}

/** Function tools on the chat wire; allowed_tools narrows the list and keeps its mode. */
function toolsFor(tools: FunctionToolOut[], choice: ToolChoiceIn | undefined): { tools: FunctionTool[]; choice?: ToolChoice } {
  let list = tools;
  let out: ToolChoice | undefined;
  if (typeof choice === "string") out = choice;
  else if (choice) {
    switch (choice.type) {
      case "function":
        out = { type: "function", function: { name: choice.name } };
        break;
      case "mcp":
        out = choice.name ? { type: "function", function: { name: mcpFunctionName(choice.server_label, choice.name) } } : "required";
        break;
      case "image_search":
        out = { type: "function", function: { name: IMAGE_SEARCH_FUNCTION } };
        break;
      case "allowed_tools": {
        const allowed = new Set(choice.tools.map((t) => t.name));
        list = tools.filter((t) => allowed.has(t.name));
        out = choice.mode;
        break;
      }
      default: // web_search, its dated and preview aliases
        out = { type: "function", function: { name: WEB_SEARCH_FUNCTION } };
    }
  }
  return {
    tools: list.map((t) => ({
      type: "function",
      function: {
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        ...(t.parameters ? { parameters: t.parameters } : {}),
        ...(t.strict != null ? { strict: t.strict } : {}),
      },
    })),
    choice: out,
  };
}
