// Drives one adapter against its stand-in through the real HTTP layer.
import { complete, openStream } from "../../src/providers/call.ts";
import type { ChatCompletionChunk, ChatRequest, ProviderAdapter } from "../../src/providers/types.ts";

export async function collect(it: AsyncIterable<ChatCompletionChunk>) {
  const chunks: ChatCompletionChunk[] = [];
  for await (const c of it) chunks.push(c);
  return chunks;
}

export function textOf(chunks: ChatCompletionChunk[]): string {
  return chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
}

/** Tool calls put back together by index, as a client does. */
export function toolCallsOf(chunks: ChatCompletionChunk[]) {
  const calls: { id?: string; name: string; arguments: string }[] = [];
  for (const c of chunks)
    for (const t of c.choices[0]?.delta.tool_calls ?? []) {
      const cur = (calls[t.index] ??= { name: "", arguments: "" });
      if (t.id) cur.id = t.id;
      if (t.function?.name) cur.name += t.function.name;
      if (t.function?.arguments) cur.arguments += t.function.arguments;
    }
  return calls;
}

export function run(adapter: ProviderAdapter, baseUrl: string, apiKey: string | null = "sk-test") {
  const target = (req: ChatRequest) => ({ model: req.model.split("/").slice(1).join("/"), baseUrl, apiKey });
  return {
    complete: (req: ChatRequest) => complete(adapter, req, target(req)),
    stream: async (req: ChatRequest) => collect(await openStream(adapter, req, target(req), { id: "chatcmpl-t", created: 1 })),
  };
}

export const weatherTool = {
  type: "function" as const,
  function: { name: "get_weather", description: "Weather now", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};
