// Many clients on one conversation at once, and a conversation of thousands of items paged by the
// openai client: every item exactly once, in order, in either direction.
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { startResponsesHarness, type ResponsesHarness } from "../../responses-harness.ts";

let H: ResponsesHarness;
beforeAll(async () => {
  H = await startResponsesHarness("concurrency");
});
afterAll(() => H.close());

const text = (i: any) => i.content?.[0]?.text;
async function all(c: string, query: OpenAI.Conversations.Items.ItemListParams): Promise<any[]> {
  const out: any[] = [];
  for await (const item of H.conversations.conversations.items.list(c, query)) out.push(item);
  return out;
}

test("50 concurrent turns (half streamed) on one conversation: each turn's input and answer once, side by side", async () => {
  const c = await H.conversations.conversations.create();
  const turns = Array.from({ length: 50 }, (_, i) => `turn ${i}`);
  const results = await Promise.all(
    turns.map(async (input, i) => {
      if (i % 2) return H.responses.responses.create({ model: "openai/gpt-stand-in", conversation: c.id, input });
      return H.responses.responses.stream({ model: "anthropic/claude-stand-in", conversation: c.id, input }).finalResponse();
    }),
  );
  expect(results.map((r) => r.status)).toEqual(turns.map(() => "completed"));
  const items = await all(c.id, { order: "asc", limit: 100 });
  expect(items).toHaveLength(100);
  expect(new Set(items.map((i) => i.id)).size).toBe(100);
  for (let k = 0; k < items.length; k += 2) {
    expect(items[k].role).toBe("user");
    expect(items[k + 1].role).toBe("assistant");
    expect(text(items[k + 1])).toBe(`Stand-in answer to: ${text(items[k])}`);
  }
  expect(
    items
      .filter((i) => i.role === "user")
      .map(text)
      .sort(),
  ).toEqual([...turns].sort());
  const desc = await all(c.id, { order: "desc", limit: 7 });
  expect(desc.map((i) => i.id)).toEqual(items.map((i) => i.id).reverse());
});

test("2,500 items added 20 at a time page exactly: both orders, odd page sizes, each item once", async () => {
  const c = await H.conversations.conversations.create();
  const N = 2500;
  for (let i = 0; i < N; i += 20) {
    await H.conversations.conversations.items.create(c.id, {
      items: Array.from({ length: 20 }, (_, k) => ({ type: "message" as const, role: "user" as const, content: `n${i + k}` })),
    });
  }
  const expected = Array.from({ length: N }, (_, i) => `n${i}`);
  const asc = await all(c.id, { order: "asc", limit: 100 });
  expect(asc.map(text)).toEqual(expected);
  const desc = await all(c.id, { order: "desc", limit: 33 });
  expect(desc.map(text)).toEqual([...expected].reverse());
  expect(new Set(desc.map((i) => i.id)).size).toBe(N);
  // Pages by hand: has_more turns false exactly at the end; `after` an item starts right behind it.
  const last = await H.conversations.conversations.items.list(c.id, { order: "asc", limit: 100, after: asc[N - 101].id });
  expect(last.data.map(text)).toEqual(expected.slice(N - 100));
  expect(last.has_more).toBe(false);
  const middle = await H.conversations.conversations.items.list(c.id, { order: "desc", limit: 5, after: asc[1000].id });
  expect(middle.data.map(text)).toEqual(["n999", "n998", "n997", "n996", "n995"]);
  expect(middle.has_more).toBe(true);
});

test("GET /v1/conversations pages an organization's 45 conversations newest first, each once", async () => {
  const key = await H.E.h.org("many-conversations", 0);
  const mine = new OpenAI({ baseURL: `${H.base}/v1`, apiKey: key, maxRetries: 0 });
  const created: string[] = [];
  for (let i = 0; i < 45; i++) created.push((await mine.conversations.create({ metadata: { n: String(i) } })).id);
  const seen: string[] = [];
  let after = "";
  for (let pages = 0; pages < 10; pages++) {
    const res = await fetch(`${H.base}/v1/conversations?limit=20${after}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: { id: string; object: string }[]; has_more: boolean; last_id: string | null; first_id: string | null };
    seen.push(...page.data.map((c) => c.id));
    expect(page.first_id).toBe(page.data[0]?.id ?? null);
    if (!page.has_more) break;
    after = `&after=${page.last_id}`;
  }
  expect(seen).toEqual([...created].reverse());
  const asc = (await fetch(`${H.base}/v1/conversations?limit=100&order=asc`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json())) as {
    data: { id: string }[];
  };
  expect(asc.data.map((c) => c.id)).toEqual(created);
});
