// The agent stand-in (agentResponder) on each provider wire, driven by the real adapters: a user
// question with tools offered gets a call of the first tool with arguments that fit its schema; the
// tool's result gets text; the queue still comes first and the fallback still answers without one.
import { afterAll, expect, test } from "bun:test";
import { anthropic } from "../../src/providers/anthropic.ts";
import { google } from "../../src/providers/google.ts";
import { openai } from "../../src/providers/openai.ts";
import type { ProviderAdapter } from "../../src/providers/types.ts";
import { agentResponder, plausibleValue, startFakeAnthropic, startFakeGemini, startFakeOpenAI, type FakeProvider } from "../support/fake-providers.ts";
import { run, textOf, toolCallsOf } from "./helpers.ts";

const weather = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Weather now",
    parameters: {
      type: "object",
      properties: { location: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
      required: ["location", "unit"],
    },
  },
};
const other = { type: "function" as const, function: { name: "get_time", parameters: { type: "object", properties: { zone: { type: "string" } } } } };

const wires: [string, () => FakeProvider, ProviderAdapter, string][] = [
  ["openai", startFakeOpenAI, openai, "openai/stand-in"],
  ["anthropic", startFakeAnthropic, anthropic, "anthropic/stand-in"],
  ["gemini", startFakeGemini, google, "google/stand-in"],
];
const fakes: FakeProvider[] = [];
afterAll(() => {
  for (const f of fakes) f.stop();
});

for (const [name, startFake, adapter, model] of wires) {
  const fake = startFake();
  fakes.push(fake);
  fake.responder = agentResponder;
  const api = run(adapter, fake.url, "k");

  test(`${name}: a question with tools offered gets a call of the first tool, its result gets text (non-streamed)`, async () => {
    const out = await api.complete({ model, messages: [{ role: "user", content: "What's the weather in SF?" }], tools: [weather, other] });
    const calls = out.choices[0]!.message.tool_calls!;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.function.name).toBe("get_weather");
    expect(JSON.parse(calls[0]!.function.arguments)).toEqual({ location: "San Francisco", unit: "celsius" });
    const after = await api.complete({
      model,
      tools: [weather, other],
      messages: [
        { role: "user", content: "What's the weather in SF?" },
        { role: "assistant", content: null, tool_calls: calls },
        { role: "tool", tool_call_id: calls[0]!.id, content: "18 C and sunny" },
      ],
    });
    expect(after.choices[0]!.message.tool_calls ?? []).toEqual([]);
    expect(after.choices[0]!.message.content).toContain("18 C and sunny");
  });

  test(`${name}: the same round streamed; no tools means text`, async () => {
    const chunks = await api.stream({ model, stream: true, messages: [{ role: "user", content: "Weather?" }], tools: [weather] });
    const calls = toolCallsOf(chunks);
    expect(calls.map((c) => c.name)).toEqual(["get_weather"]);
    expect(JSON.parse(calls[0]!.arguments).location).toBe("San Francisco");
    const plain = await api.stream({ model, stream: true, messages: [{ role: "user", content: "Say hi" }] });
    expect(textOf(plain)).toBe("Stand-in answer to: Say hi");
  });

  test(`${name}: tool_choice none gets text; the queue comes before the responder`, async () => {
    const none = await api.complete({ model, messages: [{ role: "user", content: "Weather?" }], tools: [weather], tool_choice: "none" });
    expect(none.choices[0]!.message.content).toBe("Stand-in answer to: Weather?");
    fake.queue.push({ text: "Queued." });
    const queued = await api.complete({ model, messages: [{ role: "user", content: "Weather?" }], tools: [weather] });
    expect(queued.choices[0]!.message.content).toBe("Queued.");
  });
}

test("without a responder the fallback answers, as before", async () => {
  const fake = startFakeOpenAI();
  fakes.push(fake);
  const out = await run(openai, fake.url, "k").complete({ model: "openai/x", messages: [{ role: "user", content: "Weather?" }], tools: [weather] });
  expect(out.choices[0]!.message.content).toBe("Hello from the openai stand-in.");
});

test("plausible values follow the schema: enums, nested objects, arrays, numbers, Gemini's upper-case types", () => {
  expect(
    plausibleValue({
      type: "object",
      required: ["city", "days", "tags", "where", "metric"],
      properties: {
        city: { type: "string" },
        days: { type: "integer", minimum: 3 },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
        where: { type: "OBJECT", properties: { location: { type: "STRING" } } },
        metric: { type: ["boolean", "null"] },
        skipped: { type: "string" },
      },
    }),
  ).toEqual({ city: "San Francisco", days: 3, tags: ["a"], where: { location: "San Francisco" }, metric: true });
});
