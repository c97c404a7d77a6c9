// Migration 0011 on a database that already holds ledger rows (SQLite, or TESSERA_TEST_DB=postgres):
// every row and its id kept; on SQLite the id a plain rowid (no sqlite_sequence row written by a
// charge), new rows after the old ones; and back down.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Migrator, sql, type Kysely } from "kysely";
import { migrationProvider } from "../../src/db/migrations/index.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import { openSqlite } from "../../src/db/sqlite.ts";
import { chargeOutright, flushLogs, type Database } from "../../src/db/index.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";

let fresh: TestDatabase;
let db: Kysely<Database>;
let migrator: Migrator;
beforeAll(async () => {
  fresh = await freshDatabase(undefined, "lean_ledger");
  db = fresh.kind === "sqlite" ? await openSqlite(fresh.target) : openPostgres(fresh.target);
  migrator = new Migrator({ db, provider: migrationProvider });
});
afterAll(async () => {
  await db.destroy();
  await fresh.drop();
});

const migrateTo = async (name: string) => {
  const { error } = await migrator.migrateTo(name);
  if (error) throw error;
};
const ledger = () => db.selectFrom("credit_ledger").selectAll().orderBy("id").execute();
const sequence = async () =>
  fresh.kind === "sqlite" ? (await sql<{ name: string; seq: number }>`SELECT name, seq FROM sqlite_sequence ORDER BY name`.execute(db)).rows : [];

test("0011 keeps every ledger row and its id; a charge after it writes no sqlite_sequence row; back down and up again", async () => {
  await migrateTo("0010_lean_response_writes");
  const org = await db
    .insertInto("organizations")
    .values({ name: "ledger", credits: 100, suspended: 0, created_at: new Date().toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  await db
    .insertInto("credit_ledger")
    .values([
      { organization_id: org.id, delta: 100, reason: "initial credits", request_id: null, created_at: at },
      { organization_id: org.id, delta: -1, reason: "autofix", request_id: "req_1", created_at: at },
      { organization_id: org.id, delta: -2, reason: "embed", request_id: "req_2", created_at: at },
    ])
    .execute();
  const before = await ledger();
  expect(before).toHaveLength(3);

  await migrateTo("0011_lean_ledger");
  expect(await ledger()).toEqual(before);
  if (fresh.kind === "sqlite") {
    const table = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = 'credit_ledger'`.execute(db);
    expect(table.rows[0]!.sql.toLowerCase()).not.toContain("autoincrement");
  }

  // A charge: its ledger row after the old ones, and sqlite_sequence untouched.
  const names = await sequence();
  const paid = await chargeOutright(db, {
    orgId: org.id,
    requestId: "req_3",
    charge: 1,
    reason: "autofix",
    log: { endpoint: "/v1/autofix", model: "service/autofix", status: 200, conversation: "[]", outcome: "fixed", duration_ms: 1 },
  });
  expect(paid).toBe(true);
  // (Its request log is queued: written later, by the log queue.)
  expect(await sequence()).toEqual(names);
  await flushLogs(db);
  const after = await ledger();
  expect(after).toHaveLength(4);
  expect(after.at(-1)!).toMatchObject({ request_id: "req_3", delta: -1 });
  expect(after.at(-1)!.id).toBeGreaterThan(before.at(-1)!.id);
  expect((await sequence()).filter((r) => r.name === "credit_ledger")).toEqual([]);

  await migrateTo("0010_lean_response_writes");
  expect(await ledger()).toEqual(after);
  const { error } = await migrator.migrateToLatest();
  expect(error).toBeUndefined();
  expect(await ledger()).toEqual(after);
});
