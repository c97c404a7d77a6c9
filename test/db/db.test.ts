// The database layer on a real SQLite file, or (TESSERA_TEST_DB=postgres) a real PostgreSQL:
// migrations, WAL, keys, credits, holds, retention.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database as Sqlite } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { migrationProvider } from "../../src/db/migrations/index.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import {
  adjustCredits, claimLapsedResponses, endResponse, insertResponse, isRunning, renewLease, createApiKey, createOrganization, hashKey, holdCredits, listApiKeys, openDatabase,
  purgeOldLogs, reliabilitySummary, revokeApiKeys, settle, verifyApiKey, writeReliabilityEvent, writeRequestLog, type Db,
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
  expect(tables).toEqual(expect.arrayContaining([
    "organizations", "api_keys", "credit_ledger", "request_logs", "reliability_events",
    "conversations", "conversation_items", "responses", "response_items", "response_events",
  ]));
  const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(await migrationProvider.getMigrations()).sort());
  if (fresh.kind === "sqlite") {
    const raw = new Sqlite(target, { readonly: true });
    expect((raw.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode).toBe("wal");
    raw.close();
  }
});

test("integers come back as exact JavaScript numbers (bigint columns, count, sum, max)", async () => {
  const org = await createOrganization(db, "numbers", 2 ** 40);
  const row = await db.selectFrom("organizations").select(["id", "credits"]).where("id", "=", org.id).executeTakeFirstOrThrow();
  expect(row).toEqual({ id: org.id, credits: 2 ** 40 });
  const agg = await db.selectFrom("credit_ledger")
    .select((eb) => [eb.fn.countAll().as("n"), eb.fn.sum("delta").as("total"), eb.fn.max("id").as("last")])
    .where("organization_id", "=", org.id).executeTakeFirstOrThrow();
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
  const results = await Promise.all(Array.from({ length: 30 }, () => holdCredits(db, org.id, 1)));
  expect(results.filter(Boolean)).toHaveLength(7);
  const row = await db.selectFrom("organizations").select("credits").where("id", "=", org.id).executeTakeFirstOrThrow();
  expect(row.credits).toBe(0);
});

test("settle charges, refunds the rest of the hold and logs in one transaction", async () => {
  const org = await createOrganization(db, "settle", 4);
  expect(await holdCredits(db, org.id, 2)).toBe(true);
  await settle(db, {
    orgId: org.id, requestId: "r1", held: 2, charge: 1, reason: "autofix",
    log: { endpoint: "/v1/autofix", model: "service/autofix", status: 200, conversation: "[]", outcome: "fixed", duration_ms: 3 },
    event: { model: "service/autofix", endpoint: "/v1/autofix", outcome: "fixed", corrected_codes: '["orphaned"]' },
  });
  const row = await db.selectFrom("organizations").select("credits").where("id", "=", org.id).executeTakeFirstOrThrow();
  expect(row.credits).toBe(3);
  // A failing settlement (unknown organization breaks the foreign key) leaves nothing behind.
  const before = await db.selectFrom("request_logs").select("id").execute();
  await expect(settle(db, {
    orgId: 999_999, requestId: "r2", held: 0, charge: 1, reason: "autofix",
    log: { endpoint: "/v1/autofix", model: "service/autofix", status: 200, conversation: "[]", outcome: "fixed", duration_ms: 3 },
  })).rejects.toThrow();
  expect(await db.selectFrom("request_logs").select("id").execute()).toHaveLength(before.length);
  expect(await reliabilitySummary(db, org.id)).toEqual([
    { model: "service/autofix", requests: 1, outcomes: { fixed: 1 }, corrections: { total: 1, byCode: { orphaned: 1 } } },
  ]);
});

test("holds are refused while suspended", async () => {
  const org = await createOrganization(db, "suspended", 5);
  await db.updateTable("organizations").set({ suspended: 1 }).where("id", "=", org.id).execute();
  expect(await holdCredits(db, org.id, 1)).toBe(false);
});

test("retention purges request logs older than the window, keeps the rest", async () => {
  const org = await createOrganization(db, "old", 0);
  const log = { request_id: "x", organization_id: org.id, endpoint: "/v1/autofix", model: "m", status: 200, conversation: "[]", outcome: "fixed", charge: 0, duration_ms: 1 };
  await writeRequestLog(db, log);
  await db.insertInto("request_logs").values({ ...log, request_id: "old", created_at: new Date(Date.now() - 31 * 86_400_000).toISOString() }).execute();
  await writeReliabilityEvent(db, { organization_id: org.id, model: "m", endpoint: "e", outcome: "fixed", corrected_codes: "[]" });
  expect(await purgeOldLogs(db, 30)).toBe(1);
  const left = await db.selectFrom("request_logs").select("request_id").where("organization_id", "=", org.id).execute();
  expect(left).toEqual([{ request_id: "x" }]);
});

test("background jobs: concurrent claims of lapsed leases are disjoint; renewal stops at a cancel or another's claim", async () => {
  const org = await createOrganization(db, "jobs", 0);
  const now = Math.floor(Date.now() / 1000);
  const job = (i: number, leaseUntil: number | null, worker: string | null) => insertResponse(db, {
    id: `resp_job${i}`, organizationId: org.id, status: i % 2 ? "queued" : "in_progress", model: "m", previousResponseId: null,
    conversationId: null, background: true, body: {}, request: {}, worker, leaseUntil, input: [],
  });
  for (let i = 0; i < 30; i++) await job(i, i < 20 ? now - 5 : now + 60, i < 20 ? "gone" : "alive");
  const claims = await Promise.all(Array.from({ length: 6 }, (_, w) => claimLapsedResponses(db, `w${w}`, now + 30, now, 4)));
  const ids = claims.flat().map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe(20);
  for (const [w, rows] of claims.entries()) for (const r of rows) expect(r).toMatchObject({ worker: `w${w}`, lease_until: now + 30 });
  expect(await claimLapsedResponses(db, "late", now + 30, now)).toEqual([]);
  // The first worker's job, cancelled through any replica: its renewal says so.
  const mine = claims[0][0];
  expect(await renewLease(db, mine.id, "w0", now + 60)).toBe(true);
  expect(await renewLease(db, mine.id, "w1", now + 60)).toBe(false);
  expect(await endResponse(db, mine.id, "cancelled", { status: "cancelled" })).toBe(true);
  expect(await renewLease(db, mine.id, "w0", now + 90)).toBe(false);
  expect(await isRunning(db, mine.id)).toBe(false);
});
