// Migration 0011 on a database that already holds ledger rows (SQLite, or TESSERA_TEST_DB=postgres):
// every row and its id kept; on SQLite the id a plain rowid (no sqlite_sequence row written by a
// charge), new rows after the old ones; and back down.
import { expect, test } from "bun:test";
import { sql } from "kysely";
import { chargeOutright, flushLogs } from "../../src/db/index.ts";
import { migrationTarget } from "../support/migration-target.ts";

const m = migrationTarget("lean_ledger");
const ledger = () => m.db.selectFrom("credit_ledger").selectAll().orderBy("id").execute();
const sequence = async () =>
  m.kind === "sqlite" ? (await sql<{ name: string; seq: number }>`SELECT name, seq FROM sqlite_sequence ORDER BY name`.execute(m.db)).rows : [];

test("0011 keeps every ledger row and its id; a charge after it writes no sqlite_sequence row; back down and up again", async () => {
  await m.migrateTo("0010_lean_response_writes");
  const orgId = await m.organization("ledger", 100);
  const at = new Date().toISOString();
  await m.db
    .insertInto("credit_ledger")
    .values([
      { organization_id: orgId, delta: 100, reason: "initial credits", request_id: null, created_at: at },
      { organization_id: orgId, delta: -1, reason: "autofix", request_id: "req_1", created_at: at },
      { organization_id: orgId, delta: -2, reason: "embed", request_id: "req_2", created_at: at },
    ])
    .execute();
  const before = await ledger();
  expect(before).toHaveLength(3);

  await m.migrateTo("0011_lean_ledger");
  expect(await ledger()).toEqual(before);
  if (m.kind === "sqlite") {
    const table = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = 'credit_ledger'`.execute(m.db);
    expect(table.rows[0]!.sql.toLowerCase()).not.toContain("autoincrement");
  }

  // A charge: its ledger row after the old ones, and sqlite_sequence untouched.
  const names = await sequence();
  const paid = await chargeOutright(m.db, {
    orgId: orgId,
    requestId: "req_3",
    charge: 1,
    reason: "autofix",
    log: { endpoint: "/v1/autofix", model: "service/autofix", status: 200, conversation: "[]", outcome: "fixed", duration_ms: 1 },
  });
  expect(paid).toBe(true);
  // (Its request log is queued: written later, by the log queue.)
  expect(await sequence()).toEqual(names);
  await flushLogs(m.db);
  const after = await ledger();
  expect(after).toHaveLength(4);
  expect(after.at(-1)!).toMatchObject({ request_id: "req_3", delta: -1 });
  expect(after.at(-1)!.id).toBeGreaterThan(before.at(-1)!.id);
  expect((await sequence()).filter((r) => r.name === "credit_ledger")).toEqual([]);

  await m.migrateTo("0010_lean_response_writes");
  expect(await ledger()).toEqual(after);
  const { error } = await m.migrator.migrateToLatest();
  expect(error).toBeUndefined();
  expect(await ledger()).toEqual(after);
});
