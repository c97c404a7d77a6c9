// Frontend tokens running model turns from a browser: scopes, the model allow-list (403), the
// lifetime budget kept in the database (429, never overspent by concurrent calls), the user's own
// conversations and responses only (404 for another's), both header forms, and CORS on every
// route a token may call, errors included. On SQLite, and on PostgreSQL with TESSERA_TEST_DB=postgres.
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { tokenBudget } from "../../../../src/db/index.ts";
import { verifyToken } from "../../../../src/server/crypto/frontend-tokens.ts";
import { eventually } from "../../../support/eventually.ts";
import { startEmbedHarness, type EmbedHarness } from "../../embed-harness.ts";

let e: EmbedHarness;
let key: string;
const MODEL = "openai/gpt-stand-in";
const ORIGIN = "https://app.example";

beforeAll(async () => {
  e = await startEmbedHarness();
  key = await e.h.org("tokens", 1000);
  e.h.server.config.corsOrigins = [ORIGIN];
});
afterAll(() => e.close());

const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${e.h.base}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const bearer = (t: string): Record<string, string> => ({ authorization: `Bearer ${t}` });

async function mint(body: Record<string, unknown>) {
  const res = await call("POST", "/v1/frontend-tokens", bearer(key), body);
  expect(res.status).toBe(200);
  return (await res.json()) as { token: string; expires_at: number; user: string; user_id: string; scopes: string[]; models?: string[]; max_credits?: number };
}

const turn = (t: string, body: Record<string, unknown> = {}, headers: Record<string, string> = bearer(t)) =>
  call("POST", "/v1/embed/responses", headers, { model: MODEL, input: "hello", ...body });

test("minting: user or user_id, the new scopes, models and max_credits; without scopes only conversations", async () => {
  const a = await mint({
    user_id: "ada",
    scopes: ["responses:create", "chat:create", "artifacts:read", "artifacts:write", "conversations:read"],
    models: [MODEL],
    max_credits: 10,
  });
  expect(a).toMatchObject({ user: "ada", user_id: "ada", models: [MODEL], max_credits: 10 });
  const claims = await verifyToken(e.h.server.keys, a.token);
  expect(claims.ok && claims.claims).toMatchObject({ userId: "ada", models: [MODEL], maxCredits: 10 });
  const plain = await mint({ user: "bob" });
  expect(plain.scopes).toEqual(["conversations:read", "conversations:write"]);
  expect((await turn(plain.token)).status).toBe(403);
  for (const bad of [
    {},
    { user: "a", user_id: "b" },
    { user: "a", models: ["no-provider"] },
    { user: "a", models: [] },
    { user: "a", max_credits: -1 },
    { user: "a", max_credits: 1.5 },
    { user: "a", scopes: ["responses:delete"] },
  ]) {
    const res = await call("POST", "/v1/frontend-tokens", bearer(key), bad);
    expect([JSON.stringify(bad), res.status]).toEqual([JSON.stringify(bad), 400]);
    expect((await res.json()).error.message).toBeString();
  }
});

test("responses:create: turns in the user's own conversations and continuations only; another user's are 404", async () => {
  const ada = (await mint({ user: "ada", scopes: ["responses:create", "conversations:read", "conversations:write"] })).token;
  const bob = (await mint({ user: "bob", scopes: ["responses:create", "conversations:read", "conversations:write"] })).token;
  const conv = await (await call("POST", "/v1/conversations", bearer(ada), { title: "Ada's" })).json();
  const first = await turn(ada, { conversation: conv.id });
  expect(first.status).toBe(200);
  const items = await (await call("GET", `/v1/conversations/${conv.id}/items?order=asc`, bearer(ada))).json();
  expect(items.data.map((i: { role: string }) => i.role)).toEqual(["user", "assistant"]);
  // Bob: Ada's conversation and Ada's response do not exist for him.
  const other = await turn(bob, { conversation: conv.id });
  expect(other.status).toBe(404);
  const standalone = await (await turn(ada)).json();
  expect((await turn(bob, { previous_response_id: standalone.id })).status).toBe(404);
  expect((await turn(ada, { previous_response_id: standalone.id })).status).toBe(200);
  // A response the API key made belongs to no user: a token cannot continue it either.
  const byKey = await (await turn(key)).json();
  expect((await turn(ada, { previous_response_id: byKey.id })).status).toBe(404);
  // The token's header form, as OpenUI's cloud storage sends it.
  expect((await turn(ada, { conversation: conv.id }, { "x-thesys-frontend-token": ada })).status).toBe(200);
  expect((await turn(ada, {}, { "x-thesys-frontend-token": "tft_forged.AAAA" })).status).toBe(401);
  // Another scope is not enough, and the official client works with a token as its key.
  const reader = (await mint({ user: "ada", scopes: ["conversations:read"] })).token;
  expect((await turn(reader)).status).toBe(403);
  const client = new OpenAI({ baseURL: `${e.h.base}/v1/embed`, apiKey: ada, maxRetries: 0 });
  const r = await client.responses.create({ model: MODEL, input: "hi", conversation: conv.id });
  expect(r.status).toBe("completed");
});

test("chat:create reaches Embed; a model outside the token's list is 403 on both surfaces", async () => {
  const t = (await mint({ user: "ada", scopes: ["chat:create", "responses:create"], models: [MODEL] })).token;
  const embed = new OpenAI({ baseURL: `${e.h.base}/v1/embed`, apiKey: t, maxRetries: 0 });
  const done = await embed.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] });
  expect(done.choices[0]!.message.content).toBeString();
  const refused = await call("POST", "/v1/embed/chat/completions", bearer(t), {
    model: "anthropic/claude-stand-in",
    messages: [{ role: "user", content: "hi" }],
  });
  expect(refused.status).toBe(403);
  expect((await refused.json()).error).toMatchObject({ code: "model_not_allowed", param: "model" });
  expect((await turn(t, { model: "anthropic/claude-stand-in" })).status).toBe(403);
  const noChat = (await mint({ user: "ada", scopes: ["responses:create"] })).token;
  expect((await call("POST", "/v1/embed/chat/completions", bearer(noChat), { model: MODEL, messages: [{ role: "user", content: "hi" }] })).status).toBe(403);
});

test("max_credits: spent in the database, never past the limit by concurrent calls; then 429", async () => {
  e.h.server.config.embedPrice = 3;
  try {
    const minted = await mint({ user: "ada", scopes: ["chat:create"], max_credits: 7 });
    const claims = await verifyToken(e.h.server.keys, minted.token);
    const id = claims.ok ? claims.claims.id! : "";
    const body = { model: MODEL, messages: [{ role: "user", content: "hi" }] };
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => call("POST", "/v1/embed/chat/completions", bearer(minted.token), body).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    expect(await tokenBudget(e.h.server.db, id)).toEqual({ spent: 6, max_credits: 7 });
    const over = await call("POST", "/v1/embed/chat/completions", bearer(minted.token), body);
    expect(over.status).toBe(429);
    expect((await over.json()).error.code).toBe("token_budget_exhausted");
    expect(over.headers.get("x-should-retry")).toBe("false");
    // A call that ends uncharged (the provider failed) gives the token its share back.
    const other = await mint({ user: "ada", scopes: ["chat:create"], max_credits: 3 });
    const otherId = ((await verifyToken(e.h.server.keys, other.token)) as { claims: { id: string } }).claims.id;
    e.openai.queue.push({ status: 500, errorMessage: "provider down" });
    expect((await call("POST", "/v1/embed/chat/completions", bearer(other.token), body)).status).toBe(502);
    const budget = await eventually(
      () => tokenBudget(e.h.server.db, otherId),
      (b) => b?.spent === 0,
      { what: "the token's share back" },
    );
    expect(budget).toEqual({ spent: 0, max_credits: 3 });
    expect((await call("POST", "/v1/embed/chat/completions", bearer(other.token), body)).status).toBe(200);
    // A token without a budget of its own spends only the organization's credits.
    const free = (await mint({ user: "ada", scopes: ["chat:create"] })).token;
    expect((await call("POST", "/v1/embed/chat/completions", bearer(free), body)).status).toBe(200);
  } finally {
    e.h.server.config.embedPrice = 0;
  }
});

test("CORS on every route a token may call, errors and streams included; the token header may be sent", async () => {
  const t = (await mint({ user: "ada", scopes: ["responses:create", "chat:create", "conversations:read", "conversations:write"], models: [MODEL] })).token;
  for (const path of ["/v1/embed/responses", "/v1/embed/chat/completions", "/v1/conversations"]) {
    const pre = await fetch(`${e.h.base}${path}`, {
      method: "OPTIONS",
      headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "x-thesys-frontend-token, content-type" },
    });
    expect([path, pre.status, pre.headers.get("access-control-allow-origin")]).toEqual([path, 204, ORIGIN]);
    expect(pre.headers.get("access-control-allow-headers")).toContain("x-thesys-frontend-token");
  }
  const refused = await turn(t, { model: "anthropic/claude-stand-in" }, { ...bearer(t), origin: ORIGIN });
  expect(refused.status).toBe(403);
  expect(refused.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  const streamed = await turn(t, { stream: true }, { ...bearer(t), origin: ORIGIN });
  expect(streamed.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  expect(await streamed.text()).toContain("response.completed");
  const other = await turn(t, {}, { ...bearer(t), origin: "https://evil.example" });
  expect(other.headers.get("access-control-allow-origin")).toBeNull();
});
