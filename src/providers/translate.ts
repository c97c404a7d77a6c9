// Small pieces shared by the adapters that do not speak the OpenAI wire (Anthropic, Gemini).

import { UnsupportedRequestError, type ChatMessage, type ContentPart, type FinishReason, type Usage } from "./types.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../client/json-depth.ts";

/** All text of a message's content; non-text parts are the caller's business. */
export function textOf(content: ChatMessage["content"]): string {
  if (content == null) return "";
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" ? String((p as { text: string }).text) : "")).join("");
}

export function partsOf(content: ChatMessage["content"]): ContentPart[] {
  if (content == null) return [];
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  return content;
}

/** `data:image/png;base64,AAAA` → its media type and base64 payload. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | null {
  const m = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  return m ? { mediaType: m[1]!, data: m[2]! } : null;
}

/** A chat `file` part's base64 document (a data: URL); null when it carries none. */
export function fileData(part: { file?: unknown }): { mediaType: string; data: string } | null {
  const f = part.file as { file_data?: unknown } | undefined;
  return typeof f?.file_data === "string" ? parseDataUrl(f.file_data) : null;
}

export function parseArguments(args: string, name: string): Record<string, unknown> {
  if (args.trim() === "") return {};
  if (nestsDeeperThan(args)) {
    throw new UnsupportedRequestError(`arguments of tool call "${name}" nest arrays and objects more than ${MAX_JSON_DEPTH} deep`, "messages");
  }
  try {
    const v = JSON.parse(args);
    if (v && typeof v === "object" && !Array.isArray(v)) return v;
  } catch {
    /* reported below */
  }
  throw new UnsupportedRequestError(`arguments of tool call "${name}" must be a JSON object`, "messages");
}

/** Joins neighbours with the same role: both providers want strictly alternating turns. */
export function mergeSameRole<T extends { role: string; parts: unknown[] }>(turns: T[]): T[] {
  const out: T[] = [];
  for (const t of turns) {
    const last = out[out.length - 1];
    if (last && last.role === t.role) last.parts.push(...t.parts);
    else out.push({ ...t, parts: [...t.parts] });
  }
  return out;
}

export function usage(prompt: number, completion: number): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function callId(): string {
  return `call_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
}

export function chunkOf(opts: { id: string; created: number; model: string }, delta: Record<string, unknown>, finish: FinishReason | null = null) {
  return {
    id: opts.id,
    object: "chat.completion.chunk" as const,
    created: opts.created,
    model: opts.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** The system and developer messages, in order, as one text: neither provider keeps them inline. */
export function systemText(messages: ChatMessage[]): string | null {
  const texts = messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => textOf(m.content));
  return texts.length ? texts.join("\n\n") : null;
}

/** The JSON-output wish of `response_format`, said in words, for providers with no such switch. */
export function jsonInstruction(rf: { type: string; json_schema?: { schema?: unknown } } | undefined): string | null {
  if (!rf || rf.type === "text") return null;
  if (rf.type === "json_object") return "Respond with one JSON object and nothing else.";
  return `Respond with one JSON value and nothing else, matching this JSON Schema:\n${JSON.stringify(rf.json_schema?.schema ?? {})}`;
}
