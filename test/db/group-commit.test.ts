// Shared write transactions (src/db/group-commit.ts) and queries compiled once (src/db/prepared.ts),
// on a real SQLite file or (TESSERA_TEST_DB=postgres) a real PostgreSQL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import { createOrganization, openDatabase, type Db } from "../../src/db/index.ts";
import { inSharedTransaction } from "../../src/db/group-commit.ts";
import { changedRows, prepared } from "../../src/db/prepared.ts";

// freshDatabase() gives a file in a folder of its own (SQLite) or a database (PostgreSQL); drop() removes either.
let fresh: TestDatabase;
let db: Db;
beforeAll(async () => {
  fresh = await freshDatabase(undefined, "group_commit");
  db = await openDatabase(fresh.target);
});
afterAll(async () => {
  await db.destroy();
  await fresh.drop();
});

const ledger = (orgId: number, reason: string) =>
  db.selectFrom("credit_ledger").select("delta").where("organization_id", "=", orgId).where("reason", "=", reason).execute();
const write = (orgId: number, reason: string, delta: number) => (tx: Db) =>
  tx.insertInto("credit_ledger").values({ organization_id: orgId, delta, reason, request_id: null, created_at: new Date().toISOString() }).execute();

test("jobs asked for in one turn each get their own result, and all of their writes", async () => {
  const org = await createOrganization(db, "group-all", 0);
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      inSharedTransaction(db, async (tx) => {
        await write(org.id, "all", i)(tx);
        return i * 2;
      }),
    ),
  );
  expect(results).toEqual(Array.from({ length: 40 }, (_, i) => i * 2));
  expect((await ledger(org.id, "all")).map((r) => r.delta).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
});

test("a job that fails takes back only its own writes: the others of its turn commit", async () => {
  const org = await createOrganization(db, "group-fail", 0);
  const outcomes = await Promise.allSettled([
    inSharedTransaction(db, async (tx) => (await write(org.id, "fail", 1)(tx), "first")),
    inSharedTransaction(db, async (tx) => {
      await write(org.id, "fail", 2)(tx);
      throw new Error("the second job fails after writing");
    }),
    // A statement the database refuses (no such organization: a foreign key), not just a JS throw.
    inSharedTransaction(db, async (tx) => (await write(999_999, "fail", 3)(tx), "third")),
    inSharedTransaction(db, async (tx) => (await write(org.id, "fail", 4)(tx), "fourth")),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
  expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe("the second job fails after writing");
  expect((outcomes[0] as PromiseFulfilledResult<string>).value).toBe("first");
  expect((await ledger(org.id, "fail")).map((r) => r.delta).sort()).toEqual([1, 4]);
  // And the next turn's jobs run as usual.
  expect(await inSharedTransaction(db, async (tx) => (await write(org.id, "fail", 5)(tx), "after"))).toBe("after");
});

test("a prepared query is compiled once per database and runs with each call's values, in and out of a transaction", async () => {
  const org = await createOrganization(db, "prepared", 10);
  let builds = 0;
  const take = prepared<{ id: number; amount: number }>((d, v) => {
    builds++;
    return d
      .updateTable("organizations")
      .set((eb) => ({ credits: eb("credits", "-", v("amount")) }))
      .where("id", "=", v("id"))
      .where("credits", ">=", v("amount"));
  });
  const name = prepared<{ id: number }, { name: string; credits: number }>((d, v) =>
    d.selectFrom("organizations").select(["name", "credits"]).where("id", "=", v("id")),
  );

  expect(changedRows(await take(db, { id: org.id, amount: 3 }))).toBe(1);
  expect(changedRows(await take(db, { id: org.id, amount: 8 }))).toBe(0); // 7 left: refused
  await db.transaction().execute(async (tx) => {
    expect(changedRows(await take(tx, { id: org.id, amount: 7 }))).toBe(1);
  });
  expect(builds).toBe(1);
  expect((await name(db, { id: org.id })).rows).toEqual([{ name: "prepared", credits: 0 }]);
  expect((await name(db, { id: 999_999 })).rows).toEqual([]);
});
