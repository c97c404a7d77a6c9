// tessera/openui against the real server: the token source (one fetch for concurrent callers, a new
// token before expiry and after a 401), the ThreadStorage over Conversations (threads of the
// token's user, titles, cursor paging, messages), the ChatLLM's turn read by OpenUI's own
// openAIResponsesAdapter; and every call @openuidev/thesys's cloud storage makes, as it makes them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Thread } from "@openuidev/react-headless";
import { tesseraArtifactStorage, tesseraChat, tesseraLLM, tesseraThreadStorage, tokenSource } from "../../../src/openui/index.ts";
import { startEmbedHarness, type EmbedHarness } from "../embed-harness.ts";

let E: EmbedHarness;
let key: string;
const MODEL = "openai/gpt-storage";

beforeAll(async () => {
  E = await startEmbedHarness();
  key = await E.h.org("openui-storage", 1000);
});
afterAll(() => E.close());

let mints = 0;
async function mint(user: string, extra: Record<string, unknown> = {}) {
  mints++;
  const res = await fetch(`${E.h.base}/v1/frontend-tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ user_id: user, scopes: ["responses:create", "conversations:read", "conversations:write"], ...extra }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { token: string; expires_at: number };
}

test("token source: concurrent callers share one fetch; a token inside the refresh margin is fetched again", async () => {
  let fetched = 0;
  const soon = tokenSource(async () => (fetched++, { token: `t${fetched}`, expires_at: Math.floor(Date.now() / 1000) + 30 }));
  expect(await Promise.all([soon.get(), soon.get(), soon.get()])).toEqual(["t1", "t1", "t1"]);
  expect(await soon.get()).toBe("t2"); // 30 s left is inside the 60 s margin
  let later = 0;
  const long = tokenSource(async () => (later++, { token: "long", expires_at: Math.floor(Date.now() / 1000) + 3600 }));
  await long.get();
  await long.get();
  expect(later).toBe(1);
  long.invalidate("long");
  await long.get();
  expect(later).toBe(2);
});

test("ThreadStorage: the user's threads, titled, paged by cursor; messages; rename; delete. A 401 fetches a new token once", async () => {
  mints = 0;
  let first = true;
  // The first token handed out is not one the service accepts: the storage fetches another.
  const storage = tesseraThreadStorage({ baseUrl: `${E.h.base}/v1/embed`, token: async () => (first ? ((first = false), "tft_bad.AAAA") : mint("ada")) });
  const threads: Thread[] = [];
  for (let i = 0; i < 23; i++) threads.push(await storage.createThread({ id: "m", role: "user", content: `Question ${i} ${"x".repeat(i === 0 ? 80 : 0)}` }));
  expect(mints).toBe(1);
  expect(threads[0]!.title).toHaveLength(60);
  expect(threads[1]!.title).toBe("Question 1");
  expect(typeof threads[1]!.createdAt).toBe("number");
  const page1 = await storage.listThreads();
  expect(page1.threads).toHaveLength(20);
  expect(page1.threads[0]!.id).toBe(threads[22]!.id); // newest first
  const page2 = await storage.listThreads(page1.nextCursor);
  expect(page2.threads.map((t) => t.id)).toEqual(
    threads
      .slice(0, 3)
      .reverse()
      .map((t) => t.id),
  );
  expect(page2.nextCursor).toBeUndefined();
  // Another user sees none of them.
  const bob = tesseraThreadStorage({ baseUrl: E.h.base, token: () => mint("bob") });
  expect((await bob.listThreads()).threads).toEqual([]);

  // A turn through the ChatLLM, read by OpenUI's own stream adapter; then the thread's messages.
  E.openai.queue.push({ text: "Hello Ada" });
  const llm = tesseraLLM({ baseUrl: E.h.base, model: MODEL, token: () => mint("ada") });
  const res = await llm.send({ threadId: threads[1]!.id, messages: [{ id: "u1", role: "user", content: "Hi there" }], signal: new AbortController().signal });
  expect(res.status).toBe(200);
  const text: string[] = [];
  for await (const event of llm.streamProtocol.parse(res) as AsyncIterable<{ type: string; delta?: string }>)
    if (event.type === "TEXT_MESSAGE_CONTENT") text.push(event.delta!);
  expect(text.join("")).toBe("Hello Ada");
  const messages = await storage.getMessages(threads[1]!.id);
  expect(messages.map((m) => [m.role, m.content])).toEqual([
    ["user", "Hi there"],
    ["assistant", "Hello Ada"],
  ]);

  const renamed = await storage.updateThread({ ...threads[1]!, title: "Greetings" });
  expect(renamed.title).toBe("Greetings");
  expect((await storage.listThreads(page1.nextCursor)).threads.find((t) => t.id === threads[1]!.id)?.title).toBe("Greetings");
  await storage.deleteThread(threads[2]!.id);
  await expect(storage.getMessages(threads[2]!.id)).rejects.toThrow(/404/);
});

const DECK = `root = SlideShow("Coffee Sales", "Q3 review", [cover, numbers])
cover = Slide("cover", StandardTitle("Coffee Sales", "Q3 review"))
numbers = Slide("numbers", ContentClassic("Numbers", ["Revenue up 12%", "Six new stores"]))`;

test("ArtifactStorage: the user's artifacts listed by kind and name, read whole, updated", async () => {
  const token = () => mint("eve", { scopes: ["artifacts:read", "artifacts:write"] });
  // Stored through the route as a renderer's edit would create one.
  const { token: t } = await token();
  const made = await fetch(`${E.h.base}/v1/artifacts/deck-1`, {
    method: "POST",
    headers: { authorization: `Bearer ${t}`, "content-type": "application/json" },
    body: JSON.stringify({ content: DECK, kind: "slides" }),
  });
  expect(made.status).toBe(200);
  const artifacts = tesseraArtifactStorage({ baseUrl: E.h.base, token });
  const listed = await artifacts.list({ type: ["slides"] });
  expect(listed.artifacts.map((a) => [a.id, a.title, a.type])).toEqual([["deck-1", "Coffee Sales", "slides"]]);
  expect(typeof listed.artifacts[0]!.updatedAt).toBe("number");
  expect((await artifacts.list({ type: ["report"] })).artifacts).toEqual([]);
  expect((await artifacts.list({ name: "Coffee" })).artifacts).toHaveLength(1);
  const got = await artifacts.get("deck-1");
  expect(got.content).toBe(DECK);
  const edited = DECK.replace("Six new stores", "Seven new stores");
  const saved = await artifacts.update({ id: "deck-1", content: edited });
  expect(saved.id).toBe("deck-1");
  expect((await artifacts.get("deck-1")).content).toBe(edited);
  // Another user's storage does not see it.
  const other = tesseraArtifactStorage({ baseUrl: E.h.base, token: () => mint("fay", { scopes: ["artifacts:read"] }) });
  expect((await other.list()).artifacts).toEqual([]);
  await expect(other.get("deck-1")).rejects.toThrow(/404/);
});

test("tesseraChat: the ChatLLM and the ThreadStorage share one token source", async () => {
  mints = 0;
  const { llm, storage } = tesseraChat({ baseUrl: E.h.base, model: MODEL, token: () => mint("cy") });
  const thread = await storage.thread.createThread({ id: "m", role: "user", content: "One token" });
  E.openai.queue.push({ text: "ok" });
  const res = await llm.send({ threadId: thread.id, messages: [{ id: "u", role: "user", content: "One token" }], signal: new AbortController().signal });
  await res.text();
  expect(mints).toBe(1);
});

test("@openuidev/thesys's cloud storage, call by call: x-thesys-frontend-token, {title}, rename by POST, items asc with an empty after=", async () => {
  // Its mint route's answer: {token, expires_at} with expires_at in epoch seconds.
  const { token, expires_at } = await mint("dee");
  expect(expires_at).toBeGreaterThan(Date.now() / 1000);
  const h = { "x-thesys-frontend-token": token, "content-type": "application/json" };
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${E.h.base}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });

  const created = await (await call("POST", "/v1/conversations", { title: "Plan a trip" })).json();
  expect(created).toMatchObject({ title: "Plan a trip" });
  expect(typeof created.id).toBe("string");
  expect(typeof created.created_at).toBe("number");
  const list = await (await call("GET", "/v1/conversations?limit=100&after=")).json();
  expect(list.data.map((c: { id: string; title: string }) => [c.id, c.title])).toEqual([[created.id, "Plan a trip"]]);
  expect(list).toMatchObject({ has_more: false, last_id: created.id });

  E.openai.queue.push({ text: "Sure." });
  const turn = await call("POST", "/v1/embed/responses", { model: MODEL, input: "Where to?", conversation: created.id });
  expect(turn.status).toBe(200);
  const items = await (await call("GET", `/v1/conversations/${created.id}/items?order=asc&limit=100&after=`)).json();
  expect(items.data.map((i: { type: string; role: string }) => `${i.type}:${i.role}`)).toEqual(["message:user", "message:assistant"]);

  const renamed = await call("POST", `/v1/conversations/${created.id}`, { title: "Trip to Lisbon" });
  expect(renamed.status).toBe(200);
  expect((await renamed.json()).title).toBe("Trip to Lisbon");
  expect((await (await call("GET", `/v1/conversations/${created.id}`)).json()).title).toBe("Trip to Lisbon");
  expect((await call("DELETE", `/v1/conversations/${created.id}`)).status).toBe(200);
  expect((await call("GET", `/v1/conversations/${created.id}`)).status).toBe(404);
});
