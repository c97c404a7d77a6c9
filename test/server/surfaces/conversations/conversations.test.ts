// Conversations over real HTTP: exact paging on thousands of items, concurrent turns, isolation
// between organizations and between frontend-token users, token checks and CORS.
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { findOrganizationByName } from "../../../../src/db/index.ts";
import { mintToken } from "../../../../src/server/crypto/frontend-tokens.ts";
import { startEmbedHarness, type EmbedHarness } from "../../embed-harness.ts";

let e: EmbedHarness;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  e = await startEmbedHarness();
  keyA = await e.h.org("conv-a", 100);
  keyB = await e.h.org("conv-b", 100);
  e.h.server.config.corsOrigins = ["https://app.example"];
});
afterAll(() => e.close());

const v1 = (key: string) => new OpenAI({ baseURL: `${e.h.base}/v1`, apiKey: key, maxRetries: 0 });
const embed = (key: string) => new OpenAI({ baseURL: `${e.h.base}/v1/embed`, apiKey: key, maxRetries: 0 });
const fails = (p: PromiseLike<unknown>) =>
  Promise.resolve(p).then(
    () => null,
    (x) => x,
  );
const call = (method: string, path: string, bearer: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${e.h.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
/** GET /v1/conversations (no call of the official client: OpenAI has no such list). */
async function listIds(bearer: string): Promise<string[]> {
  const res = await call("GET", "/v1/conversations?limit=100", bearer);
  expect(res.status).toBe(200);
  return (await res.json()).data.map((c: { id: string }) => c.id);
}
async function token(key: string, user: string, scopes?: string[]): Promise<string> {
  const res = await call("POST", "/v1/frontend-tokens", key, { user, ...(scopes ? { scopes } : {}) });
  expect(res.status).toBe(200);
  return (await res.json()).token;
}

test("every conversations.* call of the official client", async () => {
  const c = v1(keyA);
  const conv = await c.conversations.create({ metadata: { topic: "demo" }, items: [{ type: "message", role: "user", content: "hello" }] });
  expect(conv).toMatchObject({ object: "conversation", metadata: { topic: "demo" } });
  expect(conv.id.startsWith("conv_")).toBe(true);
  expect((await c.conversations.retrieve(conv.id)).id).toBe(conv.id);
  expect((await c.conversations.update(conv.id, { metadata: { topic: "changed" } })).metadata).toEqual({ topic: "changed" });
  const added = await c.conversations.items.create(conv.id, {
    items: [
      { type: "message", role: "assistant", content: "hi!" },
      { type: "message", role: "user", content: "bye" },
    ],
  });
  expect(added.data).toHaveLength(2);
  const listed = await c.conversations.items.list(conv.id, { order: "asc" });
  expect(listed.data.map((i: any) => i.content[0].text)).toEqual(["hello", "hi!", "bye"]);
  const one = await c.conversations.items.retrieve(added.data[0]!.id!, { conversation_id: conv.id });
  expect((one as any).content[0].text).toBe("hi!");
  const after = await c.conversations.items.delete(added.data[0]!.id!, { conversation_id: conv.id });
  expect(after).toMatchObject({ id: conv.id, object: "conversation" });
  expect((await c.conversations.items.list(conv.id)).data.map((i: any) => i.content[0].text)).toEqual(["bye", "hello"]);
  expect(await c.conversations.delete(conv.id)).toEqual({ id: conv.id, object: "conversation.deleted", deleted: true });
  expect(await fails(c.conversations.retrieve(conv.id))).toMatchObject({ status: 404 });
  const left = await e.h.server.db.selectFrom("conversation_items").select("id").where("conversation_id", "=", conv.id).execute();
  expect(left).toEqual([]);
});

test("paging 2,500 items is exact in both orders: each item once, has_more false only at the end", async () => {
  const c = v1(keyA);
  const conv = await c.conversations.create({});
  const texts = Array.from({ length: 2500 }, (_, i) => `n${i}`);
  for (let i = 0; i < texts.length; i += 20) {
    await c.conversations.items.create(conv.id, {
      items: texts.slice(i, i + 20).map((t) => ({ type: "message" as const, role: "user" as const, content: t })),
    });
  }
  for (const order of ["asc", "desc"] as const) {
    const seen: string[] = [];
    for await (const item of c.conversations.items.list(conv.id, { order, limit: 100 })) seen.push((item as any).content[0].text);
    expect(seen).toEqual(order === "asc" ? texts : [...texts].reverse());
  }
  const page = await (await call("GET", `/v1/conversations/${conv.id}/items?limit=3`, keyA)).json();
  expect(page.data).toHaveLength(3);
  expect(page).toMatchObject({ object: "list", has_more: true, first_id: page.data[0].id, last_id: page.data[2].id });
  const last = await (await call("GET", `/v1/conversations/${conv.id}/items?order=asc&after=${page.data[2].id}&limit=1`, keyA)).json();
  expect(last.data[0].content[0].text).toBe("n2498");
});

test("50 concurrent turns on one conversation keep every item exactly once, each turn's input before its output", async () => {
  const c = v1(keyA);
  const r = embed(keyA);
  const conv = await c.conversations.create({});
  await Promise.all(Array.from({ length: 50 }, (_, i) => r.responses.create({ model: "openai/gpt-x", input: `turn ${i}`, conversation: conv.id })));
  const items: any[] = [];
  for await (const item of c.conversations.items.list(conv.id, { order: "asc", limit: 100 })) items.push(item);
  expect(items).toHaveLength(100);
  expect(new Set(items.map((i) => i.id)).size).toBe(100);
  const inputs = items.filter((i) => i.role === "user").map((i) => i.content[0].text);
  expect(new Set(inputs).size).toBe(50);
  for (let k = 0; k < 100; k += 2) {
    expect(items[k].role).toBe("user");
    expect(items[k + 1].role).toBe("assistant");
  }
});

test("a turn through a conversation continues it; a failed turn appends nothing", async () => {
  const c = v1(keyA);
  const r = embed(keyA);
  const conv = await c.conversations.create({ items: [{ type: "message", role: "user", content: "my name is Ada" }] });
  e.openai.queue.push({ text: "Hello Ada", toolCalls: [{ id: "call_w", name: "lookup", arguments: '{"q":"Ada"}' }] });
  const first = await r.responses.create({
    model: "openai/gpt-x",
    input: "look me up",
    conversation: conv.id,
    tools: [{ type: "function", name: "lookup", parameters: { type: "object" }, strict: false }],
  });
  expect(first.conversation).toEqual({ id: conv.id });
  const call1 = first.output.find((o) => o.type === "function_call") as any;
  await r.responses.create({
    model: "openai/gpt-x",
    input: [{ type: "function_call_output", call_id: call1.call_id, output: "found" }],
    conversation: conv.id,
  });
  const sent = e.openai.calls.at(-1)!.body.messages;
  expect(sent.map((m: any) => m.role)).toEqual(["user", "user", "assistant", "tool"]);
  const count = async () => (await c.conversations.items.list(conv.id, { limit: 100 })).data.length;
  const n = await count();
  e.openai.queue.push({ status: 500, errorMessage: "boom" });
  expect(await fails(r.responses.create({ model: "openai/gpt-x", input: "fail", conversation: conv.id }))).toMatchObject({ status: 502 });
  e.openai.queue.push({ text: "partial", failMidStream: "close" });
  const s = r.responses.stream({ model: "openai/gpt-x", input: "fail mid-stream", conversation: conv.id });
  await fails(s.finalResponse());
  expect(await count()).toBe(n);
});

test("isolation: another organization's conversations and responses are 404s, as if they never existed", async () => {
  const a = v1(keyA);
  const b = v1(keyB);
  const conv = await a.conversations.create({ items: [{ type: "message", role: "user", content: "private" }] });
  const resp = await embed(keyA).responses.create({ model: "openai/gpt-x", input: "private too" });
  for (const p of [
    () => b.conversations.retrieve(conv.id),
    () => b.conversations.update(conv.id, { metadata: {} }),
    () => b.conversations.delete(conv.id),
    () => b.conversations.items.list(conv.id),
    () => b.conversations.items.create(conv.id, { items: [{ type: "message", role: "user", content: "x" }] }),
    () => embed(keyB).responses.retrieve(resp.id),
    () => embed(keyB).responses.inputItems.list(resp.id),
  ])
    expect(await fails(p())).toMatchObject({ status: 404 });
  expect((await call("DELETE", `/v1/embed/responses/${resp.id}`, keyB)).status).toBe(404);
  expect(await fails(embed(keyB).responses.create({ model: "openai/gpt-x", input: "x", previous_response_id: resp.id }))).toMatchObject({ status: 400 });
  expect(await fails(embed(keyB).responses.create({ model: "openai/gpt-x", input: "x", conversation: conv.id }))).toMatchObject({ status: 404 });
  expect(await listIds(keyB)).not.toContain(conv.id);
  // and the owner still reaches its own after the refusals
  expect((await a.conversations.items.list(conv.id)).data).toHaveLength(1);
  expect((await embed(keyA).responses.retrieve(resp.id)).id).toBe(resp.id);
});

test("frontend tokens: a user sees only their conversations; scopes; other routes 403; expired or altered 401", async () => {
  const ada = await token(keyA, "ada");
  const bob = await token(keyA, "bob");
  const adaReader = await token(keyA, "ada", ["conversations:read"]);
  const mine = await v1(ada).conversations.create({ items: [{ type: "message", role: "user", content: "ada's" }] });
  const byKey = await v1(keyA).conversations.create({ user: "bob" } as any);
  expect((await v1(bob).conversations.retrieve(byKey.id)).id).toBe(byKey.id);
  expect(await fails(v1(bob).conversations.retrieve(mine.id))).toMatchObject({ status: 404 });
  expect(await fails(v1(bob).conversations.items.list(mine.id))).toMatchObject({ status: 404 });
  expect(await fails(v1(bob).conversations.delete(mine.id))).toMatchObject({ status: 404 });
  expect(await listIds(bob)).toEqual([byKey.id]);
  expect(await listIds(ada)).toEqual([mine.id]);
  // the API key sees both, newest first
  const all = await listIds(keyA);
  expect(all.indexOf(byKey.id)).toBeLessThan(all.indexOf(mine.id));
  // read scope only: reads pass, writes are 403 permission_error
  expect((await v1(adaReader).conversations.items.list(mine.id)).data).toHaveLength(1);
  const denied = await call("POST", `/v1/conversations/${mine.id}/items`, adaReader, { items: [{ role: "user", content: "x" }] });
  expect(denied.status).toBe(403);
  expect((await denied.json()).error.type).toBe("permission_error");
  // every other route refuses a token
  for (const [method, path] of [
    ["POST", "/v1/embed/responses"],
    ["POST", "/v1/embed/chat/completions"],
    ["POST", "/v1/autofix"],
    ["GET", "/v1/monitoring/reliability"],
    ["POST", "/encryption/encrypt"],
    ["POST", "/v1/frontend-tokens"],
    ["GET", "/v1/embed/responses/resp_x"],
  ]) {
    const res = await call(method!, path!, ada, method === "POST" ? {} : undefined);
    expect([path, res.status]).toEqual([path, 403]);
  }
  const org = (await findOrganizationByName(e.h.server.db, "conv-a"))!;
  const expired = await mintToken(e.h.server.keys, {
    organizationId: org.id,
    userId: "ada",
    scopes: ["conversations:read"],
    expiresAt: Math.floor(Date.now() / 1000) - 1,
  });
  expect((await call("GET", "/v1/conversations", expired)).status).toBe(401);
  const altered = ada.slice(0, 10) + (ada[10] === "A" ? "B" : "A") + ada.slice(11);
  expect((await call("GET", "/v1/conversations", altered)).status).toBe(401);
  const forged = ada.replace(/\.[^.]+$/, ".AAAA");
  expect((await call("GET", "/v1/conversations", forged)).status).toBe(401);
  expect((await call("POST", "/v1/frontend-tokens", keyA, { user: "x", ttl_seconds: 5 })).status).toBe(400);
  const minted = await (await call("POST", "/v1/frontend-tokens", keyA, { user: "x", ttl_seconds: 60 })).json();
  expect(minted.expires_at - Math.floor(Date.now() / 1000)).toBeGreaterThan(55);
});

test("CORS on the conversations routes: preflight, and headers on errors too; none for other origins", async () => {
  const pre = await fetch(`${e.h.base}/v1/conversations`, {
    method: "OPTIONS",
    headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
  });
  expect(pre.status).toBe(204);
  expect(pre.headers.get("access-control-allow-origin")).toBe("https://app.example");
  expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
  expect(pre.headers.get("access-control-allow-headers")).toContain("authorization");
  const err = await call("GET", "/v1/conversations/conv_nope", keyA, undefined, { origin: "https://app.example" });
  expect(err.status).toBe(404);
  expect(err.headers.get("access-control-allow-origin")).toBe("https://app.example");
  const unauth = await fetch(`${e.h.base}/v1/conversations`, { headers: { origin: "https://app.example" } });
  expect(unauth.status).toBe(401);
  expect(unauth.headers.get("access-control-allow-origin")).toBe("https://app.example");
  const other = await call("GET", "/v1/conversations", keyA, undefined, { origin: "https://evil.example" });
  expect(other.headers.get("access-control-allow-origin")).toBeNull();
});
