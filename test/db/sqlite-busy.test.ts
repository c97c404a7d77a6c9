// A SQLite file locked by another connection: a statement waits for the lock off the event loop
// (the loop runs on meanwhile), runs once the lock goes, and fails as busy once the wait is over.
import { afterAll, expect, test } from "bun:test";
import { Database as Sqlite } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { openDatabase } from "../../src/db/index.ts";
import { isSqliteBusy, retryWhileBusy } from "../../src/db/sqlite-busy.ts";
import { troubleOf } from "../../src/db/trouble.ts";

const dir = mkdtempSync(join(tmpdir(), "tessera-busy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A migrated database, what waits for its lock, and another connection to the same file. */
async function lockedPair() {
  const path = join(dir, `${++n}.db`);
  let waited!: () => void;
  const waiting = new Promise<void>((resolve) => (waited = resolve));
  const db = await openDatabase(path, { onBusyWait: () => waited() });
  const other = new Sqlite(path);
  return { db, other, waiting };
}

test("a statement outside a transaction waits for the lock, the event loop running, and runs once it goes", async () => {
  const { db, other, waiting } = await lockedPair();
  other.exec("BEGIN IMMEDIATE");
  let done = false;
  const write = sql`insert into health_probes (id, filler) values ('a', 'x')`.execute(db).then(() => (done = true));
  await waiting;
  // A timer fires while the statement waits: SQLite's own busy timeout would have slept in this thread.
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(done).toBe(false);
  other.exec("COMMIT");
  await write;
  expect(await db.selectFrom("health_probes").select("id").execute()).toEqual([{ id: "a" }]);
  other.close();
  await db.destroy();
});

test("a transaction waits for the lock as it begins, then runs whole", async () => {
  const { db, other, waiting } = await lockedPair();
  other.exec("BEGIN IMMEDIATE");
  const tx = db.transaction().execute(async (t) => {
    await t.insertInto("health_probes").values({ id: "b", filler: "x" }).execute();
    await t.insertInto("health_probes").values({ id: "c", filler: "x" }).execute();
  });
  await waiting;
  // What the other connection commits meanwhile is seen, not overwritten: the lock came first.
  other.exec("INSERT INTO health_probes (id, filler) VALUES ('first', 'x')");
  other.exec("COMMIT");
  await tx;
  const ids = (await db.selectFrom("health_probes").select("id").orderBy("id").execute()).map((r) => r.id);
  expect(ids).toEqual(["b", "c", "first"]);
  other.close();
  await db.destroy();
});

test("past its wait, the statement fails as busy (a 503 with Retry-After for a route)", async () => {
  const path = join(dir, "raw.db");
  const mine = new Sqlite(path);
  mine.exec("PRAGMA journal_mode = WAL");
  mine.exec("PRAGMA busy_timeout = 0");
  const other = new Sqlite(path);
  other.exec("BEGIN IMMEDIATE");
  let told = 0;
  const error = await retryWhileBusy(
    () => mine.exec("BEGIN IMMEDIATE"),
    () => told++,
    50,
  ).catch((e: unknown) => e);
  expect(isSqliteBusy(error)).toBe(true);
  expect(troubleOf(error)).toBe("busy");
  expect(told).toBe(1);
  other.exec("ROLLBACK");
  // Once the lock is gone the same statement goes through at the first try after the pause.
  await retryWhileBusy(() => mine.exec("BEGIN IMMEDIATE"));
  mine.exec("ROLLBACK");
  other.close();
  mine.close();
});

test("every runtime's busy error is recognized: bun:sqlite names the code, Node's node:sqlite numbers it, Deno's says it", () => {
  expect(isSqliteBusy(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }))).toBe(true);
  expect(isSqliteBusy(Object.assign(new Error("database is locked"), { code: "ERR_SQLITE_ERROR", errcode: 5 }))).toBe(true);
  // SQLITE_BUSY_SNAPSHOT (517): an extended code of the same primary one.
  expect(isSqliteBusy(Object.assign(new Error("database is locked"), { code: "ERR_SQLITE_ERROR", errcode: 517 }))).toBe(true);
  expect(isSqliteBusy(Object.assign(new Error("constraint"), { code: "ERR_SQLITE_ERROR", errcode: 19 }))).toBe(false);
  expect(isSqliteBusy(Object.assign(new Error("constraint"), { code: "SQLITE_CONSTRAINT_UNIQUE" }))).toBe(false);
  // Deno 2.9: the code and SQLite's message only.
  expect(isSqliteBusy(Object.assign(new Error("database is locked"), { code: "ERR_SQLITE_ERROR" }))).toBe(true);
  expect(isSqliteBusy(Object.assign(new Error("database table is locked"), { code: "ERR_SQLITE_ERROR" }))).toBe(true);
  expect(isSqliteBusy(Object.assign(new Error("UNIQUE constraint failed: t.x"), { code: "ERR_SQLITE_ERROR" }))).toBe(false);
  expect(isSqliteBusy(new Error("database is locked"))).toBe(false);
});
