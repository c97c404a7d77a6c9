// The SQLite driver prepares each distinct SQL text once, keeps at most STATEMENT_CACHE_SIZE, and
// answers as kysely-bun-sqlite did (rows, affected rows, transactions, errors).
import { expect, test } from "bun:test";
import { Database as Sqlite } from "bun:sqlite";
import { Kysely, sql, type Generated } from "kysely";
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
