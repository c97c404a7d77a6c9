// Embed Chat Completions through the official openai client, against every provider's stand-in:
// plain text, streaming, the function-tool loop, usage, errors, request-level keys.
import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { deadUrl, type FakeProvider } from "../../../support/fake-providers.ts";
import { embedSuite, KEYS } from "../../embed-harness.ts";
import { post } from "../../harness.ts";

const S = embedSuite("embed", 100);

const weather = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Current weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

const PROVIDERS: { model: string; fake: () => FakeProvider; key: string | null }[] = [
  { model: "openai/gpt-test", fake: () => S.E.openai, key: KEYS.openai },
  { model: "anthropic/claude-test", fake: () => S.E.anthropic, key: KEYS.anthropic },
  { model: "google/gemini-test", fake: () => S.E.gemini, key: KEYS.gemini },
  { model: "mistral/mistral-test", fake: () => S.E.aggregator, key: KEYS.openrouter },
  { model: "local/llama-test", fake: () => S.E.local, key: null },
];

function keyArrived(f: FakeProvider): string | null {
  const hd = f.calls.at(-1)!.headers;
  return hd["x-api-key"] ?? hd["x-goog-api-key"] ?? hd.authorization?.replace(/^Bearer /, "") ?? null;
}

async function collect(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  let text = "";
  let finish: string | null = null;
  let usage: unknown = null;
  const calls: { id?: string; name: string; arguments: string }[] = [];
  for await (const c of stream) {
    if (c.usage) usage = c.usage;
    const ch = c.choices[0];
    if (!ch) continue;
    text += ch.delta.content ?? "";
    if (ch.finish_reason) finish = ch.finish_reason;
    for (const t of ch.delta.tool_calls ?? []) {
      const cur = (calls[t.index] ??= { name: "", arguments: "" });
      if (t.id) cur.id = t.id;
      cur.name += t.function?.name ?? "";
      cur.arguments += t.function?.arguments ?? "";
    }
  }
  return { text, finish, usage, calls };
}

for (const p of PROVIDERS) {
  describe(p.model, () => {
    test("plain answer, server key, usage", async () => {
      p.fake().queue.push({ text: "Paris is the capital of France." });
      const out = await S.client.chat.completions.create({
        model: p.model,
        messages: [
          { role: "system", content: "Answer in one sentence." },
          { role: "user", content: "Capital of France?" },
        ],
        temperature: 0.2,
        max_tokens: 64,
      });
      expect(out.object).toBe("chat.completion");
      expect(out.model).toBe(p.model);
      expect(out.choices[0]!.message.content).toBe("Paris is the capital of France.");
      expect(out.choices[0]!.finish_reason).toBe("stop");
      expect(out.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
      expect(keyArrived(p.fake())).toBe(p.key);
      // Passthrough: the system prompt went out untouched.
      expect(JSON.stringify(p.fake().calls[0]!.body)).toContain("Answer in one sentence.");
    });

    test("streaming text ends in [DONE]; usage chunk only when asked", async () => {
      p.fake().queue.push({ text: "One two three four." }, { text: "Five six." });
      const s1 = await collect(await S.client.chat.completions.create({ model: p.model, messages: [{ role: "user", content: "Count" }], stream: true }));
      expect(s1.text).toBe("One two three four.");
      expect(s1.finish).toBe("stop");
      expect(s1.usage).toBeNull();
      const s2 = await collect(
        await S.client.chat.completions.create({
          model: p.model,
          messages: [{ role: "user", content: "More" }],
          stream: true,
          stream_options: { include_usage: true },
        }),
      );
      expect(s2.text).toBe("Five six.");
      expect(s2.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    });

    test("the function-tool loop: call, run, answer (non-streaming then streaming)", async () => {
      const f = p.fake();
      f.queue.push(
        { toolCalls: [{ id: "call_a1", name: "get_weather", arguments: '{"city":"Oslo"}' }] },
        { text: "It is 21 degrees and sunny in Oslo." },
        { toolCalls: [{ id: "call_b1", name: "get_weather", arguments: '{"city":"Rome"}' }] },
        { text: "Rome: sunny." },
      );
      const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Oslo?" }];
      const first = await S.client.chat.completions.create({ model: p.model, messages, tools: [weather] });
      const msg = first.choices[0]!.message;
      expect(first.choices[0]!.finish_reason).toBe("tool_calls");
      expect(msg.tool_calls).toHaveLength(1);
      const call = msg.tool_calls![0]! as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
      expect(call.function.name).toBe("get_weather");
      expect(JSON.parse(call.function.arguments)).toEqual({ city: "Oslo" });
      messages.push(msg as OpenAI.Chat.Completions.ChatCompletionMessageParam);
      messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify({ temp: 21, sky: "sunny" }) });
      const second = await S.client.chat.completions.create({ model: p.model, messages, tools: [weather] });
      expect(second.choices[0]!.message.content).toBe("It is 21 degrees and sunny in Oslo.");
      // The tool result reached the provider in its own format.
      const sent = JSON.stringify(f.calls[1]!.body);
      expect(sent).toContain("sunny");
      expect(sent).toContain("get_weather");

      const streamed = await collect(
        await S.client.chat.completions.create({ model: p.model, messages: [{ role: "user", content: "Rome?" }], tools: [weather], stream: true }),
      );
      expect(streamed.finish).toBe("tool_calls");
      expect(streamed.calls).toHaveLength(1);
      expect(streamed.calls[0]!.name).toBe("get_weather");
      expect(JSON.parse(streamed.calls[0]!.arguments)).toEqual({ city: "Rome" });
      const again = await S.client.chat.completions.create({
        model: p.model,
        tools: [weather],
        stream: false,
        messages: [
          { role: "user", content: "Rome?" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: streamed.calls[0]!.id!, type: "function", function: { name: "get_weather", arguments: streamed.calls[0]!.arguments } }],
          },
          { role: "tool", tool_call_id: streamed.calls[0]!.id!, content: "sunny" },
        ],
      });
      expect(again.choices[0]!.message.content).toBe("Rome: sunny.");
    });

    test("provider errors: 4xx → 502 with its message, 429 → 429, 500 → 502", async () => {
      const f = p.fake();
      f.queue.push(
        { status: 400, errorMessage: "the model refuses this request" },
        { status: 429, errorMessage: "too many requests" },
        { status: 500, errorMessage: "boom" },
      );
      const ask = () => S.client.chat.completions.create({ model: p.model, messages: [{ role: "user", content: "x" }] }).catch((e) => e);
      const e400 = await ask();
      expect(e400).toBeInstanceOf(Error);
      expect(e400.status).toBe(502);
      expect(e400.error.type).toBe("upstream_error");
      expect(e400.message).toContain("the model refuses this request");
      const e429 = await ask();
      expect(e429.status).toBe(429);
      expect(e429.message).toContain("too many requests");
      const e500 = await ask();
      expect(e500.status).toBe(502);
    });

    test("a provider failing mid-stream ends with an error event, never [DONE]", async () => {
      const f = p.fake();
      for (const mode of ["close", "event"] as const) {
        f.queue.push({ text: "partial answer here", failMidStream: mode });
        const res = await post(S.E.h.base, "/v1/embed/chat/completions", S.key, { model: p.model, messages: [{ role: "user", content: "x" }], stream: true });
        expect(res.status).toBe(200);
        const raw = await res.text();
        expect(raw).not.toContain("[DONE]");
        const last = raw.trim().split("\n\n").at(-1)!;
        expect(JSON.parse(last.slice("data: ".length)).error.type).toBe("upstream_error");
      }
      f.queue.push({ text: "partial answer here", failMidStream: "close" });
      const stream = await S.client.chat.completions.create({ model: p.model, messages: [{ role: "user", content: "x" }], stream: true });
      expect(await collect(stream).catch((e) => e)).toBeInstanceOf(Error);
    });
  });
}

test("a conversation longer than the model's context window → 400 context_length_exceeded, on every provider, not retried by the client", async () => {
  for (const p of PROVIDERS.slice(0, 4)) {
    const fake = p.fake();
    fake.contextLimit = 100;
    const retrying = new OpenAI({ baseURL: `${S.E.h.base}/v1/embed`, apiKey: S.key, maxRetries: 2 });
    const calls = fake.calls.length;
    const e = await retrying.chat.completions.create({ model: p.model, messages: [{ role: "user", content: "x".repeat(500) }] }).catch((x) => x);
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.code).toBe("context_length_exceeded");
    expect(e.message).toMatch(/context length|too long|exceeds the maximum number of tokens/);
    expect(fake.calls.length - calls).toBe(1); // the client did not try again
    fake.contextLimit = null;
  }
});

test("unreachable provider → 502", async () => {
  const saved = S.E.h.server.config.providers.ANTHROPIC_BASE_URL;
  S.E.h.server.config.providers.ANTHROPIC_BASE_URL = deadUrl();
  try {
    const e = await S.client.chat.completions.create({ model: "anthropic/claude-test", messages: [{ role: "user", content: "x" }] }).catch((x) => x);
    expect(e.status).toBe(502);
    expect(e.error.type).toBe("upstream_error");
  } finally {
    S.E.h.server.config.providers.ANTHROPIC_BASE_URL = saved;
  }
});

test("no key for the provider → 400 naming the variable to set", async () => {
  const saved = S.E.h.server.config.providers.GEMINI_API_KEY;
  delete S.E.h.server.config.providers.GEMINI_API_KEY;
  try {
    const e = await S.client.chat.completions.create({ model: "google/gemini-test", messages: [{ role: "user", content: "x" }] }).catch((x) => x);
    expect(e.status).toBe(400);
    expect(e.message).toContain("GEMINI_API_KEY");
    expect(S.E.gemini.calls).toHaveLength(0);
  } finally {
    S.E.h.server.config.providers.GEMINI_API_KEY = saved;
  }
});

test("request checks: model form, hosted tools, roles, n", async () => {
  const bad = async (body: Record<string, unknown>, re: RegExp) => {
    const res = await post(S.E.h.base, "/v1/embed/chat/completions", S.key, body);
    expect(res.status).toBe(400);
    const j = await res.json();
    expect(j.error.type).toBe("invalid_request_error");
    expect(j.error.message).toMatch(re);
  };
  await bad({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }, /\{provider\}\/\{model\}/);
  await bad({ model: "openai/x", messages: [{ role: "user", content: "x" }], tools: [{ type: "web_search" }] }, /Responses/);
  await bad({ model: "openai/x", messages: [{ role: "wizard", content: "x" }] }, /role/);
  await bad({ model: "openai/x", messages: [] }, /messages/);
  await bad({ model: "openai/x", messages: [{ role: "user", content: "x" }], n: 3 }, /n must be 1/);
  await bad({ model: "google/x", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://e/x.png" } }] }] }, /data: URLs/);
  const noAuth = await post(S.E.h.base, "/v1/embed/chat/completions", null, { model: "openai/x", messages: [{ role: "user", content: "x" }] });
  expect(noAuth.status).toBe(401);
  expect(S.E.openai.calls).toHaveLength(0);
});

test("credits: price per request is taken; none left or suspended → 429", async () => {
  S.E.h.server.config.embedPrice = 2;
  const poorKey = await S.E.h.org("embed-poor", 3);
  const poor = S.E.client(poorKey);
  const ok = await poor.chat.completions.create({ model: "openai/gpt-test", messages: [{ role: "user", content: "x" }] });
  expect(ok.choices[0]!.message.content).toBeTruthy();
  expect(await S.E.h.credits("embed-poor")).toBe(1);
  const e = await poor.chat.completions.create({ model: "openai/gpt-test", messages: [{ role: "user", content: "x" }] }).catch((x) => x);
  expect(e.status).toBe(429);
  expect(e.error.type).toBe("rate_limit_error");
  // A provider failure is not charged.
  const richKey = await S.E.h.org("embed-rich", 10);
  S.E.openai.queue.push({ status: 500 });
  await S.E.client(richKey)
    .chat.completions.create({ model: "openai/gpt-test", messages: [{ role: "user", content: "x" }] })
    .catch(() => {});
  expect(await S.E.h.credits("embed-rich")).toBe(10);
});

test("requests are logged with model, status and usage", async () => {
  await S.client.chat.completions.create({ model: "anthropic/claude-log", messages: [{ role: "user", content: "log me" }] });
  // The log is written just after the answer goes out.
  await S.E.h.server.idle();
  const rows = await logsOf("anthropic/claude-log");
  expect(rows).toHaveLength(1);
  expect(rows[0]!.endpoint).toBe("/v1/embed/chat/completions");
  expect(rows[0]!.status).toBe(200);
  expect(rows[0]!.outcome).toBe("ok");
  expect([rows[0]!.input_tokens, rows[0]!.output_tokens]).toEqual([11, 7]);
  expect(rows[0]!.conversation).toContain("log me");
});

async function logsOf(model: string) {
  await S.E.h.server.idle();
  return S.E.h.server.db.selectFrom("request_logs").selectAll().where("model", "=", model).execute();
}

describe("request-level provider keys (byok)", () => {
  async function encrypt(k: string, provider: string, apiKey: string) {
    const res = await post(S.E.h.base, "/encryption/encrypt", k, { provider, apiKey });
    expect(res.status).toBe(200);
    return (await res.json()).encryptedApiKey as string;
  }

  test("the request's own key replaces the server's, for every provider", async () => {
    for (const [model, provider, fake] of [
      ["openai/gpt-test", "openai", S.E.openai],
      ["anthropic/claude-test", "anthropic", S.E.anthropic],
      ["google/gemini-test", "google", S.E.gemini],
      ["mistral/mistral-test", "openrouter", S.E.aggregator],
    ] as const) {
      const blob = await encrypt(S.key, provider, `sk-user-${provider}`);
      expect(blob).not.toContain(`sk-user-${provider}`);
      fake.requireKey = `sk-user-${provider}`;
      const out = await S.client.chat.completions.create({
        model,
        messages: [{ role: "user", content: "x" }],
        byok: { provider, encryptedApiKey: blob },
      } as never);
      expect((out as OpenAI.Chat.Completions.ChatCompletion).choices[0]!.message.content).toBeTruthy();
      expect(keyArrived(fake)).toBe(`sk-user-${provider}`);
    }
    // Works streaming too, and without any server key.
    const saved = S.E.h.server.config.providers.OPENAI_API_KEY;
    delete S.E.h.server.config.providers.OPENAI_API_KEY;
    try {
      const blob = await encrypt(S.key, "openai", "sk-user-only");
      S.E.openai.requireKey = "sk-user-only";
      const s = await collect(
        (await S.client.chat.completions.create({
          model: "openai/gpt-test",
          messages: [{ role: "user", content: "x" }],
          stream: true,
          byok: { provider: "openai", encryptedApiKey: blob },
        } as never)) as never,
      );
      expect(s.text).toBeTruthy();
    } finally {
      S.E.h.server.config.providers.OPENAI_API_KEY = saved;
    }
  });

  test("another organization's blob, a tampered blob, a provider mismatch: 400", async () => {
    const otherKey = await S.E.h.org("embed-other", 10);
    const theirs = await encrypt(otherKey, "openai", "sk-theirs");
    const mine = await encrypt(S.key, "openai", "sk-mine");
    const send = (byok: unknown, model = "openai/gpt-test") =>
      S.client.chat.completions.create({ model, messages: [{ role: "user", content: "x" }], byok } as never).catch((x) => x);
    const e1 = await send({ provider: "openai", encryptedApiKey: theirs });
    expect(e1.status).toBe(400);
    expect(e1.message).toContain("byok");
    const last = mine.at(-2) === "A" ? "B" : "A";
    const e2 = await send({ provider: "openai", encryptedApiKey: mine.slice(0, -2) + last + mine.at(-1) });
    expect(e2.status).toBe(400);
    const e3 = await send({ provider: "anthropic", encryptedApiKey: mine }, "anthropic/claude-test");
    expect(e3.status).toBe(400);
    const e4 = await send({ provider: "anthropic", encryptedApiKey: mine });
    expect(e4.status).toBe(400);
    expect(e4.message).toContain("does not match");
    expect(S.E.openai.calls).toHaveLength(0);
    expect(S.E.anthropic.calls).toHaveLength(0);
  });

  test("encrypt needs the API key and a provider; the plain key never reaches the logs", async () => {
    expect((await post(S.E.h.base, "/encryption/encrypt", null, { provider: "openai", apiKey: "sk-x" })).status).toBe(401);
    expect((await post(S.E.h.base, "/encryption/encrypt", S.key, { apiKey: "sk-x" })).status).toBe(400);
    await encrypt(S.key, "openai", "sk-secret-never-logged");
    await S.E.h.server.idle();
    const rows = await S.E.h.server.db.selectFrom("request_logs").select(["conversation", "outcome"]).execute();
    expect(JSON.stringify(rows)).not.toContain("sk-secret-never-logged");
  });
});
