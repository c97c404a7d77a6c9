// Provider answers of the wrong shape, stream events and whole bodies alike: a ProviderError (502)
// naming the field, never echoing its value (a body may carry a prompt or a key).
import { expect, test } from "bun:test";
import { anthropic } from "../../src/providers/anthropic.ts";
import { google } from "../../src/providers/google.ts";
import { openai } from "../../src/providers/openai.ts";
import { ProviderError, type ProviderAdapter, type SseEvent } from "../../src/providers/types.ts";

const SECRET = "sk-live-do-not-echo";
const opts = { id: "chatcmpl-x", created: 1, model: "m" };

async function* events(...data: unknown[]): AsyncGenerator<SseEvent> {
  for (const d of data) yield { event: "message", data: typeof d === "string" ? d : JSON.stringify(d) };
}

async function streamError(adapter: ProviderAdapter, ...data: unknown[]): Promise<ProviderError> {
  try {
    for await (const _ of adapter.fromStream(events(...data), opts));
  } catch (e) {
    if (e instanceof ProviderError) return e;
    throw e;
  }
  throw new Error("the stream was taken");
}

test("openai-compatible: a chunk whose delta text is not a string", async () => {
  const e = await streamError(openai, { id: "c", created: 1, choices: [{ index: 0, delta: { content: { text: SECRET } }, finish_reason: null }] });
  expect(e.status).toBe(502);
  expect(e.message).toBe("provider sent a stream event of an unexpected shape: choices.0.delta.content expected string");
  expect(e.message).not.toContain(SECRET);
});

test("openai-compatible: a chunk without its id; a body whose message has no content type it knows", async () => {
  expect((await streamError(openai, { created: 1, choices: [] })).message).toBe("provider sent a stream event of an unexpected shape: id is missing");
  const e = (() => {
    try {
      openai.fromResponse({ id: "c", created: 1, choices: [{ index: 0, message: { content: 7 }, finish_reason: "stop" }], secret: SECRET }, "m");
    } catch (x) {
      return x as ProviderError;
    }
  })();
  expect(e).toBeInstanceOf(ProviderError);
  expect(e!.upstreamStatus).toBe(200);
  expect(e!.message).toContain("choices.0.message.content");
  expect(e!.message).not.toContain(SECRET);
});

test("anthropic: known events are checked by their type; unknown types are passed over", async () => {
  const start = { type: "message_start", message: { usage: { input_tokens: 3 } } };
  const bad = await streamError(anthropic, start, { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: 5 } });
  expect(bad.message).toBe("anthropic sent a content delta of an unexpected shape: text expected string");
  const noIndex = await streamError(anthropic, start, { type: "content_block_start", content_block: { type: "text", text: "" } });
  expect(noIndex.message).toBe("anthropic sent a stream event of an unexpected shape: index is missing");
  // A type the adapter does not know (a later addition) is not an error.
  const chunks = [];
  for await (const c of anthropic.fromStream(
    events(
      start,
      { type: "brand_new_event", anything: SECRET },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } },
      { type: "message_stop" },
    ),
    opts,
  ))
    chunks.push(c);
  expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("hi");
  expect((await streamError(anthropic, "not json")).message).toBe("anthropic sent a stream event that is not JSON");
});

test("google: a part whose text is not a string", async () => {
  const e = await streamError(google, { candidates: [{ content: { parts: [{ text: [SECRET] }] } }] });
  expect(e.message).toBe("google sent a stream event of an unexpected shape: candidates.0.content.parts.0.text expected string");
  expect(e.message).not.toContain(SECRET);
});
