// A SQLite database locked by another process (a backup, an operator's sqlite3 shell in a
// transaction). The server waits for the lock off its event loop: meanwhile it answers what needs
// no database (/health/live), and a call served as soon as the lock goes. Past the wait (5 s), paid
// calls answer 503 with Retry-After, never a generic 500; once the lock goes they are served
// again, and the books balance.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase, type Db } from "../../src/db/index.ts";
import { books } from "../support/books.ts";
import { startServerProcess, until, type ServerProcess } from "../support/server-process.ts";
import { autofixBody, BROKEN, post } from "../server/harness.ts";

const dir = mkdtempSync(join(tmpdir(), "tessera-locked-"));
const path = join(dir, "tessera.db");
let server: ServerProcess;
let db: Db;
let key: string;
let orgId: number;
beforeAll(async () => {
  db = await openDatabase(path);
  const org = await createOrganization(db, "locked", 100);
  orgId = org.id;
  key = (await createApiKey(db, org.id)).key;
  server = await startServerProcess({ TESSERA_DB: path, TESSERA_DATA_DIR: dir, TESSERA_AUTOFIX_PRICE: "1" });
});
afterAll(async () => {
  await server?.stop("SIGKILL");
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Another process's write lock on the database, held until the returned function is called. */
function lockDatabase(): () => void {
  const other = new Database(path);
  other.exec("BEGIN EXCLUSIVE");
  return () => {
    other.exec("ROLLBACK");
    other.close();
  };
}

const logs = async () => (await db.selectFrom("request_logs").select("id").execute()).length;
const waits = () => server.log().split("database locked by another process").length - 1;

test("a locked SQLite database: 503 busy with Retry-After, then served again once the lock goes", async () => {
  expect((await post(server.base, "/v1/autofix", key, autofixBody(BROKEN))).status).toBe(200);
  // Its request log is written after the answer: locked out, it would wait too (and try again).
  await until("the first call's log", async () => (await logs()) === 1);

  const unlock = lockDatabase();
  let res: Response;
  let ready: Response;
  try {
    [res, ready] = await Promise.all([post(server.base, "/v1/autofix", key, autofixBody(BROKEN)), fetch(`${server.base}/health/ready`)]);
  } finally {
    unlock();
  }
  const body = await res.json();
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("1");
  expect(body.error).toMatchObject({ code: "service_unavailable", type: "service_unavailable_error" });
  expect(body.error.message).toContain("busy");
  expect(server.log()).toContain("database trouble (busy)");
  expect(ready.status).toBe(503);
  expect(await ready.json()).toMatchObject({ status: "degraded", database: "busy" });

  expect((await post(server.base, "/v1/autofix", key, autofixBody(BROKEN))).status).toBe(200);
  // Both served calls are logged (the refused one left nothing to log: its charge never happened).
  await until("every request log", async () => (await logs()) === 2);
  expect(await books(db, orgId)).toMatchObject({ credits: 98, openHolds: 0, balanced: true });
}, 30_000);

test("a call waiting for the lock stops nothing: /health/live answers meanwhile, and the call is served once the lock goes", async () => {
  const before = { waits: waits(), logs: await logs() };
  const unlock = lockDatabase();
  let settled = false;
  let paid: Promise<Response>;
  try {
    paid = post(server.base, "/v1/autofix", key, autofixBody(BROKEN)).finally(() => (settled = true));
    await until("the call to wait for the lock", () => waits() > before.waits);
    // SQLite's own busy wait (a busy timeout) slept in the server's one thread: nothing answered until it ended.
    const live = await fetch(`${server.base}/health/live`);
    expect(live.status).toBe(200);
    expect(settled).toBe(false);
  } finally {
    unlock();
  }
  expect((await paid).status).toBe(200);
  await until("its request log", async () => (await logs()) === before.logs + 1);
  expect(await books(db, orgId)).toMatchObject({ credits: 97, openHolds: 0, balanced: true });
}, 30_000);
