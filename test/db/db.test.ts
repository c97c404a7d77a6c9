// The database layer on a real SQLite file, or (TESSERA_TEST_DB=postgres) a real PostgreSQL:
// migrations, WAL, keys, credits, holds, retention.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database as Sqlite } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { migrationProvider } from "../../src/db/migrations/index.ts";
import { PAGE_BYTES } from "../../src/db/sqlite.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import {
  adjustCredits,
  createApiKey,
  createOrganization,
  findKeyOwner,
  hashKey,
  holdCredits,
  listApiKeys,
  openDatabase,
  flushLogs,
  purgeOldLogs,
  reliabilitySummary,
  returnExpiredHolds,
  storeLibrary,
  returnOpenHolds,
  revokeApiKeys,
  settle,
  verifyApiKey,
  writeReliabilityEvent,
  writeRequestLog,
  type Db,
} from "../../src/db/index.ts";

let fresh: TestDatabase;
let dir: string;
let target: string;
let db: Db;
beforeAll(async () => {
  fresh = await freshDatabase(undefined, "db");
  dir = mkdtempSync(join(tmpdir(), "tessera-db-"));
  // On SQLite, a folder that does not exist yet: openDatabase makes it.
  target = fresh.kind === "sqlite" ? join(dir, "nested", "tessera.db") : fresh.target;
  db = await openDatabase(target);
});
afterAll(async () => {
  await db.destroy();
  await fresh.drop();
  rmSync(dir, { recursive: true, force: true });
});

test("opens with every table (in WAL mode on SQLite), and migrating twice is a no-op", async () => {
  const again = await openDatabase(target);
  await again.destroy();
  const tables = (await db.introspection.getTables()).map((t) => t.name);
  expect(tables).toEqual(
    expect.arrayContaining([
      "organizations",
      "api_keys",
      "credit_ledger",
      "request_logs",
      "reliability_events",
      "credit_holds",
      "responses",
      "response_items",
      "response_events",
      "conversations",
      "conversation_items",
    ]),
  );
  const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(await migrationProvider.getMigrations()).sort());
  if (fresh.kind === "sqlite") {
    const raw = new Sqlite(target, { readonly: true });
    expect((raw.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode).toBe("wal");
    // A new file's pages are PAGE_BYTES (a large request log's commit writes half as many pages as with 4 KB).
    expect((raw.query("PRAGMA page_size").get() as { page_size: number }).page_size).toBe(PAGE_BYTES);
    raw.close();
  }
});

test("integers come back as exact JavaScript numbers (bigint columns, count, sum, max)", async () => {
  const org = await createOrganization(db, "numbers", 2 ** 40);
  const row = await db.selectFrom("organizations").select(["id", "credits"]).where("id", "=", org.id).executeTakeFirstOrThrow();
  expect(row).toEqual({ id: org.id, credits: 2 ** 40 });
  const agg = await db
    .selectFrom("credit_ledger")
    .select((eb) => [eb.fn.countAll().as("n"), eb.fn.sum("delta").as("total"), eb.fn.max("id").as("last")])
    .where("organization_id", "=", org.id)
    .executeTakeFirstOrThrow();
  expect(agg.n).toBe(1);
  expect(agg.total).toBe(2 ** 40);
  expect(typeof agg.last).toBe("number");
});

test("keys: 32 random bytes, hash at rest, verify, last used, revoke", async () => {
  const org = await createOrganization(db, "keys", 0);
  const { key, prefix } = await createApiKey(db, org.id);
  expect(Buffer.from(key.slice(4), "base64url").length).toBe(32);
  expect(key.startsWith(prefix)).toBe(true);
  const [stored] = await listApiKeys(db, org.id);
  expect(stored.key_hash).toBe(hashKey(key));
  expect(stored.last_used_at).toBeNull();
  expect((await verifyApiKey(db, key))?.id).toBe(stored.id);
  expect((await listApiKeys(db, org.id))[0].last_used_at).not.toBeNull();
  expect(await verifyApiKey(db, key.slice(0, -1) + (key.endsWith("A") ? "B" : "A"))).toBeUndefined();
  expect(await revokeApiKeys(db, prefix)).toBe(1);
  expect(await verifyApiKey(db, key)).toBeUndefined();
});

test("key lookups asked at once (one read on PostgreSQL): each finds its own key and organization, a revoked or wrong one none", async () => {
  const [a, b] = [await createOrganization(db, "lookup-a", 5), await createOrganization(db, "lookup-b", 7)];
  const [keyA, keyB, gone] = [await createApiKey(db, a.id), await createApiKey(db, b.id), await createApiKey(db, b.id)];
  await revokeApiKeys(db, gone.prefix);
  const wrong = keyA.key.slice(0, -1) + (keyA.key.endsWith("A") ? "B" : "A");
  const found = await Promise.all([keyA.key, keyB.key, gone.key, wrong, keyB.key, `${keyA.prefix.slice(0, -1)}_nothing-here`].map((k) => findKeyOwner(db, k)));
  expect(found.map((f) => f && [f.key.prefix, f.org.name, f.org.credits])).toEqual([
    [keyA.prefix, "lookup-a", 5],
    [keyB.prefix, "lookup-b", 7],
    undefined,
    undefined,
    [keyB.prefix, "lookup-b", 7],
    undefined,
  ]);
});

test("credits: adjust is ledgered and never goes below zero", async () => {
  const org = await createOrganization(db, "money", 5);
  expect(await adjustCredits(db, org.id, 3, "top up")).toEqual({ ok: true, credits: 8 });
  expect(await adjustCredits(db, org.id, -9, "too much")).toEqual({ ok: false, credits: 8 });
  expect(await adjustCredits(db, org.id, -8, "all")).toEqual({ ok: true, credits: 0 });
  const ledger = await db.selectFrom("credit_ledger").select(["delta", "reason"]).where("organization_id", "=", org.id).orderBy("id").execute();
  expect(ledger).toEqual([
    { delta: 5, reason: "initial credits" },
    { delta: 3, reason: "top up" },
    { delta: -8, reason: "all" },
  ]);
});

test("holds are atomic: 30 concurrent holds of 1 against 7 credits take exactly 7", async () => {
  const org = await createOrganization(db, "holds", 7);
  const results = await Promise.all(Array.from({ length: 30 }, () => holdCredits(db, org.id, 1, `h${Math.random()}`)));
  expect(results.filter(Boolean)).toHaveLength(7);
  const row = await db.selectFrom("organizations").select("credits").where("id", "=", org.id).executeTakeFirstOrThrow();
  expect(row.credits).toBe(0);
});

test("holds and settlements asked at once (one statement each on PostgreSQL): two organizations, each paid what its balance covers, refunds, balanced books", async () => {
  const a = await createOrganization(db, "batch-a", 10);
  const b = await createOrganization(db, "batch-b", 5);
  const asks = [
    // a's all fit (one UPDATE for the batch's total); b's do not, and are tried one by one.
    ...Array.from({ length: 5 }, (_, i) => ({ org: a.id, request: `ba${i}` })),
    ...Array.from({ length: 4 }, (_, i) => ({ org: b.id, request: `bb${i}` })),
  ];
  const held = await Promise.all(asks.map((x) => holdCredits(db, x.org, 2, x.request)));
  const taken = asks.filter((_, i) => held[i]);
  expect(taken.filter((x) => x.org === a.id)).toHaveLength(5);
  expect(taken.filter((x) => x.org === b.id)).toHaveLength(2);
  expect(await books(a.id)).toEqual({ credits: 0, held: 10, ledger: 10 });
  expect(await books(b.id)).toEqual({ credits: 1, held: 4, ledger: 5 });
  // Every other one charges 1 of its 2 and gets the other back.
  const log = { endpoint: "/v1/autofix", model: "m", status: 200, conversation: "[]", outcome: "fixed", duration_ms: 1 };
  const charged = await Promise.all(
    taken.map((x, i) => settle(db, { orgId: x.org, requestId: x.request, held: 2, charge: i % 2 === 0 ? 2 : 1, reason: "autofix", log })),
  );
  expect(charged).toEqual(taken.map((_, i) => (i % 2 === 0 ? 2 : 1)));
  expect(await books(a.id)).toEqual({ credits: 2, held: 0, ledger: 2 });
  expect(await books(b.id)).toEqual({ credits: 2, held: 0, ledger: 2 });
});

test("settle charges and refunds the rest of the hold in one transaction; its log and event follow", async () => {
  const org = await createOrganization(db, "settle", 4);
  expect(await holdCredits(db, org.id, 2, "r1")).toBe(true);
  await settle(db, {
    orgId: org.id,
    requestId: "r1",
    held: 2,
    charge: 1,
    reason: "autofix",
    log: { endpoint: "/v1/autofix", model: "service/autofix", status: 200, conversation: "[]", outcome: "fixed", duration_ms: 3 },
    event: { model: "service/autofix", endpoint: "/v1/autofix", outcome: "fixed", corrected_codes: '["orphaned"]' },
  });
  const row = await db.selectFrom("organizations").select("credits").where("id", "=", org.id).executeTakeFirstOrThrow();
  expect(row.credits).toBe(3);
  expect(await books(org.id)).toEqual({ credits: 3, held: 0, ledger: 3 });
  await flushLogs(db);
  expect(await db.selectFrom("request_logs").select(["charge", "outcome"]).where("request_id", "=", "r1").execute()).toEqual([{ charge: 1, outcome: "fixed" }]);
  expect(await reliabilitySummary(db, org.id)).toEqual([
    { model: "service/autofix", requests: 1, outcomes: { fixed: 1 }, corrections: { total: 1, byCode: { orphaned: 1 } } },
  ]);
});

test("queued logs: one that cannot be written (its organization does not exist) is reported and dropped, the rest of its write stored", async () => {
  const org = await createOrganization(db, "queued", 0);
  const log = (organization_id: number, request_id: string) => ({
    request_id,
    organization_id,
    endpoint: "/v1/autofix",
    model: "m",
    status: 400,
    conversation: "[]",
    outcome: "rejected",
    charge: 0,
    duration_ms: 1,
  });
  const reported: string[] = [];
  const error = console.error;
  console.error = (line: string) => void reported.push(line);
  try {
    writeRequestLog(db, log(org.id, "q1"));
    writeRequestLog(db, log(999_999, "q-orphan"));
    writeRequestLog(db, log(org.id, "q2"));
    await flushLogs(db);
  } finally {
    console.error = error;
  }
  const stored = await db.selectFrom("request_logs").select("request_id").where("request_id", "like", "q%").orderBy("request_id").execute();
  expect(stored.map((r) => r.request_id)).toEqual(["q1", "q2"]);
  expect(reported).toHaveLength(1);
  expect(reported[0]).toContain("q-orphan");
});

test("queued logs, library blocks and events written together: each block once, an old one brought forward, every log and event", async () => {
  const org = await createOrganization(db, "queued-mixed", 0);
  const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
  const stale = { hash: "e".repeat(64), config: "a block stored long ago" };
  const fresh = { hash: "d".repeat(64), config: "a block first seen now" };
  await db
    .insertInto("log_libraries")
    .values({ ...stale, created_at: old })
    .execute();
  const log = (request_id: string) => fixedLog(org.id, request_id, 1);
  writeRequestLog(db, log("mixed-1"), fresh);
  writeReliabilityEvent(db, { organization_id: org.id, model: "m", endpoint: "/v1/autofix", outcome: "fixed", corrected_codes: '["x"]' });
  writeRequestLog(db, log("mixed-2"), fresh);
  writeRequestLog(db, log("mixed-3"), stale);
  writeRequestLog(db, log("mixed-4"));
  await flushLogs(db);
  const logs = await db
    .selectFrom("request_logs")
    .select(["request_id", "library_hash"])
    .where("request_id", "like", "mixed-%")
    .orderBy("request_id")
    .execute();
  expect(logs).toEqual([
    { request_id: "mixed-1", library_hash: fresh.hash },
    { request_id: "mixed-2", library_hash: fresh.hash },
    { request_id: "mixed-3", library_hash: stale.hash },
    { request_id: "mixed-4", library_hash: null },
  ]);
  const blocks = await db
    .selectFrom("log_libraries")
    .select(["hash", "config", "created_at"])
    .where("hash", "in", [stale.hash, fresh.hash])
    .orderBy("hash")
    .execute();
  expect(blocks.map((l) => [l.hash, l.config])).toEqual([
    [fresh.hash, fresh.config],
    [stale.hash, stale.config],
  ]);
  expect(blocks.every((l) => Date.now() - Date.parse(l.created_at) < 86_400_000)).toBe(true);
  expect(await reliabilitySummary(db, org.id)).toEqual([{ model: "m", requests: 1, outcomes: { fixed: 1 }, corrections: { total: 1, byCode: { x: 1 } } }]);
});

test("holds are refused while suspended", async () => {
  const org = await createOrganization(db, "suspended", 5);
  await db.updateTable("organizations").set({ suspended: 1 }).where("id", "=", org.id).execute();
  expect(await holdCredits(db, org.id, 1, "s1")).toBe(false);
});

test("retention purges request logs older than the window, keeps the rest", async () => {
  const org = await createOrganization(db, "old", 0);
  const log = fixedLog(org.id, "x", 0);
  writeRequestLog(db, log);
  await db
    .insertInto("request_logs")
    .values({ ...log, request_id: "old", created_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
    .execute();
  writeReliabilityEvent(db, { organization_id: org.id, model: "m", endpoint: "e", outcome: "fixed", corrected_codes: "[]" });
  await flushLogs(db);
  expect(await purgeOldLogs(db, 30)).toBe(1);
  const left = await db.selectFrom("request_logs").select("request_id").where("organization_id", "=", org.id).execute();
  expect(left).toEqual([{ request_id: "x" }]);
});

/** A request log of a fixed Autofix call. */
const fixedLog = (organization_id: number, request_id: string, charge: number) => ({
  request_id,
  organization_id,
  endpoint: "/v1/autofix",
  model: "m",
  status: 200,
  conversation: "[]",
  outcome: "fixed",
  charge,
  duration_ms: 1,
});

async function books(orgId: number) {
  const org = await db.selectFrom("organizations").select("credits").where("id", "=", orgId).executeTakeFirstOrThrow();
  const holds = await db.selectFrom("credit_holds").select("amount").where("organization_id", "=", orgId).execute();
  const ledger = await db.selectFrom("credit_ledger").select("delta").where("organization_id", "=", orgId).execute();
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { credits: org.credits, held: sum(holds.map((h) => h.amount)), ledger: sum(ledger.map((l) => l.delta)) };
}

const paidLog = { endpoint: "/v1/autofix", model: "service/autofix", status: 200, conversation: "[]", outcome: "fixed", duration_ms: 3 };

test("a hold is a row: balance + open holds = ledger through hold, settle, expiry and a late settle", async () => {
  const org = await createOrganization(db, "books", 5);
  expect(await holdCredits(db, org.id, 2, "b1")).toBe(true);
  expect(await holdCredits(db, org.id, 1, "b2")).toBe(true);
  expect(await books(org.id)).toEqual({ credits: 2, held: 3, ledger: 5 });
  // A young hold is not returned; one older than the expiry is, with a ledger row of 0 naming it.
  expect(await returnExpiredHolds(db)).toBe(0);
  await db
    .updateTable("credit_holds")
    .set({ created_at: new Date(Date.now() - 2 * 3_600_000).toISOString() })
    .where("request_id", "=", "b1")
    .execute();
  expect(await returnExpiredHolds(db)).toBe(1);
  expect(await books(org.id)).toEqual({ credits: 4, held: 1, ledger: 5 });
  const row = await db.selectFrom("credit_ledger").selectAll().where("request_id", "=", "b1").executeTakeFirstOrThrow();
  expect(row).toMatchObject({ delta: 0, organization_id: org.id });
  expect(row.reason).toStartWith("hold of 2 returned");
  // The request behind b1 settles after all: its charge is taken from the balance afresh.
  expect(await settle(db, { orgId: org.id, requestId: "b1", held: 2, charge: 2, reason: "autofix", log: paidLog })).toBe(2);
  expect(await books(org.id)).toEqual({ credits: 2, held: 1, ledger: 3 });
  // b2 settles normally; the hold row goes in the same transaction.
  expect(await settle(db, { orgId: org.id, requestId: "b2", held: 1, charge: 1, reason: "autofix", log: paidLog })).toBe(1);
  expect(await books(org.id)).toEqual({ credits: 2, held: 0, ledger: 2 });
  // A late settle the balance cannot pay charges nothing, and says so in its log.
  // (through a handle of its own: returnOpenHolds returns what that handle took, as a stopping server does)
  const server = await openDatabase(target);
  expect(await holdCredits(server, org.id, 2, "b3")).toBe(true);
  expect(await returnOpenHolds(server, "stopping")).toBe(1);
  await server.destroy();
  expect(await adjustCredits(db, org.id, -2, "spent elsewhere")).toEqual({ ok: true, credits: 0 });
  expect(await settle(db, { orgId: org.id, requestId: "b3", held: 2, charge: 2, reason: "autofix", log: paidLog })).toBe(0);
  expect(await books(org.id)).toEqual({ credits: 0, held: 0, ledger: 0 });
  await flushLogs(db);
  const log = await db.selectFrom("request_logs").select("charge").where("request_id", "=", "b3").executeTakeFirstOrThrow();
  expect(log.charge).toBe(0);
});

test("a failed settle leaves the hold in place", async () => {
  const org = await createOrganization(db, "failing", 3);
  expect(await holdCredits(db, org.id, 1, "f1")).toBe(true);
  // The ledger row is refused (no reason) after the hold was deleted: the transaction rolls back.
  await expect(settle(db, { orgId: org.id, requestId: "f1", held: 1, charge: 1, reason: null as never, log: paidLog })).rejects.toThrow();
  expect(await books(org.id)).toEqual({ credits: 2, held: 1, ledger: 3 });
});

test("a library stored in a transaction stays until it ends, even while the purge runs (concurrent writers on PostgreSQL)", async () => {
  const org = await createOrganization(db, "library-race", 0);
  const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
  const library = { hash: "f".repeat(64), config: "an old block no log names any more" };
  await db
    .insertInto("log_libraries")
    .values({ ...library, created_at: old })
    .execute();
  let purging: Promise<number> | undefined;
  await db.transaction().execute(async (tx) => {
    await storeLibrary(tx, library);
    // Another connection purges meanwhile (on SQLite it waits for this transaction anyway).
    purging = purgeOldLogs(db, 30);
    await Bun.sleep(100);
    await tx
      .insertInto("request_logs")
      .values({
        request_id: "lib-race",
        organization_id: org.id,
        endpoint: "/v1/autofix",
        model: "m",
        status: 200,
        conversation: "[]",
        outcome: "fixed",
        charge: 0,
        duration_ms: 1,
        library_hash: library.hash,
        created_at: new Date().toISOString(),
      })
      .execute();
  });
  await purging;
  expect(await db.selectFrom("log_libraries").select("hash").where("hash", "=", library.hash).execute()).toHaveLength(1);
});
