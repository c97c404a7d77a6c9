// Credits: 429 with x-should-retry false, suspension, and 50 concurrent fixes against 10 credits.
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { findOrganizationByName, setSuspended } from "../../src/db/index.ts";
import { autofixBody, BROKEN, post, startHarness, VALID, type Harness } from "./harness.ts";
import { balancedBooks, books } from "../support/books.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function expect429(res: Response) {
  expect(res.status).toBe(429);
  expect(res.headers.get("x-should-retry")).toBe("false");
  expect((await res.json()).error.type).toBe("rate_limit_error");
}

test("no credits: 429 rate_limit_error with x-should-retry: false, before any fix runs", async () => {
  const key = await h.org("broke", 0);
  await expect429(await post(h.base, "/v1/autofix", key, autofixBody(BROKEN)));
  await expect429(await post(h.base, "/v1/autofix", key, autofixBody(VALID)));
  await h.server.idle();
  const logs = await h.server.db.selectFrom("request_logs").select(["status", "charge"]).execute();
  expect(logs.every((l) => l.status === 429 && l.charge === 0)).toBe(true);
});

test("suspended billing: 429 even with credits; resumed: served again", async () => {
  const key = await h.org("paused", 5);
  const org = (await findOrganizationByName(h.server.db, "paused"))!;
  await setSuspended(h.server.db, org.id, true);
  await expect429(await post(h.base, "/v1/autofix", key, autofixBody(BROKEN)));
  expect(await h.credits("paused")).toBe(5);
  await setSuspended(h.server.db, org.id, false);
  expect((await post(h.base, "/v1/autofix", key, autofixBody(BROKEN))).status).toBe(200);
  expect(await h.credits("paused")).toBe(4);
});

test("the official openai client does not retry the 429", async () => {
  const key = await h.org("sdk-broke", 0);
  const client = new OpenAI({ baseURL: h.base + "/v1/autofix", apiKey: key });
  const started = Date.now();
  const err = await client.chat.completions.create(autofixBody(BROKEN) as never).catch((e) => e);
  expect(err).toBeInstanceOf(OpenAI.RateLimitError);
  expect(err.status).toBe(429);
  const org = (await findOrganizationByName(h.server.db, "sdk-broke"))!;
  await h.server.idle();
  const calls = await h.server.db.selectFrom("request_logs").select("id").where("organization_id", "=", org.id).execute();
  expect(calls).toHaveLength(1);
  expect(Date.now() - started).toBeLessThan(1500);
});

test("50 concurrent fixes against 10 credits: exactly 10 charged, the rest 429", async () => {
  const key = await h.org("rush", 10);
  const responses = await Promise.all(Array.from({ length: 50 }, () => post(h.base, "/v1/autofix", key, autofixBody(BROKEN))));
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  for (const r of responses.filter((r) => r.status === 429)) expect(r.headers.get("x-should-retry")).toBe("false");
  expect(await h.credits("rush")).toBe(0);
  const org = (await findOrganizationByName(h.server.db, "rush"))!;
  const ledger = await h.server.db.selectFrom("credit_ledger").selectAll().where("organization_id", "=", org.id).where("reason", "=", "autofix").execute();
  expect(ledger).toHaveLength(10);
  await h.server.idle(); // the logs are queued, written just after the answers
  const charged = await h.server.db.selectFrom("request_logs").select("charge").where("organization_id", "=", org.id).where("charge", ">", 0).execute();
  expect(charged).toHaveLength(10);
});

test("a sanitizer fix is charged in one transaction, after the fix: one ledger row per fix, no hold ever open, the books balanced", async () => {
  const key = await h.org("one-go", 7);
  const org = (await findOrganizationByName(h.server.db, "one-go"))!;
  // A hold would show as an open hold while the fixes run, and each charge as a settlement of it.
  let sawHold = false;
  const watching = (async () => {
    for (let i = 0; i < 200 && !sawHold; i++) {
      const b = await books(h.server.db, org.id);
      if (b.openHolds > 0) sawHold = true;
      if (!b.balanced) throw new Error(`books out of balance mid-run: ${JSON.stringify(b)}`);
      await new Promise((r) => setImmediate(r));
    }
  })();
  const responses = await Promise.all(Array.from({ length: 20 }, () => post(h.base, "/v1/autofix", key, autofixBody(BROKEN))));
  await watching;
  expect(responses.map((r) => r.status).sort()).toEqual([...Array(7).fill(200), ...Array(13).fill(429)]);
  expect(sawHold).toBe(false);
  const ledger = await h.server.db
    .selectFrom("credit_ledger")
    .select(["delta", "request_id"])
    .where("organization_id", "=", org.id)
    .where("reason", "=", "autofix")
    .execute();
  expect(ledger.map((r) => r.delta)).toEqual(Array(7).fill(-1));
  expect(new Set(ledger.map((r) => r.request_id)).size).toBe(7);
  expect(await balancedBooks(h.server.db, "one-go")).toEqual({ credits: 0, holds: 0, openHolds: 0, ledger: 0 });
});

test("already_valid stays free while credits remain", async () => {
  const key = await h.org("thrifty", 1);
  for (let i = 0; i < 3; i++) expect((await post(h.base, "/v1/autofix", key, autofixBody(VALID))).status).toBe(200);
  expect(await h.credits("thrifty")).toBe(1);
});

test("TESSERA_AUTOFIX_PRICE sets the price per fix", async () => {
  const pricey = await (await import("./harness.ts")).startHarness({ autofixPrice: 3 });
  try {
    const key = await pricey.org("p", 5);
    expect((await post(pricey.base, "/v1/autofix", key, autofixBody(BROKEN))).status).toBe(200);
    expect(await pricey.credits("p")).toBe(2);
    await expect429(await post(pricey.base, "/v1/autofix", key, autofixBody(BROKEN)));
  } finally {
    await pricey.close();
  }
});
