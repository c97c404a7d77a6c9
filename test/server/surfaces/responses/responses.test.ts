// Responses over real HTTP with the official client, against the stand-in providers: storage,
// chains, deletion, paging, broken streams, background runs, managed UI and billing.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import OpenAI from "openai";
import { findOrganizationByName } from "../../../../src/db/index.ts";
import { eventually } from "../../../support/eventually.ts";
import { startSlowOpenAI, type SlowOpenAI } from "../../../support/slow-openai.ts";
import { startEmbedHarness, type EmbedHarness } from "../../embed-harness.ts";
import { CONFIG } from "../../harness.ts";

let e: EmbedHarness;
let key: string;
let client: OpenAI;
let slow: SlowOpenAI;

beforeAll(async () => {
  e = await startEmbedHarness();
  key = await e.h.org("resp-acme", 1000);
  client = new OpenAI({ baseURL: `${e.h.base}/v1/embed`, apiKey: key, maxRetries: 0 });
  slow = startSlowOpenAI();
});
afterAll(async () => {
  slow.stop();
  await e.close();
});
beforeEach(() => {
  e.reset();
  e.h.server.config.responsesPrice = 0;
});

/** The error a call fails with (the client's APIPromise is not a plain promise for `expect().rejects`). */
const fails = (p: PromiseLike<unknown>) =>
  Promise.resolve(p).then(
    () => null,
    (x) => x,
  );

const raw = (path: string, init: RequestInit = {}) =>
  fetch(`${e.h.base}/v1/embed${path}`, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(init.headers ?? {}) } });

/** Every SSE event of a response body, as parsed JSON (event name checked against its type). */
async function sseEvents(res: Response): Promise<any[]> {
  const text = await res.text();
  const out: any[] = [];
  for (const block of text.split("\n\n")) {
    const ev = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (!data || data === "[DONE]") continue;
    const json = JSON.parse(data);
    expect(ev).toBe(json.type);
    out.push(json);
  }
  return out;
}

test("store:false is neither retrievable nor continuable; stored ones are, at once", async () => {
  const kept = await client.responses.create({ model: "openai/gpt-x", input: "remember: cobalt" });
  expect((await client.responses.retrieve(kept.id)).output_text).toBe(kept.output_text);
  const next = await client.responses.create({ model: "openai/gpt-x", input: "what was it?", previous_response_id: kept.id });
  expect(next.previous_response_id).toBe(kept.id);

  const transient = await client.responses.create({ model: "openai/gpt-x", input: "secret", store: false });
  expect((transient as unknown as { store: boolean }).store).toBe(false);
  expect(await fails(client.responses.retrieve(transient.id))).toMatchObject({ status: 404 });
  expect(await fails(client.responses.create({ model: "openai/gpt-x", input: "go on", previous_response_id: transient.id }))).toMatchObject({
    status: 400,
    code: "previous_response_not_found",
  });
});

test("a chain of 30 reaches the provider whole and in order: input, output, next input", async () => {
  let prev: string | undefined;
  for (let i = 0; i < 30; i++) {
    e.openai.queue.push({ text: `answer ${i}` });
    const r = await client.responses.create({ model: "openai/gpt-x", input: `question ${i}`, previous_response_id: prev });
    prev = r.id;
  }
  const sent = e.openai.calls.at(-1)!.body.messages.map((m: any) => (typeof m.content === "string" ? m.content : m.content[0].text));
  const expected: string[] = [];
  for (let i = 0; i < 30; i++) expected.push(`question ${i}`, ...(i < 29 ? [`answer ${i}`] : []));
  expect(sent).toEqual(expected);
});

test("delete removes the response and its items; another delete is a 404", async () => {
  const r = await client.responses.create({ model: "anthropic/claude", input: "to be deleted" });
  const del = await raw(`/responses/${r.id}`, { method: "DELETE" });
  expect(await del.json()).toEqual({ id: r.id, object: "response.deleted", deleted: true });
  expect(await fails(client.responses.retrieve(r.id))).toMatchObject({ status: 404 });
  expect((await raw(`/responses/${r.id}/input_items`)).status).toBe(404);
  expect((await raw(`/responses/${r.id}`, { method: "DELETE" })).status).toBe(404);
  const rows = await e.h.server.db.selectFrom("response_items").select("id").where("response_id", "=", r.id).execute();
  expect(rows).toEqual([]);
});

test("input items page exactly in both orders, and the client's auto-pager sees every one once", async () => {
  const input = Array.from({ length: 45 }, (_, i) => ({ role: "user" as const, content: `item ${i}` }));
  const r = await client.responses.create({ model: "openai/gpt-x", input });
  const all: string[] = [];
  for await (const item of client.responses.inputItems.list(r.id, { limit: 10 })) all.push((item as any).content[0].text);
  expect(all).toEqual(input.map((i) => i.content).reverse());
  const asc: string[] = [];
  for await (const item of client.responses.inputItems.list(r.id, { limit: 7, order: "asc" })) asc.push((item as any).content[0].text);
  expect(asc).toEqual(input.map((i) => i.content));
  const page = await (await raw(`/responses/${r.id}/input_items?limit=100&order=asc`)).json();
  expect(page).toMatchObject({ object: "list", has_more: false, first_id: page.data[0].id, last_id: page.data[44].id });
  expect((await raw(`/responses/${r.id}/input_items?limit=101`)).status).toBe(400);
});

test("a stream the provider breaks ends in response.failed with the error, stored as failed, not charged", async () => {
  e.h.server.config.responsesPrice = 3;
  const before = await e.h.credits("resp-acme");
  for (const [model, fake] of [
    ["openai/gpt-x", e.openai],
    ["anthropic/claude", e.anthropic],
    ["google/gemini", e.gemini],
  ] as const) {
    for (const how of ["close", "event"] as const) {
      fake.queue.push({ text: "partial answer here", failMidStream: how });
      const res = await raw("/responses", { method: "POST", body: JSON.stringify({ model, input: "hi", stream: true }) });
      expect(res.status).toBe(200);
      const events = await sseEvents(res);
      expect(events.map((x) => x.sequence_number)).toEqual(events.map((_, i) => i));
      const last = events.at(-1);
      expect(last.type).toBe("response.failed");
      expect(last.response.status).toBe("failed");
      expect(last.response.error.message.length).toBeGreaterThan(0);
      expect((await client.responses.retrieve(last.response.id)).status).toBe("failed");
    }
  }
  expect(await e.h.credits("resp-acme")).toBe(before);
});

test("billing: each completed response costs the price, streamed and background too; 429 without credits", async () => {
  e.h.server.config.responsesPrice = 2;
  const key2 = await e.h.org("resp-payer", 7);
  const c2 = new OpenAI({ baseURL: `${e.h.base}/v1/embed`, apiKey: key2, maxRetries: 0 });
  await c2.responses.create({ model: "openai/gpt-x", input: "one" });
  const stream = c2.responses.stream({ model: "openai/gpt-x", input: "two" });
  await stream.finalResponse();
  const bg = await c2.responses.create({ model: "openai/gpt-x", input: "three", background: true });
  await eventually(
    () => c2.responses.retrieve(bg.id),
    (x) => x.status === "completed",
  );
  expect(await e.h.credits("resp-payer")).toBe(1);
  const err = await c2.responses.create({ model: "openai/gpt-x", input: "three" }).catch((x) => x);
  expect(err.status).toBe(429);
  expect(err.headers.get("x-should-retry")).toBe("false");
  // The credits above needed no wait: a run's end and its charge are one transaction. Request logs
  // are written just after the answers (a queue), so they are read once the server is idle.
  await e.h.server.idle();
  const org = (await findOrganizationByName(e.h.server.db, "resp-payer"))!;
  const logs = await e.h.server.db
    .selectFrom("request_logs")
    .select(["input_tokens", "output_tokens", "charge"])
    .where("organization_id", "=", org.id)
    .where("status", "=", 200)
    .execute();
  expect(logs).toHaveLength(3);
  expect(logs.every((l) => l.input_tokens === 11 && l.output_tokens === 7 && l.charge === 2)).toBe(true);
});

test("background: queued at once, progress while it runs, the whole result at the end, replay and resume", async () => {
  e.h.server.config.providers.LOCAL_BASE_URL = slow.url;
  const r = await client.responses.create({ model: "local/slow", input: "long job", background: true });
  expect(["queued", "in_progress"]).toContain(r.status as string);
  expect(r.background).toBe(true);
  const seen = await eventually(
    () => client.responses.retrieve(r.id),
    (x) => x.status !== "queued" && x.status !== "in_progress",
  );
  expect(seen.status).toBe("completed");
  expect(seen.output_text.trim().split(" ")).toHaveLength(40);

  const replay = await sseEvents(await raw(`/responses/${r.id}?stream=true`));
  expect(replay[0].type).toBe("response.created");
  expect(replay.map((x) => x.sequence_number)).toEqual(replay.map((_, i) => i));
  expect(replay.at(-1)).toMatchObject({ type: "response.completed", response: { id: r.id, status: "completed" } });
  const resumed = await sseEvents(await raw(`/responses/${r.id}?stream=true&starting_after=10`));
  expect(resumed[0].sequence_number).toBe(11);
  expect(resumed.length).toBe(replay.length - 11);
});

test("cancel: idempotent, answers the cancelled response, not charged; a 400 for a response not in the background", async () => {
  e.h.server.config.providers.LOCAL_BASE_URL = slow.url;
  e.h.server.config.responsesPrice = 4;
  const before = await e.h.credits("resp-acme");
  const r = await client.responses.create({ model: "local/slow", input: "cancel me", background: true });
  await eventually(
    () => client.responses.retrieve(r.id),
    (x) => x.status === "in_progress",
  );
  const c1 = await client.responses.cancel(r.id);
  expect(c1.status).toBe("cancelled");
  const c2 = await client.responses.cancel(r.id);
  expect(c2.status).toBe("cancelled");
  await e.h.server.idle(); // the run has seen the cancel and ended
  expect((await client.responses.retrieve(r.id)).status).toBe("cancelled");
  expect(await e.h.credits("resp-acme")).toBe(before);
  e.h.server.config.responsesPrice = 0;

  const fg = await client.responses.create({ model: "openai/gpt-x", input: "not background" });
  expect(await fails(client.responses.cancel(fg.id))).toMatchObject({ status: 400 });
});

test("managed UI: a config block as instructions; the broken program is repaired before it is stored and streamed out", async () => {
  const broken = `root = Stack([greeting])\ngreeting = TEXT("Hello", "large")`;
  e.openai.queue.push({ text: broken });
  const stream = client.responses.stream({ model: "openai/ui-model", instructions: CONFIG, input: "greet me" });
  const dones: string[] = [];
  stream.on("response.output_text.done", (ev) => dones.push(ev.text));
  const final = await stream.finalResponse();
  const fixed = `root = Stack([greeting])\ngreeting = Text("Hello", "large")`;
  expect(dones).toEqual([fixed]);
  expect(final.output_text).toBe(fixed);
  expect((await client.responses.retrieve(final.id)).output_text).toBe(fixed);
  const sentSystem = e.openai.calls.at(-1)!.body.messages[0];
  expect(sentSystem.role).toBe("system");
  expect(sentSystem.content).not.toContain("]]>service:config");
  const rel = await (await fetch(`${e.h.base}/v1/monitoring/reliability`, { headers: { authorization: `Bearer ${key}` } })).json();
  expect(rel.models.find((m: any) => m.model === "openai/ui-model")).toMatchObject({ outcomes: { fixed: 1 } });
});

test("refusals: conversation with previous_response_id, hosted tools by name or unconfigured, a bad model id", async () => {
  const first = await client.responses.create({ model: "openai/gpt-x", input: "hi" });
  const both = await raw("/responses", {
    method: "POST",
    body: JSON.stringify({ model: "openai/gpt-x", input: "x", previous_response_id: first.id, conversation: "conv_1" }),
  });
  expect(both.status).toBe(400);
  expect((await both.json()).error).toMatchObject({ type: "invalid_request_error", param: "conversation" });
  const hosted = await raw("/responses", { method: "POST", body: JSON.stringify({ model: "openai/gpt-x", input: "x", tools: [{ type: "file_search" }] }) });
  expect(hosted.status).toBe(400);
  expect((await hosted.json()).error.message).toContain('"file_search"');
  // No search backend configured: web_search is refused, saying how to configure one.
  const search = await raw("/responses", { method: "POST", body: JSON.stringify({ model: "openai/gpt-x", input: "x", tools: [{ type: "web_search" }] }) });
  expect(search.status).toBe(400);
  expect((await search.json()).error.message).toContain("TESSERA_WEB_SEARCH_PROVIDER");
  const model = await raw("/responses", { method: "POST", body: JSON.stringify({ model: "gpt-4o", input: "x" }) });
  expect(model.status).toBe(400);
});

test("input_tokens estimates the whole context; compaction seals a summary that later input opens", async () => {
  const small = await (await raw("/responses/input_tokens", { method: "POST", body: JSON.stringify({ model: "openai/gpt-x", input: "short" }) })).json();
  const large = await (
    await raw("/responses/input_tokens", { method: "POST", body: JSON.stringify({ model: "openai/gpt-x", input: "long ".repeat(400) }) })
  ).json();
  expect(small.object).toBe("response.input_tokens");
  expect(large.input_tokens).toBeGreaterThan(small.input_tokens + 400);

  e.openai.queue.push({ text: "The user's code word is slate." });
  const compacted = await (
    await raw("/responses/compact", { method: "POST", body: JSON.stringify({ model: "openai/gpt-x", input: "The code word is slate." }) })
  ).json();
  expect(compacted.object).toBe("response.compaction");
  const item = compacted.output[0];
  expect(item.type).toBe("compaction");
  expect(item.encrypted_content).not.toContain("slate");
  await client.responses.create({ model: "openai/gpt-x", input: [item, { role: "user", content: "code word?" }] as any });
  expect(e.openai.calls.at(-1)!.body.messages[0].content).toContain("The user's code word is slate.");
  const tampered = { ...item, encrypted_content: item.encrypted_content.slice(0, -4) + "AAAA" };
  expect(await fails(client.responses.create({ model: "openai/gpt-x", input: [tampered, { role: "user", content: "x" }] as any }))).toMatchObject({
    status: 400,
  });
});

test("a base64 PDF reaches every provider in its own form; a file a provider cannot take is a 400 naming it, nothing charged", async () => {
  const input = [{ role: "user", content: [{ type: "input_file", file_data: "JVBERi0xLjQK", filename: "a.pdf" }] }];
  const post = (model: string, body = input) => raw("/responses", { method: "POST", body: JSON.stringify({ model, input: body }) });
  expect((await post("openai/gpt-x")).status).toBe(200);
  expect(e.openai.calls.at(-1)!.body.messages[0].content[0]).toEqual({
    type: "file",
    file: { file_data: "data:application/pdf;base64,JVBERi0xLjQK", filename: "a.pdf" },
  });
  expect((await post("anthropic/claude")).status).toBe(200);
  expect(e.anthropic.calls.at(-1)!.body.messages[0].content[0]).toEqual({
    type: "document",
    source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK" },
  });
  expect((await post("google/gemini")).status).toBe(200);
  expect(e.gemini.calls.at(-1)!.body.contents[0].parts[0]).toEqual({ inlineData: { mimeType: "application/pdf", data: "JVBERi0xLjQK" } });

  e.h.server.config.responsesPrice = 1;
  const before = await e.h.credits("resp-acme");
  const zip = [{ role: "user", content: [{ type: "input_file", file_data: "data:application/zip;base64,UEsDBA==", filename: "a.zip" }] }];
  const res = await post("anthropic/claude", zip);
  expect(res.status).toBe(400);
  expect((await res.json()).error.message).toContain("anthropic");
  expect(await e.h.credits("resp-acme")).toBe(before);
});

test("a stream the provider refuses before it starts leaves nothing stored (its row is written while the call opens), not charged", async () => {
  e.h.server.config.responsesPrice = 3;
  const before = await e.h.credits("resp-acme");
  const { db } = e.h.server;
  const count = async () => ({
    responses: (await db.selectFrom("responses").select("id").execute()).length,
    items: (await db.selectFrom("response_items").select("id").execute()).length,
  });
  const stored = await count();
  for (const status of [400, 429, 500]) {
    e.openai.queue.push({ status });
    const res = await raw("/responses", { method: "POST", body: JSON.stringify({ model: "openai/gpt-x", input: "refused", stream: true }) });
    expect(res.status).toBe(status === 429 ? 429 : 502);
    expect((await res.json()).error.message.length).toBeGreaterThan(0);
  }
  expect(await count()).toEqual(stored);
  expect(await e.h.credits("resp-acme")).toBe(before);
  // The same request answered: stored, retrievable by the id its first event shows.
  const events = await sseEvents(await raw("/responses", { method: "POST", body: JSON.stringify({ model: "openai/gpt-x", input: "answered", stream: true }) }));
  expect(events[0].type).toBe("response.created");
  expect((await client.responses.retrieve(events[0].response.id)).status).toBe("completed");
  expect(await count()).toEqual({ responses: stored.responses + 1, items: stored.items + 2 });
});

test("a client that leaves mid-stream: the turn ends cancelled, stored so, its credits handed back", async () => {
  e.h.server.config.providers.LOCAL_BASE_URL = slow.url;
  e.h.server.config.responsesPrice = 2;
  const before = await e.h.credits("resp-acme");
  const ac = new AbortController();
  const res = await raw("/responses", { method: "POST", body: JSON.stringify({ model: "local/slow", input: "long", stream: true }), signal: ac.signal });
  const reader = res.body!.getReader();
  let text = "";
  while (!text.includes("response.output_text.delta")) {
    const r = await reader.read();
    if (r.done) throw new Error(`the stream ended before its first delta: ${text}`);
    text += new TextDecoder().decode(r.value);
  }
  const id = /"id":"(resp_[0-9a-f]+)"/.exec(text)![1]!;
  ac.abort();
  const status = (
    await eventually(
      () => client.responses.retrieve(id),
      (x) => x.status !== "in_progress",
    )
  ).status;
  expect(status).toBe("cancelled");
  expect(await e.h.credits("resp-acme")).toBe(before);
  e.h.server.config.responsesPrice = 0;
});
