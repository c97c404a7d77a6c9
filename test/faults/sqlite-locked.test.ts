// A SQLite database locked by another process (a backup, an operator's sqlite3 shell in a
// transaction): paid calls answer 503 with Retry-After once the busy timeout has waited, never a
// generic 500; once the lock goes, they are served again, and the books balance.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase } from "../../src/db/index.ts";
import { books } from "../support/books.ts";
import { startServerProcess, until, type ServerProcess } from "../support/server-process.ts";
import { autofixBody, BROKEN, post } from "../server/harness.ts";

const dir = mkdtempSync(join(tmpdir(), "tessera-locked-"));
const path = join(dir, "tessera.db");
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

test("a locked SQLite database: 503 busy with Retry-After, then served again once the lock goes", async () => {
  const db = await openDatabase(path);
  const org = await createOrganization(db, "locked", 100);
  const { key } = await createApiKey(db, org.id);
  server = await startServerProcess({ TESSERA_DB: path, TESSERA_DATA_DIR: dir, TESSERA_AUTOFIX_PRICE: "1" });
  expect((await post(server.base, "/v1/autofix", key, autofixBody(BROKEN))).status).toBe(200);
  // Its request log is written after the answer: locked out, it would wait too (and try again).
  await until("the first call's log", async () => (await db.selectFrom("request_logs").select("id").execute()).length === 1);

  const other = new Database(path);
  other.exec("BEGIN EXCLUSIVE");
  let res: Response;
  try {
    res = await post(server.base, "/v1/autofix", key, autofixBody(BROKEN));
  } finally {
    other.exec("ROLLBACK");
    other.close();
  }
  const body = await res.json();
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("1");
  expect(body.error).toMatchObject({ code: "service_unavailable", type: "service_unavailable_error" });
  expect(body.error.message).toContain("busy");
  expect(server.log()).toContain("database trouble (busy)");

  expect((await post(server.base, "/v1/autofix", key, autofixBody(BROKEN))).status).toBe(200);
  // Both served calls are logged (the refused one left nothing to log: its charge never happened).
  await until("every request log", async () => (await db.selectFrom("request_logs").select("id").execute()).length === 2);
  const b = await books(db, org.id);
  expect(b).toMatchObject({ credits: 98, openHolds: 0, balanced: true });
  await db.destroy();
}, 30_000);
