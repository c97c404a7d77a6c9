// Credits survive the server's death. The real server (`bun src/server/main.ts`) is spawned on a
// real SQLite file (a PostgreSQL database when TESSERA_TEST_DB=postgres) with a fixing model on
// loopback that answers only when the test lets it; paid Autofix calls wait on it while the server
// is killed with -9 or stopped with TERM. Throughout: balance + open holds = sum of the ledger, and
// afterwards nothing is lost.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { balancedBooks } from "../support/books.ts";
import { startHeldModel } from "../support/held-model.ts";
import { startServerProcess, until, type ServerProcess } from "../support/server-process.ts";
import { createApiKey, createOrganization, findOrganizationByName, openDatabase, type Db } from "../../src/db/index.ts";
import { HOLD_EXPIRY_MS } from "../../src/db/billing.ts";
import { FIXING_MODEL_TIMEOUT_MS } from "../../src/server/surfaces/autofix/fixing-model.ts";
import { PROVIDER_DEADLINE_MS } from "../../src/server/provider-target.ts";
import { SHUTDOWN_GRACE_MS } from "../../src/server/main.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import { autofixBody, HOPELESS, post, VALID } from "./harness.ts";

const CALLS = 8;
const START_CREDITS = 20;

/** The slow fixing model: every request waits until `model.release()`. */
const model = startHeldModel(VALID);

let dir: string;
let db: Db;
/** Databases made for the tests (SQLite files, or PostgreSQL databases when TESSERA_TEST_DB=postgres). */
const made: TestDatabase[] = [];
async function newDatabase(name: string): Promise<string> {
  const fresh = await freshDatabase(undefined, name);
  made.push(fresh);
  return fresh.target;
}
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tessera-shutdown-"));
});
afterAll(async () => {
  model.release();
  model.stop();
  await db?.destroy();
  for (const fresh of made) await fresh.drop();
  rmSync(dir, { recursive: true, force: true });
});

function spawnServer(dbPath: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServerProcess({
    TESSERA_DB: dbPath,
    TESSERA_AUTOFIX_PRICE: "1",
    TESSERA_AUTOFIX_MODEL: "openai/slow-fixer",
    OPENAI_BASE_URL: `http://127.0.0.1:${model.port}/v1`,
    OPENAI_API_KEY: "sk-slow",
    ...env,
  });
}

async function orgWithKey(name: string): Promise<string> {
  const org = await createOrganization(db, name, START_CREDITS);
  return (await createApiKey(db, org.id)).key;
}

/** Fires CALLS paid fixes and resolves once every one waits on the model (its hold taken). */
async function fireFixes(base: string, key: string) {
  const before = model.arrived();
  const answers = Array.from({ length: CALLS }, () =>
    post(base, "/v1/autofix", key, autofixBody(HOPELESS)).then(
      async (r) => ({ status: r.status, body: await r.json() }),
      (e: Error) => ({ status: 0, body: e.message }),
    ),
  );
  await until("every call to reach the fixing model", () => model.arrived() - before === CALLS);
  return answers;
}

test("a hold expires only after the longest paid request could have ended", () => {
  expect(HOLD_EXPIRY_MS).toBeGreaterThan(FIXING_MODEL_TIMEOUT_MS + SHUTDOWN_GRACE_MS);
  expect(HOLD_EXPIRY_MS).toBeGreaterThan(PROVIDER_DEADLINE_MS + SHUTDOWN_GRACE_MS);
});

test("kill -9 in the middle of paid fixes: the holds stay on the books until a server starts again, which returns them at once", async () => {
  const dbPath = await newDatabase("kill");
  db = await openDatabase(dbPath);
  const key = await orgWithKey("killed");
  const server = await spawnServer(dbPath);
  const answers = await fireFixes(server.base, key);

  const during = await balancedBooks(db, "killed");
  expect(during).toMatchObject({ credits: START_CREDITS - CALLS, holds: CALLS, openHolds: CALLS, ledger: START_CREDITS });

  server.proc.kill(9);
  await server.proc.exited;
  model.release();
  const settled = await Promise.all(answers);
  expect(settled.every((a) => a.status === 0)).toBe(true); // no answer: the connection died
  const afterKill = await balancedBooks(db, "killed");
  expect(afterKill).toEqual(during);

  // Restarted at once: the holds' owner (the killed process) is gone, so they come back now, each
  // with a ledger row, not an hour later (HOLD_EXPIRY_MS is only the backstop).
  const restarted = await spawnServer(dbPath);
  const after = await balancedBooks(db, "killed");
  expect(after).toEqual({ credits: START_CREDITS, holds: 0, openHolds: 0, ledger: START_CREDITS });
  const org = (await findOrganizationByName(db, "killed"))!;
  const returned = await db.selectFrom("credit_ledger").selectAll().where("organization_id", "=", org.id).where("delta", "=", 0).execute();
  expect(returned).toHaveLength(CALLS);
  expect(returned.every((r) => r.request_id && /^hold of 1 returned: its server stopped/.test(r.reason))).toBe(true);
  expect(restarted.log()).toContain(`${CALLS} credit hold(s) returned`);

  // And the restarted server still charges as before.
  const ok = await fireFixes(restarted.base, key);
  model.release();
  const done = await Promise.all(ok);
  expect(done.map((a) => a.status)).toEqual(Array(CALLS).fill(200));
  expect(await balancedBooks(db, "killed")).toEqual({ credits: START_CREDITS - CALLS, holds: 0, openHolds: 0, ledger: START_CREDITS - CALLS });
  expect(await restarted.stop()).toBe(0);
  await db.destroy();
}, 60_000);

test("TERM in the middle of paid fixes: no new requests, those in flight complete, are settled and logged", async () => {
  const dbPath = await newDatabase("term");
  db = await openDatabase(dbPath);
  const key = await orgWithKey("stopped");
  const server = await spawnServer(dbPath);
  const answers = await fireFixes(server.base, key);
  await balancedBooks(db, "stopped");

  server.proc.kill("SIGTERM");
  await until("the server to say it is stopping", () => server.log().includes("SIGTERM"));
  // A request after TERM is refused; those in flight are still waiting on the model.
  const late = await post(server.base, "/v1/autofix", key, autofixBody(HOPELESS)).then(
    (r) => r.status,
    () => 0,
  );
  expect(late).toBe(0);
  expect(server.proc.exitCode).toBeNull();
  await balancedBooks(db, "stopped");

  model.release();
  const done = await Promise.all(answers);
  expect(done.map((a) => a.status)).toEqual(Array(CALLS).fill(200));
  expect(done.every((a) => a.body.fix_summary.status === "fixed")).toBe(true);
  expect(await server.proc.exited).toBe(0);
  // Its last line is written before it exits (console.log to a pipe was dropped by exit()).
  await until("the last log line", () => server.log().includes("stopped: requests settled, logs written, database closed"));

  const after = await balancedBooks(db, "stopped");
  expect(after).toEqual({ credits: START_CREDITS - CALLS, holds: 0, openHolds: 0, ledger: START_CREDITS - CALLS });
  const org = (await findOrganizationByName(db, "stopped"))!;
  const logs = await db.selectFrom("request_logs").select(["status", "charge"]).where("organization_id", "=", org.id).execute();
  expect(logs).toHaveLength(CALLS);
  expect(logs.every((l) => l.status === 200 && l.charge === 1)).toBe(true);
  await db.destroy();
}, 60_000);

test("SIGINT while the model never answers: after the grace the calls are cut and their holds returned", async () => {
  const dbPath = await newDatabase("grace");
  db = await openDatabase(dbPath);
  const key = await orgWithKey("cut");
  const server = await spawnServer(dbPath, { TESSERA_SHUTDOWN_GRACE_MS: "300" });
  const answers = await fireFixes(server.base, key);
  await balancedBooks(db, "cut");

  server.proc.kill("SIGINT");
  expect(await server.proc.exited).toBe(0);
  expect(server.log()).toContain("SIGINT");
  const done = await Promise.all(answers);
  expect(done.every((a) => a.status !== 200)).toBe(true);
  const after = await balancedBooks(db, "cut");
  expect(after).toEqual({ credits: START_CREDITS, holds: 0, openHolds: 0, ledger: START_CREDITS });
  const org = (await findOrganizationByName(db, "cut"))!;
  const returned = await db.selectFrom("credit_ledger").select("reason").where("organization_id", "=", org.id).where("delta", "=", 0).execute();
  expect(returned).toHaveLength(CALLS);
  expect(returned[0]!.reason).toContain("the server stopped before the request ended");
  model.release();
  await db.destroy();
}, 60_000);
