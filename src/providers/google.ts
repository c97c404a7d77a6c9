// google/… → Gemini generateContent / streamGenerateContent?alt=sse.
// Roles become user/model, system and developer turns go to systemInstruction, tool calls become
// functionCall parts and tool messages functionResponse parts (named after the call they answer).

import * as v from "valibot";
import { checked, streamEvent } from "./checked.ts";
import { openAIErrorMessage, trimSlash } from "./openai-compatible.ts";
import { callId, chunkOf, fileData, mergeSameRole, parseArguments, parseDataUrl, partsOf, systemText, textOf, usage } from "./translate.ts";
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
  type Usage,
} from "./types.ts";

type Part = Record<string, unknown>;

export const google: ProviderAdapter = {
  name: "google",
  keyEnv: "GEMINI_API_KEY",
  baseUrlEnv: "GEMINI_BASE_URL",
  defaultBaseUrl: "https://generativelanguage.googleapis.com",
  toRequest(req, target, stream) {
    const body: Record<string, unknown> = { contents: toContents(req) };
    const system = systemText(req.messages);
    if (system) body.systemInstruction = { parts: [{ text: system }] };
    if (req.tools?.length) {
      body.tools = [
        {
          functionDeclarations: req.tools.map((t) => ({
            name: t.function.name,
            ...(t.function.description ? { description: t.function.description } : {}),
            // parametersJsonSchema takes full JSON Schema; `parameters` only an OpenAPI subset.
            ...(t.function.parameters ? { parametersJsonSchema: t.function.parameters } : {}),
          })),
        },
      ];
    }
    const toolConfig = toToolConfig(req);
    if (toolConfig) body.toolConfig = toolConfig;
    const gen = generationConfig(req);
    if (Object.keys(gen).length) body.generationConfig = gen;
    const model = encodeURIComponent(target.model);
    const url = `${trimSlash(target.baseUrl)}/v1beta/models/${model}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`;
    const headers: Record<string, string> = {};
    if (target.apiKey) headers["x-goog-api-key"] = target.apiKey;
    return { url, headers, body };
  },
  fromResponse,
  fromStream,
  errorMessage: openAIErrorMessage,
};

function generationConfig(req: ChatRequest): Record<string, unknown> {
  const g: Record<string, unknown> = {};
  if (req.temperature !== undefined) g.temperature = req.temperature;
  if (req.top_p !== undefined) g.topP = req.top_p;
  const max = req.max_completion_tokens ?? req.max_tokens;
  if (max !== undefined) g.maxOutputTokens = max;
  if (req.stop !== undefined) g.stopSequences = Array.isArray(req.stop) ? req.stop : [req.stop];
  if (req.seed !== undefined) g.seed = req.seed;
  const rf = req.response_format;
  if (rf?.type === "json_object") g.responseMimeType = "application/json";
  if (rf?.type === "json_schema") {
    g.responseMimeType = "application/json";
    if (rf.json_schema.schema) g.responseJsonSchema = rf.json_schema.schema;
  }
  return g;
}

function toToolConfig(req: ChatRequest): Record<string, unknown> | null {
  const tc = req.tool_choice;
  if (tc === undefined) return null;
  if (tc === "none") return { functionCallingConfig: { mode: "NONE" } };
  if (tc === "auto") return { functionCallingConfig: { mode: "AUTO" } };
  if (tc === "required") return { functionCallingConfig: { mode: "ANY" } };
  return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [tc.function.name] } };
}

function toContents(req: ChatRequest): { role: string; parts: Part[] }[] {
  // functionResponse needs the function's name; chat completions only carries the call id.
  const nameOfCall = new Map<string, string>();
  const turns: { role: string; parts: Part[] }[] = [];
  for (const m of req.messages) {
    if (m.role === "system" || m.role === "developer") continue;
    if (m.role === "tool") {
      const name = nameOfCall.get(m.tool_call_id ?? "");
      if (!name) throw new UnsupportedRequestError(`tool message answers unknown tool_call_id "${m.tool_call_id ?? ""}"`, "messages");
      turns.push({ role: "user", parts: [{ functionResponse: { name, response: toolResponse(textOf(m.content)) } }] });
      continue;
    }
    const parts: Part[] = [];
    for (const p of partsOf(m.content)) {
      const part = toPart(p as Part);
      if (part) parts.push(part);
    }
    if (m.role === "assistant") {
      for (const c of m.tool_calls ?? []) {
        nameOfCall.set(c.id, c.function.name);
        parts.push({ functionCall: { name: c.function.name, args: parseArguments(c.function.arguments, c.function.name) } });
      }
    }
    if (parts.length) turns.push({ role: m.role === "assistant" ? "model" : "user", parts });
  }
  return mergeSameRole(turns);
}

/** Gemini wants an object; a tool's JSON object result goes as is, anything else under `result`. */
function toolResponse(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    if (v && typeof v === "object" && !Array.isArray(v)) return v;
    return { result: v };
  } catch {
    return { result: text };
  }
}

function toPart(p: Part): Part | null {
  if (p.type === "text") return p.text === "" ? null : { text: String(p.text) };
  if (p.type === "image_url") {
    const url = String((p.image_url as { url: string }).url);
    const data = parseDataUrl(url);
    if (!data) throw new UnsupportedRequestError("google takes images only as data: URLs (base64)", "messages");
    return { inlineData: { mimeType: data.mediaType, data: data.data } };
  }
  if (p.type === "file") {
    const doc = fileData(p);
    if (!doc) throw new UnsupportedRequestError("google takes files only as base64 data: URLs in file_data", "messages");
    return { inlineData: { mimeType: doc.mediaType, data: doc.data } };
  }
  throw new UnsupportedRequestError(`content part type "${String(p.type)}" cannot be sent to google`, "messages");
}

const FILTERED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"]);
export function finishReason(r: string | undefined, hasCalls: boolean): FinishReason | null {
  if (!r) return null;
  if (r === "MAX_TOKENS") return "length";
  if (FILTERED.has(r)) return "content_filter";
  return hasCalls ? "tool_calls" : "stop";
}

// generateContent's answer (each stream event is one too): untagged, the fields read here checked.
const Count = v.optional(v.number());
const GeminiPart = v.looseObject({
  text: v.optional(v.string()),
  thought: v.optional(v.unknown()),
  functionCall: v.optional(v.looseObject({ id: v.optional(v.string()), name: v.string(), args: v.optional(v.unknown()) })),
});
const GeminiAnswer = v.looseObject({
  candidates: v.optional(
    v.array(v.looseObject({ content: v.optional(v.looseObject({ parts: v.optional(v.array(GeminiPart)) })), finishReason: v.optional(v.string()) })),
  ),
  promptFeedback: v.optional(v.looseObject({ blockReason: v.optional(v.string()) })),
  usageMetadata: v.optional(v.looseObject({ promptTokenCount: Count, candidatesTokenCount: Count, thoughtsTokenCount: Count, totalTokenCount: Count })),
  responseId: v.optional(v.string()),
  error: v.optional(v.looseObject({ message: v.optional(v.string()) })),
});
type GeminiAnswer = v.InferInput<typeof GeminiAnswer>;

function usageOf(u: GeminiAnswer["usageMetadata"]): Usage {
  return usage(u?.promptTokenCount ?? 0, (u?.candidatesTokenCount ?? 0) + (u?.thoughtsTokenCount ?? 0));
}

/** Text and calls of the first candidate; thought parts are left out. */
function readParts(parts: v.InferInput<typeof GeminiPart>[] | undefined): { text: string; calls: ToolCall[] } {
  let text = "";
  const calls: ToolCall[] = [];
  for (const p of parts ?? []) {
    if (p.thought) continue;
    if (p.text !== undefined) text += p.text;
    const fc = p.functionCall;
    if (fc) calls.push({ id: fc.id ?? callId(), type: "function", function: { name: fc.name, arguments: JSON.stringify(fc.args ?? {}) } });
  }
  return { text, calls };
}

function fromResponse(body: unknown, model: string): ChatCompletion {
  if (!body || typeof body !== "object") throw new ProviderError("google answered with an empty body", 502, 200);
  const b = checked(GeminiAnswer, body, "google answered", 200);
  const cand = b.candidates?.[0];
  const { text, calls } = readParts(cand?.content?.parts);
  const blocked = !cand && b.promptFeedback?.blockReason;
  return {
    id: `chatcmpl-${b.responseId ?? crypto.randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: text === "" && (calls.length || blocked) ? null : text, ...(calls.length ? { tool_calls: calls } : {}) },
        finish_reason: blocked ? "content_filter" : (finishReason(cand?.finishReason, calls.length > 0) ?? "stop"),
        logprobs: null,
      },
    ],
    usage: usageOf(b.usageMetadata),
  };
}

async function* fromStream(events: AsyncIterable<SseEvent>, opts: StreamOptions): AsyncGenerator<ChatCompletionChunk> {
  let first = true;
  let nextTool = 0;
  let finished = false;
  let last: GeminiAnswer["usageMetadata"];
  for await (const ev of events) {
    const b = streamEvent(GeminiAnswer, ev.data, "google");
    if (b.error) throw new ProviderError(`google stream failed: ${b.error.message ?? "unknown error"}`, 502, null);
    if (b.usageMetadata) last = b.usageMetadata;
    if (first) {
      first = false;
      yield chunkOf(opts, { role: "assistant", content: "" });
    }
    const cand = b.candidates?.[0];
    const { text, calls } = readParts(cand?.content?.parts);
    if (text) yield chunkOf(opts, { content: text });
    // Gemini sends each call whole, never in pieces.
    if (calls.length) {
      yield chunkOf(opts, { tool_calls: calls.map((c) => ({ index: nextTool++, id: c.id, type: "function", function: c.function })) });
    }
    const reason = !cand && b.promptFeedback?.blockReason ? "content_filter" : finishReason(cand?.finishReason, nextTool > 0);
    if (reason && !finished) {
      finished = true;
      yield chunkOf(opts, {}, reason);
    }
  }
  if (!finished) throw new ProviderError("google stream ended before a finishReason", 502, null);
  yield { id: opts.id, object: "chat.completion.chunk", created: opts.created, model: opts.model, choices: [], usage: usageOf(last) };
}
