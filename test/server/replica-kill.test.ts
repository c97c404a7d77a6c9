// Two replicas on one database; one is killed with -9 while paid Autofix calls wait on a slow
// fixing model on both. Throughout: balance + open holds = sum of the ledger (the hold invariant);
// the survivor's calls are charged; the dead one's holds come back, with a ledger row each, as
// soon as the survivor finds their owner gone (within a lease period). Nothing is lost.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { balancedBooks } from "../support/books.ts";
import { startHeldModel } from "../support/held-model.ts";
import { startServerProcess, until, type ServerProcess } from "../support/server-process.ts";
import { createApiKey, createOrganization, openDatabase, type Db } from "../../src/db/index.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import { autofixBody, HOPELESS, post, VALID } from "./harness.ts";

const CALLS = 6;
const START = 40;

/** The slow fixing model: every request waits until `model.release()`. */
const model = startHeldModel(VALID);

let fresh: TestDatabase;
let dir: string;
let db: Db;
beforeAll(async () => {
  fresh = await freshDatabase(undefined, "replica_kill");
  dir = mkdtempSync(join(tmpdir(), "tessera-replica-kill-"));
  db = await openDatabase(fresh.target);
});
afterAll(async () => {
  model.release();
  model.stop();
  await db?.destroy();
  await fresh?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const masterKey = randomBytes(32).toString("base64");

function replica(): Promise<ServerProcess> {
  return startServerProcess({
    TESSERA_DB: fresh.target,
    TESSERA_MASTER_KEY: masterKey,
    TESSERA_DATA_DIR: mkdtempSync(join(dir, "data-")),
    TESSERA_AUTOFIX_PRICE: "1",
    TESSERA_AUTOFIX_MODEL: "openai/slow-fixer",
    TESSERA_LEASE_SECONDS: "1",
    OPENAI_BASE_URL: `http://127.0.0.1:${model.port}/v1`,
    OPENAI_API_KEY: "sk-slow",
  });
}

test("a replica killed with -9 amid paid fixes on both: the books balance throughout, the survivor charges, nothing is lost", async () => {
  const org = await createOrganization(db, "two", START);
  const { key } = await createApiKey(db, org.id);
  const [a, b] = [await replica(), await replica()];
  try {
    const fire = (base: string) =>
      Array.from({ length: CALLS }, () =>
        post(base, "/v1/autofix", key, autofixBody(HOPELESS)).then(
          async (r) => ({ status: r.status, body: await r.json() }),
          () => ({ status: 0, body: null }),
        ),
      );
    const onA = fire(a.base);
    const onB = fire(b.base);
    await until("every call to reach the fixing model", () => model.arrived() === 2 * CALLS);
    const during = await balancedBooks(db, "two");
    expect(during).toEqual({ credits: START - 2 * CALLS, holds: 2 * CALLS, openHolds: 2 * CALLS, ledger: START });

    b.proc.kill(9);
    await b.proc.exited;
    model.release();
    const fromA = await Promise.all(onA);
    const fromB = await Promise.all(onB);
    expect(fromB.every((r) => r.status === 0)).toBe(true); // the connection died with its replica
    expect(fromA.map((r) => r.status)).toEqual(Array(CALLS).fill(200));

    // The survivor settled its calls; it finds the dead replica gone (its process, and within a
    // lease period its lease) and returns that one's holds: nothing lost, the books balanced throughout.
    await balancedBooks(db, "two");
    await until("the dead replica's holds to come back", async () => (await balancedBooks(db, "two")).openHolds === 0);
    expect(await balancedBooks(db, "two")).toEqual({ credits: START - CALLS, holds: 0, openHolds: 0, ledger: START - CALLS });
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}, 60_000);
