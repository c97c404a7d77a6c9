import { afterAll, beforeEach, expect, test } from "bun:test";
import { google } from "../../src/providers/google.ts";
import { ProviderError, UnsupportedRequestError } from "../../src/providers/types.ts";
import { startFakeGemini } from "../support/fake-providers.ts";
import { run, textOf, toolCallsOf, weatherTool } from "./helpers.ts";

const fake = startFakeGemini();
afterAll(() => fake.stop());
beforeEach(() => {
  fake.calls.length = 0;
  fake.queue.length = 0;
});
const api = run(google, fake.url, "g-key");

test("request: contents with user/model, systemInstruction, generationConfig, key header", async () => {
  fake.queue.push({ text: "Hello." });
  const out = await api.complete({
    model: "google/gemini-x",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hey" },
      { role: "user", content: "Again" },
    ],
    temperature: 0.2,
    top_p: 0.8,
    max_tokens: 50,
    stop: ["X"],
    seed: 7,
    response_format: { type: "json_object" },
  });
  const c = fake.calls[0]!;
  expect(c.path).toBe("/v1beta/models/gemini-x:generateContent");
  expect(c.headers["x-goog-api-key"]).toBe("g-key");
  expect(c.url).not.toContain("key=");
  expect(c.body).toEqual({
    contents: [
      { role: "user", parts: [{ text: "Hi" }] },
      { role: "model", parts: [{ text: "Hey" }] },
      { role: "user", parts: [{ text: "Again" }] },
    ],
    systemInstruction: { parts: [{ text: "Be brief." }] },
    generationConfig: { temperature: 0.2, topP: 0.8, maxOutputTokens: 50, stopSequences: ["X"], seed: 7, responseMimeType: "application/json" },
  });
  expect(out.choices[0]!.message.content).toBe("Hello.");
  expect(out.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
});

test("tools: functionDeclarations, toolConfig, functionCall / functionResponse parts named after the call", async () => {
  fake.queue.push({ text: "It is sunny." });
  await api.complete({
    model: "google/gemini-x",
    tools: [weatherTool],
    tool_choice: { type: "function", function: { name: "get_weather" } },
    messages: [
      { role: "user", content: "Oslo?" },
      { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] },
      { role: "tool", tool_call_id: "c1", content: '{"sky":"sunny"}' },
    ],
  });
  const b = fake.calls[0]!.body;
  expect(b.tools).toEqual([
    { functionDeclarations: [{ name: "get_weather", description: "Weather now", parametersJsonSchema: weatherTool.function.parameters }] },
  ]);
  expect(b.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } });
  expect(b.contents).toEqual([
    { role: "user", parts: [{ text: "Oslo?" }] },
    { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }] },
    { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { sky: "sunny" } } }] },
  ]);
});

test("functionCall answer → tool_calls with finish tool_calls; MAX_TOKENS → length; SAFETY → content_filter", async () => {
  fake.queue.push({ toolCalls: [{ id: "x", name: "get_weather", arguments: '{"city":"Oslo"}' }] });
  const out = await api.complete({ model: "google/gemini-x", messages: [{ role: "user", content: "Oslo?" }], tools: [weatherTool] });
  expect(out.choices[0]!.finish_reason).toBe("tool_calls");
  expect(out.choices[0]!.message.content).toBeNull();
  expect(out.choices[0]!.message.tool_calls![0]!.function).toEqual({ name: "get_weather", arguments: '{"city":"Oslo"}' });
  fake.queue.push({ text: "cut", finish: "MAX_TOKENS" }, { text: "no", finish: "SAFETY" });
  expect((await api.complete({ model: "google/gemini-x", messages: [{ role: "user", content: "x" }] })).choices[0]!.finish_reason).toBe("length");
  expect((await api.complete({ model: "google/gemini-x", messages: [{ role: "user", content: "x" }] })).choices[0]!.finish_reason).toBe("content_filter");
});

test("stream over alt=sse: text, whole function calls, finish, usage", async () => {
  fake.queue.push({ text: "Checking the sky.", toolCalls: [{ id: "x", name: "get_weather", arguments: '{"city":"Oslo"}' }] });
  const chunks = await api.stream({ model: "google/gemini-x", messages: [{ role: "user", content: "x" }], tools: [weatherTool] });
  expect(fake.calls[0]!.url).toContain(":streamGenerateContent?alt=sse");
  expect(textOf(chunks)).toBe("Checking the sky.");
  expect(toolCallsOf(chunks)).toMatchObject([{ name: "get_weather", arguments: '{"city":"Oslo"}' }]);
  expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("tool_calls");
  expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
});

test("errors and what cannot be translated", async () => {
  fake.queue.push({ status: 500, errorMessage: "Internal error encountered." });
  const e = await api.complete({ model: "google/gemini-x", messages: [{ role: "user", content: "x" }] }).catch((x) => x);
  expect(e).toBeInstanceOf(ProviderError);
  expect(e.message).toContain("Internal error encountered.");
  fake.queue.push({ text: "a b c", failMidStream: "event" });
  const e2 = await api.stream({ model: "google/gemini-x", messages: [{ role: "user", content: "x" }] }).catch((x) => x);
  expect(e2.message).toContain("overloaded");
  fake.queue.push({ text: "a b c", failMidStream: "close" });
  expect(await api.stream({ model: "google/gemini-x", messages: [{ role: "user", content: "x" }] }).catch((x) => x)).toBeInstanceOf(ProviderError);
  const e3 = await api
    .complete({ model: "google/gemini-x", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] }] })
    .catch((x) => x);
  expect(e3).toBeInstanceOf(UnsupportedRequestError);
  const e4 = await api.complete({ model: "google/gemini-x", messages: [{ role: "tool", tool_call_id: "nope", content: "1" }] }).catch((x) => x);
  expect(e4).toBeInstanceOf(UnsupportedRequestError);
});
