// The Vercel AI SDK against Tessera's Responses API, configured only by base URL and key: the
// default `openai(modelId)` of @ai-sdk/openai is the Responses model. generateText, streamText,
// a tool loop with an executed tool (stopWhen), structured output, and turns kept by Tessera
// (previousResponseId, a conversation).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, Output, stepCountIs, streamText, tool } from "ai";
import { startResponsesHarness, type ResponsesHarness } from "../../responses-harness.ts";

let H: ResponsesHarness;
let openai: ReturnType<typeof createOpenAI>;
beforeAll(async () => {
  H = await startResponsesHarness("ai-sdk");
  openai = createOpenAI({ baseURL: `${H.base}/v1/embed`, apiKey: H.key });
});
afterAll(() => H.close());

const weatherCalls: string[] = [];
const getWeather = tool({
  description: "The weather now at a place",
  inputSchema: jsonSchema<{ location: string }>({
    type: "object",
    properties: { location: { type: "string" } },
    required: ["location"],
    additionalProperties: false,
  }),
  execute: async ({ location }) => {
    weatherCalls.push(location);
    return { location, temperature: 18, sky: "sunny" };
  },
});

test("generateText: the answer, usage and the stored response's id", async () => {
  const result = await generateText({ model: openai("openai/gpt-stand-in"), maxRetries: 0, system: "Be brief.", prompt: "Hello from the AI SDK" });
  expect(result.text).toBe("Stand-in answer to: Hello from the AI SDK");
  expect(result.finishReason).toBe("stop");
  expect(result.usage.totalTokens).toBeGreaterThan(0);
  const id = result.providerMetadata?.openai?.responseId as string;
  expect(typeof id).toBe("string");
  const stored = await H.responses.responses.retrieve(id);
  expect(stored.output_text).toBe(result.text);
});

for (const model of ["openai/gpt-stand-in", "anthropic/claude-stand-in", "google/gemini-stand-in"]) {
  test(`streamText on ${model}: the text arrives in pieces and whole`, async () => {
    const result = streamText({ model: openai(model), maxRetries: 0, prompt: "Stream this sentence to me" });
    const pieces: string[] = [];
    for await (const piece of result.textStream) pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe("Stand-in answer to: Stream this sentence to me");
    expect(await result.text).toBe(pieces.join(""));
    expect(await result.finishReason).toBe("stop");
    const usage = await result.usage;
    expect(usage.totalTokens).toBeGreaterThan(0);
    expect(usage.totalTokens).toBe(usage.inputTokens! + usage.outputTokens!);
  });
}

test("a tool loop: the model calls get_weather, the SDK executes it, the model answers with its result", async () => {
  weatherCalls.length = 0;
  const result = await generateText({
    model: openai("openai/gpt-stand-in"),
    maxRetries: 0,
    tools: { get_weather: getWeather },
    stopWhen: stepCountIs(5),
    prompt: "What's the weather in San Francisco?",
  });
  expect(weatherCalls).toEqual(["San Francisco"]);
  expect(result.steps).toHaveLength(2);
  expect(result.steps[0]!.toolCalls.map((c) => c.toolName)).toEqual(["get_weather"]);
  expect(result.steps[0]!.finishReason).toBe("tool-calls");
  expect(result.text).toBe('The tool answered: {"location":"San Francisco","temperature":18,"sky":"sunny"}');
  expect(result.finishReason).toBe("stop");
});

test("a streamed tool loop on Anthropic", async () => {
  weatherCalls.length = 0;
  const result = streamText({
    model: openai("anthropic/claude-stand-in"),
    maxRetries: 0,
    tools: { get_weather: getWeather },
    stopWhen: stepCountIs(5),
    prompt: "Weather in SF?",
  });
  expect(await result.text).toBe('The tool answered: {"location":"San Francisco","temperature":18,"sky":"sunny"}');
  expect(weatherCalls).toEqual(["San Francisco"]);
  expect((await result.steps).length).toBe(2);
});

test("structured output (text.format json_schema)", async () => {
  H.E.openai.queue.push({ text: '{"city":"Paris","temperature":21}' });
  const result = await generateText({
    model: openai("openai/gpt-stand-in"),
    maxRetries: 0,
    output: Output.object({
      schema: jsonSchema<{ city: string; temperature: number }>({
        type: "object",
        properties: { city: { type: "string" }, temperature: { type: "number" } },
        required: ["city", "temperature"],
        additionalProperties: false,
      }),
    }),
    prompt: "Weather in Paris as JSON",
  });
  expect(result.output).toEqual({ city: "Paris", temperature: 21 });
  expect(H.E.openai.calls.at(-1)!.body.response_format?.type).toBe("json_schema");
});

test("turns kept by Tessera: previousResponseId, and a conversation", async () => {
  const first = await generateText({ model: openai("openai/gpt-stand-in"), maxRetries: 0, prompt: "My name is Ada" });
  const second = await generateText({
    model: openai("openai/gpt-stand-in"),
    maxRetries: 0,
    prompt: "What is my name?",
    providerOptions: { openai: { previousResponseId: first.providerMetadata!.openai!.responseId as string } },
  });
  expect(second.text).toBe("Stand-in answer to: What is my name?");
  const sent = H.E.openai.calls.at(-1)!.body.messages.map((m: any) => JSON.stringify(m.content));
  expect(sent.join(" ")).toContain("My name is Ada");

  const c = await H.conversations.conversations.create();
  for (const prompt of ["one", "two"]) {
    await generateText({ model: openai("openai/gpt-stand-in"), maxRetries: 0, prompt, providerOptions: { openai: { conversation: c.id } } });
  }
  const items: any[] = [];
  for await (const item of H.conversations.conversations.items.list(c.id, { order: "asc" })) items.push(item);
  expect(items.map((i) => `${i.role}:${i.content[0].text}`)).toEqual([
    "user:one",
    "assistant:Stand-in answer to: one",
    "user:two",
    "assistant:Stand-in answer to: two",
  ]);
});

for (const model of ["anthropic/claude-stand-in", "google/gemini-stand-in", "meta/llama-stand-in", "local/qwen-stand-in"]) {
  test(`a tool loop on ${model}`, async () => {
    weatherCalls.length = 0;
    const result = await generateText({
      model: openai(model),
      maxRetries: 0,
      tools: { get_weather: getWeather },
      stopWhen: stepCountIs(5),
      prompt: "Weather in SF?",
    });
    expect(weatherCalls).toEqual(["San Francisco"]);
    expect(result.text).toBe('The tool answered: {"location":"San Francisco","temperature":18,"sky":"sunny"}');
  });
}

test("a tool loop with store: false (the SDK sends every item itself, no item_reference)", async () => {
  weatherCalls.length = 0;
  const result = await generateText({
    model: openai("openai/gpt-stand-in"),
    maxRetries: 0,
    tools: { get_weather: getWeather },
    stopWhen: stepCountIs(5),
    prompt: "Weather in SF?",
    providerOptions: { openai: { store: false } },
  });
  expect(weatherCalls).toEqual(["San Francisco"]);
  expect(result.text).toBe('The tool answered: {"location":"San Francisco","temperature":18,"sky":"sunny"}');
  const id = result.providerMetadata?.openai?.responseId as string;
  expect(await H.responses.responses.retrieve(id).catch((e) => e.status)).toBe(404);
});

test("history kept by the app: the SDK refers to the stored assistant message by item_reference", async () => {
  const sent: any[] = [];
  const spying = createOpenAI({
    baseURL: `${H.base}/v1/embed`,
    apiKey: H.key,
    fetch: (async (url: string, init: RequestInit) => {
      sent.push(JSON.parse(String(init.body)));
      return fetch(url, init);
    }) as typeof fetch,
  });
  const first = await generateText({ model: spying("openai/gpt-stand-in"), maxRetries: 0, messages: [{ role: "user", content: "My name is Ada" }] });
  const second = await generateText({
    model: spying("openai/gpt-stand-in"),
    maxRetries: 0,
    messages: [{ role: "user", content: "My name is Ada" }, ...first.response.messages, { role: "user", content: "What is my name?" }],
  });
  expect(second.text).toBe("Stand-in answer to: What is my name?");
  expect(sent[1].input.map((i: any) => i.type ?? i.role)).toEqual(["user", "item_reference", "user"]);
  // Tessera resolved the reference: the model saw its own earlier answer.
  const messages = H.E.openai.calls.at(-1)!.body.messages;
  expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
  expect(JSON.stringify(messages[1].content)).toContain("Stand-in answer to: My name is Ada");
});
