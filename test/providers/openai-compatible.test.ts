import { afterAll, beforeEach, expect, test } from "bun:test";
import { aggregator } from "../../src/providers/aggregator.ts";
import { local } from "../../src/providers/local.ts";
import { openai } from "../../src/providers/openai.ts";
import { route, target } from "../../src/providers/registry.ts";
import { ProviderError } from "../../src/providers/types.ts";
import { startFakeOpenAI } from "../support/fake-providers.ts";
import { run, textOf, toolCallsOf, weatherTool } from "./helpers.ts";

const fake = startFakeOpenAI();
afterAll(() => fake.stop());
beforeEach(() => {
  fake.calls.length = 0;
  fake.queue.length = 0;
});

test("openai: forwarded verbatim with the bare model and a bearer key", async () => {
  const req = {
    model: "openai/gpt-x",
    messages: [
      { role: "system" as const, content: "S" },
      { role: "user" as const, content: [{ type: "text" as const, text: "Hi" }] },
    ],
    temperature: 1.5,
    seed: 3,
    max_completion_tokens: 20,
    response_format: { type: "json_object" as const },
    tools: [weatherTool],
    tool_choice: "auto" as const,
  };
  const out = await run(openai, fake.url).complete(req);
  const c = fake.calls[0]!;
  expect(c.headers.authorization).toBe("Bearer sk-test");
  expect(c.body).toEqual({ ...req, model: "gpt-x" });
  expect(out.model).toBe("openai/gpt-x");
  expect(out.choices[0]!.message.content).toBe("Hello from the openai stand-in.");
});

test("openai stream asks for usage upstream; tool call pieces pass through by index", async () => {
  fake.queue.push({ toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' }] });
  const chunks = await run(openai, fake.url).stream({ model: "openai/gpt-x", messages: [{ role: "user", content: "x" }], tools: [weatherTool] });
  expect(fake.calls[0]!.body.stream_options).toEqual({ include_usage: true });
  expect(toolCallsOf(chunks)).toEqual([{ id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' }]);
  expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
});

test("aggregator keeps the full id; local drops its prefix and uses max_tokens", async () => {
  const agg = route("mistral/mistral-large")!;
  expect(agg.adapter).toBe(aggregator);
  expect(agg.upstreamModel).toBe("mistral/mistral-large");
  const t = target(agg, { OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: "or-key" }, null);
  expect(t.ok).toBe(true);
  const loc = route("local/llama-3")!;
  expect(loc.adapter).toBe(local);
  expect(loc.upstreamModel).toBe("llama-3");
  const body = local.toRequest(
    { model: "local/llama-3", messages: [], max_completion_tokens: 9 },
    { model: "llama-3", baseUrl: "http://h/v1/", apiKey: null },
    true,
  );
  expect(body.url).toBe("http://h/v1/chat/completions");
  expect(body.headers.authorization).toBeUndefined();
  expect(body.body).toMatchObject({ model: "llama-3", max_tokens: 9, stream: true });
  expect((body.body as Record<string, unknown>).stream_options).toBeUndefined();
});

test("registry: bad ids, missing keys name their variable, byok wins", () => {
  expect(route("gpt-4o")).toBeNull();
  expect(route("openai/")).toBeNull();
  const r = route("anthropic/claude")!;
  const miss = target(r, {}, null);
  expect(miss.ok).toBe(false);
  if (!miss.ok) expect(miss.message).toContain("ANTHROPIC_API_KEY");
  const byok = target(r, { ANTHROPIC_API_KEY: "server" }, "mine");
  expect(byok.ok && byok.target.apiKey).toBe("mine");
  const noLocal = target(route("local/x")!, {}, null);
  expect(!noLocal.ok && noLocal.message).toContain("LOCAL_BASE_URL");
});

test("errors: message out of the OpenAI error body; in-stream error object; stream cut short", async () => {
  fake.queue.push({ status: 401, errorMessage: "Incorrect API key provided" });
  const e = await run(openai, fake.url)
    .complete({ model: "openai/x", messages: [{ role: "user", content: "x" }] })
    .catch((x) => x);
  expect(e).toBeInstanceOf(ProviderError);
  expect(e.status).toBe(502);
  expect(e.upstreamStatus).toBe(401);
  expect(e.message).toContain("Incorrect API key provided");
  fake.queue.push({ text: "a b c", failMidStream: "event" });
  const e2 = await run(aggregator, fake.url)
    .stream({ model: "x/y", messages: [{ role: "user", content: "x" }] })
    .catch((x) => x);
  expect(e2.message).toContain("stand-in failed mid-stream");
  fake.queue.push({ text: "a b c", failMidStream: "close" });
  expect(
    await run(openai, fake.url)
      .stream({ model: "openai/x", messages: [{ role: "user", content: "x" }] })
      .catch((x) => x),
  ).toBeInstanceOf(ProviderError);
  fake.queue.push({ text: "plain" });
  expect(textOf(await run(openai, fake.url).stream({ model: "openai/x", messages: [{ role: "user", content: "x" }] }))).toBe("plain");
});
