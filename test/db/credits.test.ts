// Credits are whole numbers within ±10^15 wherever they enter the database layer, so the balance
// column only ever holds an INTEGER (SQLite would store 1e20 as a REAL). On PostgreSQL
// (TESSERA_TEST_DB=postgres) the same bounds hold on its bigint columns.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database as Sqlite } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import { adjustCredits, createOrganization, findOrganizationByName, MAX_CREDITS, openDatabase, type Db } from "../../src/db/index.ts";

let fresh: TestDatabase;
let dir: string;
let path: string;
let db: Db;
beforeAll(async () => {
  fresh = await freshDatabase(undefined, "credits");
  dir = mkdtempSync(join(tmpdir(), "tessera-credits-"));
  path = fresh.kind === "sqlite" ? join(dir, "tessera.db") : fresh.target;
  db = await openDatabase(path);
});
afterAll(async () => {
  await db.destroy();
  await fresh.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** SQLite's own view of the stored values: every balance and ledger delta must be 'integer'. */
function storedTypes(): string[] {
  // PostgreSQL's bigint columns hold nothing else.
  if (fresh.kind === "postgres") return ["integer"];
  const raw = new Sqlite(path, { readonly: true });
  try {
    const rows = raw.query("SELECT typeof(credits) AS t FROM organizations UNION ALL SELECT typeof(delta) FROM credit_ledger").all() as { t: string }[];
    return [...new Set(rows.map((r) => r.t))];
  } finally {
    raw.close();
  }
}

test("MAX_CREDITS is 10^15, well inside the range JavaScript numbers hold exactly", () => {
  expect(MAX_CREDITS).toBe(10 ** 15);
  expect(MAX_CREDITS * 8).toBeLessThan(Number.MAX_SAFE_INTEGER);
});

test("an organization starts with a whole, bounded, non-negative balance", async () => {
  for (const bad of [1e20, 0.5, -1, Number.NaN, Infinity, MAX_CREDITS + 1]) {
    await expect(createOrganization(db, `bad-${bad}`, bad)).rejects.toThrow(RangeError);
  }
  expect(await findOrganizationByName(db, "bad-1e+20")).toBeUndefined();
  expect((await createOrganization(db, "full", MAX_CREDITS)).credits).toBe(MAX_CREDITS);
});

test("a credit change is whole and bounded; the balance never passes MAX_CREDITS and never becomes a REAL", async () => {
  const org = await createOrganization(db, "acme", 0);
  for (const bad of [1e20, -1e20, 0.5, Number.NaN, MAX_CREDITS + 1]) {
    await expect(adjustCredits(db, org.id, bad, "test")).rejects.toThrow(RangeError);
  }
  expect(await adjustCredits(db, org.id, MAX_CREDITS - 5, "test")).toEqual({ ok: true, credits: MAX_CREDITS - 5 });
  expect(await adjustCredits(db, org.id, 6, "test")).toEqual({ ok: false, credits: MAX_CREDITS - 5 });
  expect(await adjustCredits(db, org.id, 5, "test")).toEqual({ ok: true, credits: MAX_CREDITS });
  expect(await adjustCredits(db, org.id, -MAX_CREDITS - 0, "test")).toEqual({ ok: true, credits: 0 });
  expect(await adjustCredits(db, org.id, -1, "test")).toEqual({ ok: false, credits: 0 });
  expect(storedTypes()).toEqual(["integer"]);
});
