// anthropic/… → the Anthropic Messages API (POST /v1/messages).
// System and developer turns go to the top-level `system`; tool calls become tool_use blocks and
// tool messages tool_result blocks in a user turn; neighbouring turns of one role are merged.

import * as v from "valibot";
import { checked, knownTags, streamEvent, Tagged } from "./checked.ts";
import { openAIErrorMessage, trimSlash } from "./openai-compatible.ts";
import { callId, chunkOf, fileData, jsonInstruction, mergeSameRole, parseArguments, parseDataUrl, partsOf, systemText, usage } from "./translate.ts";
import {
  ProviderError,
  UnsupportedRequestError,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatRequest,
  type FinishReason,
  type ProviderAdapter,
  type SseEvent,
  type StreamOptions,
  type ToolCall,
} from "./types.ts";

export const ANTHROPIC_VERSION = "2023-06-01";
/** The Messages API requires max_tokens; chat completions does not. */
export const DEFAULT_MAX_TOKENS = 4096;

type Block = Record<string, unknown>;

export const anthropic: ProviderAdapter = {
  name: "anthropic",
  keyEnv: "ANTHROPIC_API_KEY",
  baseUrlEnv: "ANTHROPIC_BASE_URL",
  defaultBaseUrl: "https://api.anthropic.com",
  toRequest(req, target, stream) {
    const body: Record<string, unknown> = {
      model: target.model,
      max_tokens: req.max_completion_tokens ?? req.max_tokens ?? DEFAULT_MAX_TOKENS,
      messages: toMessages(req),
    };
    const system = [systemText(req.messages), jsonInstruction(req.response_format)].filter(Boolean).join("\n\n");
    if (system) body.system = system;
    if (req.temperature !== undefined) body.temperature = req.temperature;
    if (req.top_p !== undefined) body.top_p = req.top_p;
    if (req.stop !== undefined) body.stop_sequences = Array.isArray(req.stop) ? req.stop : [req.stop];
    if (req.user !== undefined) body.metadata = { user_id: req.user };
    if (req.tools?.length) {
      body.tools = req.tools.map((t) => ({
        name: t.function.name,
        ...(t.function.description ? { description: t.function.description } : {}),
        input_schema: t.function.parameters ?? { type: "object", properties: {} },
      }));
    }
    const choice = toToolChoice(req);
    if (choice) body.tool_choice = choice;
    if (stream) body.stream = true;
    const headers: Record<string, string> = { "anthropic-version": ANTHROPIC_VERSION };
    if (target.apiKey) headers["x-api-key"] = target.apiKey;
    return { url: `${trimSlash(target.baseUrl)}/v1/messages`, headers, body };
  },
  fromResponse,
  fromStream,
  errorMessage: openAIErrorMessage,
};

function toToolChoice(req: ChatRequest): Block | null {
  const tc = req.tool_choice;
  const noParallel = req.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (tc === undefined) return req.tools?.length && req.parallel_tool_calls === false ? { type: "auto", ...noParallel } : null;
  if (tc === "none") return { type: "none" };
  if (tc === "auto") return { type: "auto", ...noParallel };
  if (tc === "required") return { type: "any", ...noParallel };
  return { type: "tool", name: tc.function.name, ...noParallel };
}

function toMessages(req: ChatRequest): { role: string; content: Block[] }[] {
  const turns: { role: string; parts: Block[] }[] = [];
  for (const m of req.messages) {
    if (m.role === "system" || m.role === "developer") continue;
    if (m.role === "tool") {
      turns.push({ role: "user", parts: [{ type: "tool_result", tool_use_id: m.tool_call_id ?? "", content: toolResultContent(m.content) }] });
      continue;
    }
    const parts: Block[] = [];
    // The Messages API refuses empty text blocks.
    for (const p of partsOf(m.content)) if (!(p.type === "text" && (p as Block).text === "")) parts.push(toBlock(p as Block));
    if (m.role === "assistant") {
      for (const c of m.tool_calls ?? []) {
        parts.push({ type: "tool_use", id: c.id, name: c.function.name, input: parseArguments(c.function.arguments, c.function.name) });
      }
    }
    if (parts.length) turns.push({ role: m.role, parts });
  }
  return mergeSameRole(turns).map((t) => ({ role: t.role, content: t.parts }));
}

function toolResultContent(content: ChatRequest["messages"][number]["content"]): string | Block[] {
  if (typeof content === "string" || content == null) return content ?? "";
  return content.map((p) => toBlock(p as Block));
}

function toBlock(p: Block): Block {
  if (p.type === "text") return { type: "text", text: String(p.text) };
  if (p.type === "image_url") {
    const url = String((p.image_url as { url: string }).url);
    const data = parseDataUrl(url);
    return data ? { type: "image", source: { type: "base64", media_type: data.mediaType, data: data.data } } : { type: "image", source: { type: "url", url } };
  }
  if (p.type === "file") {
    const doc = fileData(p);
    // The Messages API reads PDFs (and plain text) as document blocks.
    if (doc && DOCUMENT_TYPES.has(doc.mediaType)) return { type: "document", source: { type: "base64", media_type: doc.mediaType, data: doc.data } };
    throw new UnsupportedRequestError(`anthropic takes files only as base64 PDF or plain text (data: URLs in file_data)`, "messages");
  }
  throw new UnsupportedRequestError(`content part type "${String(p.type)}" cannot be sent to anthropic`, "messages");
}

const DOCUMENT_TYPES = new Set(["application/pdf", "text/plain"]);

const STOP: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};
export function finishReason(r: string | null | undefined): FinishReason | null {
  return r ? (STOP[r] ?? "stop") : null;
}

// The Messages API's answer and stream events, as far as they are read here.
const Count = v.optional(v.nullable(v.number()));
const Usage = v.looseObject({ input_tokens: Count, output_tokens: Count, cache_creation_input_tokens: Count, cache_read_input_tokens: Count });
type AnthropicUsage = v.InferInput<typeof Usage>;
// thinking and other block types have no place in a chat completion: left unread.
const contentBlock = knownTags(
  v.variant("type", [
    v.looseObject({ type: v.literal("text"), text: v.string() }),
    v.looseObject({ type: v.literal("tool_use"), id: v.string(), name: v.string(), input: v.optional(v.unknown()) }),
  ]),
);
const Message = v.looseObject({
  id: v.optional(v.string()),
  content: v.array(Tagged),
  stop_reason: v.optional(v.nullable(v.string())),
  usage: v.optional(Usage),
});
const delta = knownTags(
  v.variant("type", [
    v.looseObject({ type: v.literal("text_delta"), text: v.string() }),
    v.looseObject({ type: v.literal("input_json_delta"), partial_json: v.string() }),
  ]),
);
// ping, content_block_stop and any later addition: nothing to pass on.
const streamEventOf = knownTags(
  v.variant("type", [
    v.looseObject({ type: v.literal("message_start"), message: v.looseObject({ usage: v.optional(Usage) }) }),
    v.looseObject({ type: v.literal("content_block_start"), index: v.number(), content_block: Tagged }),
    v.looseObject({ type: v.literal("content_block_delta"), index: v.number(), delta: Tagged }),
    v.looseObject({ type: v.literal("message_delta"), delta: v.looseObject({ stop_reason: v.optional(v.nullable(v.string())) }), usage: v.optional(Usage) }),
    v.looseObject({ type: v.literal("message_stop") }),
    v.looseObject({ type: v.literal("error"), error: v.optional(v.looseObject({ type: v.optional(v.string()), message: v.optional(v.string()) })) }),
  ]),
);

const inputTokens = (u: AnthropicUsage | undefined) => (u?.input_tokens ?? 0) + (u?.cache_creation_input_tokens ?? 0) + (u?.cache_read_input_tokens ?? 0);

function fromResponse(body: unknown, model: string): ChatCompletion {
  if (!body || !Array.isArray((body as { content?: unknown }).content)) throw new ProviderError("anthropic answered without content", 502, 200);
  const b = checked(Message, body, "anthropic answered", 200);
  let text = "";
  const calls: ToolCall[] = [];
  for (const raw of b.content) {
    const block = contentBlock(raw, "anthropic answered a content block", 200);
    if (block?.type === "text") text += block.text;
    else if (block?.type === "tool_use") {
      calls.push({ id: block.id || callId(), type: "function", function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    }
  }
  return {
    id: b.id ?? `chatcmpl-${crypto.randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: text === "" && calls.length ? null : text, ...(calls.length ? { tool_calls: calls } : {}) },
        finish_reason: finishReason(b.stop_reason) ?? "stop",
        logprobs: null,
      },
    ],
    usage: usage(inputTokens(b.usage), b.usage?.output_tokens ?? 0),
  };
}

async function* fromStream(events: AsyncIterable<SseEvent>, opts: StreamOptions): AsyncGenerator<ChatCompletionChunk> {
  let prompt = 0,
    completion = 0;
  let nextTool = 0;
  const toolIndex = new Map<number, number>(); // content block index → tool call index
  let stopped = false;
  for await (const ev of events) {
    const data = streamEventOf(streamEvent(Tagged, ev.data, "anthropic"), "anthropic sent a stream event", null);
    switch (data?.type) {
      case "message_start": {
        prompt = inputTokens(data.message.usage);
        completion = data.message.usage?.output_tokens ?? 0;
        yield chunkOf(opts, { role: "assistant", content: "" });
        break;
      }
      case "content_block_start": {
        const block = contentBlock(data.content_block, "anthropic sent a content block", null);
        if (block?.type === "tool_use") {
          const i = nextTool++;
          toolIndex.set(data.index, i);
          yield chunkOf(opts, { tool_calls: [{ index: i, id: block.id, type: "function", function: { name: block.name, arguments: "" } }] });
        } else if (block?.type === "text" && block.text) {
          yield chunkOf(opts, { content: block.text });
        }
        break;
      }
      case "content_block_delta": {
        const d = delta(data.delta, "anthropic sent a content delta", null);
        if (d?.type === "text_delta") yield chunkOf(opts, { content: d.text });
        else if (d?.type === "input_json_delta") {
          const i = toolIndex.get(data.index);
          if (i !== undefined && d.partial_json) yield chunkOf(opts, { tool_calls: [{ index: i, function: { arguments: d.partial_json } }] });
        }
        break;
      }
      case "message_delta": {
        const u = data.usage;
        if (u?.output_tokens != null) completion = u.output_tokens;
        if (u?.input_tokens != null) prompt = inputTokens(u);
        const reason = finishReason(data.delta.stop_reason);
        if (reason) yield chunkOf(opts, {}, reason);
        break;
      }
      case "message_stop":
        stopped = true;
        yield { id: opts.id, object: "chat.completion.chunk", created: opts.created, model: opts.model, choices: [], usage: usage(prompt, completion) };
        return;
      case "error":
        throw new ProviderError(`anthropic stream failed: ${data.error?.message ?? data.error?.type ?? "unknown error"}`, 502, null);
      default: // ping, content_block_stop, thinking: nothing to pass on
    }
  }
  if (!stopped) throw new ProviderError("anthropic stream ended before message_stop", 502, null);
}
