import { afterAll, beforeEach, expect, test } from "bun:test";
import { anthropic } from "../../src/providers/anthropic.ts";
import { ProviderError } from "../../src/providers/types.ts";
import { deadUrl, startFakeAnthropic } from "../support/fake-providers.ts";
import { run, textOf, toolCallsOf, weatherTool } from "./helpers.ts";

const fake = startFakeAnthropic();
afterAll(() => fake.stop());
beforeEach(() => {
  fake.calls.length = 0;
  fake.queue.length = 0;
  fake.requireKey = null;
});
const api = run(anthropic, fake.url, "sk-ant-test");

test("system to top-level system, headers, max_tokens default, parameters translated", async () => {
  fake.queue.push({ text: "Hi there." });
  const out = await api.complete({
    model: "anthropic/claude-x",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "developer", content: "No emoji." },
      { role: "user", content: "Hi" },
    ],
    temperature: 0.3,
    top_p: 0.9,
    stop: "END",
    user: "u-1",
    seed: 4,
  });
  const call = fake.calls[0]!;
  expect(call.headers["x-api-key"]).toBe("sk-ant-test");
  expect(call.headers["anthropic-version"]).toBe("2023-06-01");
  expect(call.body).toEqual({
    model: "claude-x",
    max_tokens: 4096,
    system: "Be brief.\n\nNo emoji.",
    messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
    temperature: 0.3,
    top_p: 0.9,
    stop_sequences: ["END"],
    metadata: { user_id: "u-1" },
  });
  expect(out.choices[0]!.message.content).toBe("Hi there.");
  expect(out.choices[0]!.finish_reason).toBe("stop");
  expect(out.model).toBe("anthropic/claude-x");
  expect(out.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
});

test("consecutive same roles merge; tool calls and results become tool_use / tool_result blocks", async () => {
  fake.queue.push({ text: "Sunny in Oslo and Rome." });
  await api.complete({
    model: "anthropic/claude-x",
    max_completion_tokens: 100,
    tools: [weatherTool],
    tool_choice: "required",
    parallel_tool_calls: false,
    messages: [
      { role: "user", content: "Weather?" },
      { role: "user", content: [{ type: "text", text: "Oslo and Rome." }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
          { id: "toolu_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: "tool", tool_call_id: "toolu_1", content: "sunny" },
      { role: "tool", tool_call_id: "toolu_2", content: "sunny" },
    ],
  });
  const body = fake.calls[0]!.body;
  expect(body.max_tokens).toBe(100);
  expect(body.tools).toEqual([{ name: "get_weather", description: "Weather now", input_schema: weatherTool.function.parameters }]);
  expect(body.tool_choice).toEqual({ type: "any", disable_parallel_tool_use: true });
  expect(body.messages).toEqual([
    {
      role: "user",
      content: [
        { type: "text", text: "Weather?" },
        { type: "text", text: "Oslo and Rome." },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } },
        { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Rome" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "sunny" },
        { type: "tool_result", tool_use_id: "toolu_2", content: "sunny" },
      ],
    },
  ]);
});

test("tool_use answer → tool_calls, stop_reason mapped", async () => {
  fake.queue.push({ text: "Checking.", toolCalls: [{ id: "toolu_9", name: "get_weather", arguments: '{"city":"Oslo"}' }] });
  const out = await api.complete({ model: "anthropic/claude-x", messages: [{ role: "user", content: "Oslo?" }], tools: [weatherTool] });
  expect(out.choices[0]!.finish_reason).toBe("tool_calls");
  expect(out.choices[0]!.message.tool_calls).toEqual([{ id: "toolu_9", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }]);
  fake.queue.push({ text: "cut", finish: "max_tokens" });
  const cut = await api.complete({ model: "anthropic/claude-x", messages: [{ role: "user", content: "x" }] });
  expect(cut.choices[0]!.finish_reason).toBe("length");
});

test("stream: text deltas, input_json_delta by index, finish and usage", async () => {
  fake.queue.push({
    text: "Let me check.",
    toolCalls: [
      { id: "toolu_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
      { id: "toolu_2", name: "get_weather", arguments: '{"city":"Rome"}' },
    ],
  });
  const chunks = await api.stream({ model: "anthropic/claude-x", messages: [{ role: "user", content: "x" }], tools: [weatherTool] });
  expect(fake.calls[0]!.body.stream).toBe(true);
  expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
  expect(textOf(chunks)).toBe("Let me check.");
  expect(toolCallsOf(chunks)).toEqual([
    { id: "toolu_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
    { id: "toolu_2", name: "get_weather", arguments: '{"city":"Rome"}' },
  ]);
  expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("tool_calls");
  expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
  expect(chunks.every((c) => c.id === "chatcmpl-t" && c.model === "anthropic/claude-x")).toBe(true);
});

test("errors: provider message, 429 kept, error event and dropped connection mid-stream", async () => {
  fake.queue.push({ status: 400, errorMessage: "max_tokens: too large" });
  const e1 = await api.complete({ model: "anthropic/claude-x", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
  expect(e1).toBeInstanceOf(ProviderError);
  expect(e1.status).toBe(502);
  expect(e1.message).toContain("max_tokens: too large");
  fake.queue.push({ status: 429, errorMessage: "slow down" });
  const e2 = await api.complete({ model: "anthropic/claude-x", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
  expect(e2.status).toBe(429);
  fake.queue.push({ text: "one two three", failMidStream: "event" });
  const e3 = await api.stream({ model: "anthropic/claude-x", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
  expect(e3).toBeInstanceOf(ProviderError);
  expect(e3.message).toContain("Overloaded");
  fake.queue.push({ text: "one two three", failMidStream: "close" });
  const e4 = await api.stream({ model: "anthropic/claude-x", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
  expect(e4).toBeInstanceOf(ProviderError);
  const e5 = await run(anthropic, deadUrl())
    .complete({ model: "anthropic/claude-x", messages: [{ role: "user", content: "x" }] })
    .catch((e) => e);
  expect(e5).toBeInstanceOf(ProviderError);
  expect(e5.status).toBe(502);
  expect(e5.message).toContain("could not be reached");
});
