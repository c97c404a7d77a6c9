// The database layer on a real SQLite file: migrations, WAL, keys, credits, holds, retention.
import { migrationProvider } from "../../src/db/migrations/index.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database as Sqlite } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  adjustCredits, createApiKey, createOrganization, hashKey, holdCredits, listApiKeys, openDatabase,
  purgeOldLogs, reliabilitySummary, revokeApiKeys, settle, verifyApiKey, writeReliabilityEvent, writeRequestLog, type Db,
} from "../../src/db/index.ts";

let dir: string;
let path: string;
let db: Db;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tessera-db-"));
  path = join(dir, "nested", "tessera.db");
  db = await openDatabase(path);
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

test("opens in WAL mode with every table, and migrating twice is a no-op", async () => {
  const again = await openDatabase(path);
  await again.destroy();
  const raw = new Sqlite(path, { readonly: true });
  expect((raw.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode).toBe("wal");
  const tables = (raw.query("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  expect(tables).toEqual(expect.arrayContaining([
    "organizations", "api_keys", "credit_ledger", "request_logs", "reliability_events",
    "responses", "response_items", "response_events", "conversations", "conversation_items",
  ]));
  // Each migration ran exactly once, in order, though the database was opened twice.
  const migrations = raw.query("SELECT name FROM kysely_migration ORDER BY name").all();
  expect(migrations).toEqual(Object.keys(await migrationProvider.getMigrations()).sort().map((name) => ({ name })));
  raw.close();
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
