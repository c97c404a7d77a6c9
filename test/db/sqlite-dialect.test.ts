// The SQLite driver prepares each distinct SQL text once, keeps at most STATEMENT_CACHE_SIZE, and
// answers as kysely-bun-sqlite did (rows, affected rows, transactions, errors).
import { expect, test } from "bun:test";
import { Database as Sqlite } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, sql, type Generated } from "kysely";
import { prepared } from "../../src/db/prepared.ts";
import type { Database as Schema } from "../../src/db/schema.ts";
import { CachedStatementSqliteDialect, STATEMENT_CACHE_SIZE } from "../../src/db/sqlite-dialect.ts";

interface T {
  items: { id: Generated<number>; name: string };
}

function open() {
  const raw = new Sqlite(":memory:");
  let prepared = 0;
  const prepare = raw.prepare.bind(raw);
  raw.prepare = ((text: string) => {
    prepared++;
    return prepare(text);
  }) as typeof raw.prepare;
  const db = new Kysely<T>({ dialect: new CachedStatementSqliteDialect(raw) });
  return { db, prepared: () => prepared };
}

test("one prepare per distinct SQL text, bounded, same answers", async () => {
  const { db, prepared } = open();
  await sql`create table items (id integer primary key, name text not null unique)`.execute(db);
  const start = prepared();
  for (let i = 0; i < 100; i++)
    await db
      .insertInto("items")
      .values({ name: `n${i}` })
      .execute();
  expect(prepared() - start).toBe(1);
  const rows = await db.selectFrom("items").select("name").where("id", "<=", 2).orderBy("id").execute();
  expect(rows).toEqual([{ name: "n0" }, { name: "n1" }]);
  const updated = await db.updateTable("items").set({ name: "x" }).where("id", "=", 1).executeTakeFirst();
  expect(updated.numUpdatedRows).toBe(1n);
  // A failed statement leaves its prepared statement usable, and a failed transaction rolls back.
  await expect(db.insertInto("items").values({ name: "n5" }).execute()).rejects.toThrow();
  await expect(
    db.transaction().execute(async (tx) => {
      await tx.insertInto("items").values({ name: "in-tx" }).execute();
      await tx.insertInto("items").values({ name: "n7" }).execute();
    }),
  ).rejects.toThrow();
  expect(await db.selectFrom("items").select("id").where("name", "=", "in-tx").execute()).toEqual([]);
  await db.insertInto("items").values({ name: "after" }).execute();
  // More distinct texts than the cache holds: the oldest are prepared again, the cache stays bounded.
  const before = prepared();
  for (let n = 1; n <= STATEMENT_CACHE_SIZE + 10; n++) {
    await db
      .selectFrom("items")
      .select("id")
      .where(
        "id",
        "in",
        Array.from({ length: n }, (_, i) => i),
      )
      .execute();
  }
  expect(prepared() - before).toBe(STATEMENT_CACHE_SIZE + 10);
  await db.selectFrom("items").select("id").where("id", "in", [0]).execute();
  expect(prepared() - before).toBe(STATEMENT_CACHE_SIZE + 11);
  await db.destroy();
});

// The shortcuts for queries compiled once (prepared.ts): a statement runs at once where it may, a
// read may share a read transaction with the same reads of its turn of the event loop.

/** A SQLite file with WAL (as the server opens it), its statements counted by SQL text. */
function openFile() {
  const dir = mkdtempSync(join(tmpdir(), "tessera-dialect-"));
  const path = join(dir, "t.db");
  const raw = new Sqlite(path);
  raw.exec("PRAGMA journal_mode = WAL");
  const runs = new Map<string, number>();
  const connection = {
    get inTransaction() {
      return raw.inTransaction;
    },
    exec: (text: string) => raw.exec(text),
    close: () => raw.close(),
    prepare(text: string) {
      const stmt = raw.prepare(text);
      const count = () => runs.set(text, (runs.get(text) ?? 0) + 1);
      return {
        get columnNames() {
          return stmt.columnNames;
        },
        all: (...params: never[]) => (count(), stmt.all(...params)),
        run: (...params: never[]) => (count(), stmt.run(...params)),
        iterate: (...params: never[]) => stmt.iterate(...params),
        finalize: () => stmt.finalize(),
      };
    },
  };
  const db = new Kysely<Schema>({ dialect: new CachedStatementSqliteDialect(connection) });
  return { db, path, runs: (text: string) => runs.get(text) ?? 0, done: async () => (await db.destroy(), rmSync(dir, { recursive: true, force: true })) };
}

const nameOf = prepared<{ id: number }, { name: string }>((db, v) => db.selectFrom("organizations").select("name").where("id", "=", v("id")), {
  shared: true,
});
const addOrg = prepared<{ name: string }>((db, v) =>
  db.insertInto("organizations").values({ name: v("name"), credits: 0, suspended: 0, created_at: "2026-01-01" }),
);
const schema = (db: Kysely<Schema>) =>
  sql`create table organizations (id integer primary key, name text not null unique, credits integer not null, suspended integer not null, created_at text not null)`.execute(
    db,
  );
/** Resolves at the end of this turn of the event loop, after the I/O callbacks queued in it. */
const turnEnd = () => new Promise((resolve) => setImmediate(resolve));

test("a prepared statement runs at once when nobody has the connection, and waits for a transaction that has it", async () => {
  const { db, done } = openFile();
  await schema(db);
  let release!: () => void;
  const paused = new Promise<void>((resolve) => (release = resolve));
  let inTransaction!: () => void;
  const begun = new Promise<void>((resolve) => (inTransaction = resolve));
  const tx = db.transaction().execute(async (tx) => {
    await addOrg(tx, { name: "in the transaction" });
    inTransaction();
    await paused;
    throw new Error("rolled back");
  });
  await begun;
  // The transaction has the connection: this insert is not run inside it, it waits for its end.
  let outside = false;
  const insert = addOrg(db, { name: "outside" }).then(() => (outside = true));
  await turnEnd();
  expect(outside).toBe(false);
  release();
  await expect(tx).rejects.toThrow("rolled back");
  await insert;
  const names = (await db.selectFrom("organizations").select("name").execute()).map((r) => r.name);
  expect(names).toEqual(["outside"]);
  await done();
});

test("the reads of one turn share one read transaction; a lone read waits for nothing; a write ends the share at once", async () => {
  const { db, path, runs, done } = openFile();
  await schema(db);
  for (const name of ["a", "b", "c"]) await addOrg(db, { name });
  await turnEnd();

  // Eight reads asked for in one turn: one transaction for all of them, each with its own answer.
  const begins = runs("begin");
  const names = await Promise.all([1, 2, 3, 1, 2, 3, 1, 2].map(async (id) => (await nameOf(db, { id })).rows[0]?.name));
  expect(names).toEqual(["a", "b", "c", "a", "b", "c", "a", "b"]);
  expect(runs("begin") - begins).toBe(1);
  await turnEnd();

  // A lone read is answered before this turn's end: it does not wait for others to join.
  let turnOver = false;
  setImmediate(() => (turnOver = true));
  expect((await nameOf(db, { id: 2 })).rows).toEqual([{ name: "b" }]);
  expect(turnOver).toBe(false);
  await turnEnd();

  // Another process's write (a key revoked by the CLI) is seen by the reads of any later turn.
  const other = new Sqlite(path);
  other.exec("update organizations set name = 'renamed' where id = 3");
  other.close();
  expect((await nameOf(db, { id: 3 })).rows).toEqual([{ name: "renamed" }]);

  // A write in the same turn as a read ends the share: neither waits for the turn's end, and the
  // next read sees the write.
  turnOver = false;
  setImmediate(() => (turnOver = true));
  expect((await nameOf(db, { id: 1 })).rows).toEqual([{ name: "a" }]);
  await db.updateTable("organizations").set({ name: "written" }).where("id", "=", 1).execute();
  expect((await nameOf(db, { id: 1 })).rows).toEqual([{ name: "written" }]);
  await addOrg(db, { name: "d" });
  expect((await nameOf(db, { id: 4 })).rows).toEqual([{ name: "d" }]);
  expect(turnOver).toBe(false);
  // Once the turn is over, the shared transaction is: another process can write and checkpoint.
  await turnEnd();
  const writer = new Sqlite(path);
  writer.exec("PRAGMA busy_timeout = 0");
  writer.exec("begin immediate; update organizations set credits = 1; commit");
  expect(writer.query("PRAGMA wal_checkpoint(TRUNCATE)").get()).toMatchObject({ busy: 0 });
  writer.close();
  await done();
});
