// Two replicas on one database; one is killed with -9 while paid Autofix calls wait on a slow
// fixing model on both. Throughout: balance + open holds = sum of the ledger (the hold invariant);
// the survivor's calls are charged; the dead one's holds come back, with a ledger row each, as
// soon as the survivor finds their owner gone (within a lease period). Nothing is lost.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { startHeldModel } from "../support/held-model.ts";
import { createApiKey, createOrganization, findOrganizationByName, openDatabase, type Db } from "../../src/db/index.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import { autofixBody, HOPELESS, post, VALID } from "./harness.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
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

async function replica(): Promise<{ proc: Subprocess; base: string }> {
  const proc = Bun.spawn([process.execPath, "src/server/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: "0",
      TESSERA_DB: fresh.target,
      TESSERA_MASTER_KEY: masterKey,
      TESSERA_DATA_DIR: mkdtempSync(join(dir, "data-")),
      TESSERA_AUTOFIX_PRICE: "1",
      TESSERA_AUTOFIX_MODEL: "openai/slow-fixer",
      TESSERA_LEASE_SECONDS: "1",
      OPENAI_BASE_URL: `http://127.0.0.1:${model.port}/v1`,
      OPENAI_API_KEY: "sk-slow",
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  void (async () => {
    for await (const c of proc.stdout as ReadableStream<Uint8Array>) out += new TextDecoder().decode(c);
  })();
  const deadline = Date.now() + 20_000;
  for (;;) {
    const m = /listening on (http:\/\/[^\s]+)/.exec(out);
    if (m) return { proc, base: m[1]! };
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`replica did not start: ${out}`);
    await Bun.sleep(20);
  }
}

async function books(name: string) {
  const org = (await findOrganizationByName(db, name))!;
  const holds = await db.selectFrom("credit_holds").select("amount").where("organization_id", "=", org.id).execute();
  const ledger = await db.selectFrom("credit_ledger").select("delta").where("organization_id", "=", org.id).execute();
  return { credits: org.credits, holds: holds.reduce((n, h) => n + h.amount, 0), openHolds: holds.length, ledger: ledger.reduce((n, l) => n + l.delta, 0) };
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
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
    const during = await books("two");
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
    const after = await books("two");
    expect(after.credits + after.holds).toBe(after.ledger);
    await until("the dead replica's holds to come back", async () => (await books("two")).openHolds === 0);
    expect(await books("two")).toEqual({ credits: START - CALLS, holds: 0, openHolds: 0, ledger: START - CALLS });
  } finally {
    for (const r of [a, b]) r.proc.kill();
    await Promise.all([a.proc.exited, b.proc.exited]);
  }
}, 60_000);
