// One base URL is enough: an openai client configured for {base}/v1/embed lists the models the
// operator offers (TESSERA_MODELS), creates responses and reaches Conversations; the byok route
// also answers under /v1/encryption/encrypt. A model the operator does not offer is a 404.
import { afterEach, expect, test } from "bun:test";
import OpenAI from "openai";
import { embedSuite } from "../../embed-harness.ts";
import { post } from "../../harness.ts";
import { configFromEnv } from "../../../../src/server/config.ts";

const S = embedSuite("models", 100);
afterEach(() => {
  S.E.h.server.config.models = null;
});

test("GET /v1/models and /v1/embed/models: the offered models whose provider the server reaches, in OpenAI's list shape", async () => {
  const { config } = S.E.h.server;
  config.models = configFromEnv({ TESSERA_MODELS: "openai/gpt-test, anthropic/claude-test,google/gemini-test,openai/gpt-test,mistral/unreachable" }).models;
  const saved = config.providers.OPENROUTER_API_KEY;
  delete config.providers.OPENROUTER_API_KEY; // mistral/… goes through the aggregator, now without a key
  try {
    const ids = (await S.client.models.list()).data.map((m) => [m.id, m.object, m.owned_by, typeof m.created]);
    expect(ids).toEqual([
      ["openai/gpt-test", "model", "openai", "number"],
      ["anthropic/claude-test", "model", "anthropic", "number"],
      ["google/gemini-test", "model", "google", "number"],
    ]);
    const root = new OpenAI({ baseURL: `${S.E.h.base}/v1`, apiKey: S.key, maxRetries: 0 });
    expect((await root.models.list()).data.map((m) => m.id)).toEqual(ids.map((i) => i[0]));
    expect((await S.client.models.retrieve("anthropic/claude-test")).owned_by).toBe("anthropic");
    const raw = await fetch(`${S.E.h.base}/v1/models/openai/gpt-test`, { headers: { authorization: `Bearer ${S.key}` } });
    expect((await raw.json()).id).toBe("openai/gpt-test");
    const missing = await S.client.models.retrieve("mistral/unreachable").catch((e) => e);
    expect(missing.status).toBe(404);
  } finally {
    config.providers.OPENROUTER_API_KEY = saved;
  }
  const anonymous = await fetch(`${S.E.h.base}/v1/embed/models`);
  expect(anonymous.status).toBe(401);
});

test("TESSERA_MODELS unset: any model of a reachable provider is taken, and the list is empty", async () => {
  expect((await S.client.models.list()).data).toEqual([]);
  S.E.openai.queue.push({ text: "hi" });
  const out = await S.client.chat.completions.create({ model: "openai/anything", messages: [{ role: "user", content: "x" }] });
  expect(out.choices[0]!.message.content).toBe("hi");
});

test("a model the operator does not offer is a 404 naming the model, on Embed and Responses; the provider is never called", async () => {
  S.E.h.server.config.models = ["openai/gpt-test"];
  const before = await S.E.h.credits("models");
  const chat = await S.client.chat.completions.create({ model: "openai/gpt-other", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
  expect(chat.status).toBe(404);
  expect(chat.code).toBe("model_not_found");
  expect(chat.param).toBe("model");
  const resp = await S.client.responses.create({ model: "anthropic/claude-test", input: "x" }).catch((e) => e);
  expect(resp.status).toBe(404);
  expect(S.E.openai.calls.length + S.E.anthropic.calls.length).toBe(0);
  expect(await S.E.h.credits("models")).toBe(before);
  S.E.openai.queue.push({ text: "offered" });
  expect((await S.client.chat.completions.create({ model: "openai/gpt-test", messages: [{ role: "user", content: "x" }] })).choices[0]!.message.content).toBe(
    "offered",
  );
});

test("one client at {base}/v1/embed: a response stored in a conversation, read back through Conversations", async () => {
  const conversation = await S.client.conversations.create({ metadata: { title: "Orders" } });
  expect(conversation.id).toMatch(/^conv_/);
  S.E.openai.queue.push({ text: "first answer" });
  const response = await S.client.responses.create({ model: "openai/gpt-test", input: "first question", conversation: conversation.id });
  expect(response.output_text).toBe("first answer");
  const items = await S.client.conversations.items.list(conversation.id, { order: "asc" });
  const texts = items.data.map((i) => JSON.stringify(i));
  expect(texts.some((t) => t.includes("first question"))).toBe(true);
  expect(texts.some((t) => t.includes("first answer"))).toBe(true);
  expect((await S.client.conversations.retrieve(conversation.id)).metadata).toEqual({ title: "Orders" });
  // The same conversation under /v1.
  const root = new OpenAI({ baseURL: `${S.E.h.base}/v1`, apiKey: S.key, maxRetries: 0 });
  expect((await root.conversations.retrieve(conversation.id)).id).toBe(conversation.id);
  await S.client.conversations.delete(conversation.id);
  expect((await root.conversations.retrieve(conversation.id).catch((e) => e)).status).toBe(404);
});

test("POST /v1/encryption/encrypt seals a key as /encryption/encrypt does; Embed opens it", async () => {
  const res = await post(S.E.h.base, "/v1/encryption/encrypt", S.key, { provider: "openai", apiKey: "sk-user-v1" });
  expect(res.status).toBe(200);
  const { encryptedApiKey } = await res.json();
  const chat = await post(S.E.h.base, "/v1/embed/chat/completions", S.key, {
    model: "openai/gpt-test",
    messages: [{ role: "user", content: "x" }],
    byok: { provider: "openai", encryptedApiKey },
  });
  expect(chat.status).toBe(200);
  expect(S.E.openai.calls.at(-1)!.headers.authorization).toBe("Bearer sk-user-v1");
});

test("CORS covers Conversations and the models list under /v1/embed too, errors included", async () => {
  const origin = "https://app.example";
  S.E.h.server.config.corsOrigins = [origin];
  try {
    for (const path of ["/v1/embed/conversations", "/v1/embed/conversations/conv_nope", "/v1/embed/models", "/v1/models"]) {
      const pre = await fetch(`${S.E.h.base}${path}`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "GET" } });
      expect([path, pre.status, pre.headers.get("access-control-allow-origin")]).toEqual([path, 204, origin]);
      const res = await fetch(`${S.E.h.base}${path}`, { headers: { origin, authorization: `Bearer ${S.key}` } });
      expect([path, res.headers.get("access-control-allow-origin")]).toEqual([path, origin]);
    }
    const elsewhere = await fetch(`${S.E.h.base}/v1/embed/models`, { headers: { origin: "https://evil.example", authorization: `Bearer ${S.key}` } });
    expect(elsewhere.headers.get("access-control-allow-origin")).toBeNull();
  } finally {
    S.E.h.server.config.corsOrigins = [];
  }
});

test("a TESSERA_MODELS entry that is not {provider}/{model} stops the server at start, naming it", () => {
  expect(() => configFromEnv({ TESSERA_MODELS: "openai/gpt-test, gpt-4o" })).toThrow(
    'TESSERA_MODELS must list {provider}/{model} ids (e.g. openai/gpt-4.1-mini), got "gpt-4o"',
  );
  expect(configFromEnv({ TESSERA_MODELS: "openai/gpt-test" }).port).toBe(8787);
});
