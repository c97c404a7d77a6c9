// kill -9 of a server in the middle of everything that holds credits or a running response:
// streamed stored responses, background runs, slow Autofix fixes (waiting on the fixing model) and
// streamed Embed calls. The next server on the database (started at once) leaves nothing
// `in_progress` and every hold returned, with a ledger row each; the books balance; nothing is lost.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase } from "../../src/db/index.ts";
import { books } from "../support/books.ts";
import { startHeldModel } from "../support/held-model.ts";
import { freshDatabase } from "../support/postgres.ts";
import { startServerProcess, until, type ServerProcess } from "../support/server-process.ts";
import { startSlowOpenAI } from "../support/slow-openai.ts";
import { autofixBody, HOPELESS, post, VALID } from "../server/harness.ts";

const START = 1000;
const slow = startSlowOpenAI(400, 50); // 20 s of answer: the kill lands mid-stream
const fixer = startHeldModel(VALID);
const dir = mkdtempSync(join(tmpdir(), "tessera-kill-"));
const fresh = await freshDatabase(undefined, "kill_restart");
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop("SIGKILL");
  fixer.release();
  fixer.stop();
  slow.stop();
  await fresh.drop();
  rmSync(dir, { recursive: true, force: true });
});

const env = {
  TESSERA_DB: fresh.target,
  TESSERA_DATA_DIR: dir,
  TESSERA_LEASE_SECONDS: "1",
  TESSERA_RESPONSES_PRICE: "1",
  TESSERA_EMBED_PRICE: "1",
  TESSERA_AUTOFIX_PRICE: "1",
  LOCAL_BASE_URL: slow.url,
  TESSERA_AUTOFIX_MODEL: "openai/slow-fixer",
  OPENAI_BASE_URL: `http://127.0.0.1:${fixer.port}/v1`,
  OPENAI_API_KEY: "sk-held",
};

/** Streams left open until the kill cuts them (kept referenced: a collected body would hang up). */
const open: ReadableStreamDefaultReader<Uint8Array>[] = [];

/** Opens a streamed call and reads its first event: the call is running (and holds) when this resolves. */
async function openStreamed(base: string, key: string, path: string, body: unknown): Promise<void> {
  const res = await post(base, path, key, body);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  await reader.read();
  open.push(reader);
}

test("kill -9 amid streamed and background responses, slow fixes and streamed Embed calls: after a restart nothing in progress, every hold back", async () => {
  const db = await openDatabase(fresh.target);
  const org = await createOrganization(db, "killed", START);
  const { key } = await createApiKey(db, org.id);
  const first = await startServerProcess(env);
  servers.push(first);

  for (let i = 0; i < 3; i++) await openStreamed(first.base, key, "/v1/embed/responses", { model: "local/slow", input: `stream ${i}`, stream: true });
  const background: string[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await post(first.base, "/v1/embed/responses", key, { model: "local/slow", input: `background ${i}`, background: true });
    background.push((await r.json()).id);
  }
  for (let i = 0; i < 2; i++)
    await openStreamed(first.base, key, "/v1/embed/chat/completions", { model: "local/slow", messages: [{ role: "user", content: "hi" }], stream: true });
  const fixes = Array.from({ length: 3 }, () =>
    post(first.base, "/v1/autofix", key, autofixBody(HOPELESS)).then(
      (r) => r.status,
      () => 0,
    ),
  );
  await until("every fix to wait on the fixing model", () => fixer.arrived() === 3);
  const running = () => db.selectFrom("responses").select(["id", "status", "background"]).where("status", "in", ["queued", "in_progress"]).execute();
  await until("every response to be running", async () => (await running()).length === 5);
  const during = await books(db, org.id);
  expect(during).toMatchObject({ openHolds: 10, balanced: true });

  await first.stop("SIGKILL");
  expect(await Promise.all(fixes)).toEqual([0, 0, 0]);
  fixer.release();
  expect(await books(db, org.id)).toEqual(during);

  const second = await startServerProcess(env);
  servers.push(second);
  // At start-up the dead process's holds and streamed responses are released; its background runs
  // once their lease (1 s here) has lapsed.
  await until("nothing to be in progress", async () => (await running()).length === 0, 10_000);
  await until("every hold to come back", async () => (await books(db, org.id)).openHolds === 0, 10_000);
  const after = await books(db, org.id);
  expect(after).toMatchObject({ credits: START, holds: 0, openHolds: 0, ledger: START, balanced: true });

  const rows = await db.selectFrom("responses").select(["id", "status", "body", "background"]).execute();
  expect(rows).toHaveLength(5);
  for (const row of rows) {
    expect(row.status).toBe("failed");
    expect(JSON.parse(row.body).error.message).toMatch(/stopped before it finished/);
  }
  // Retrieve answers what the row says, for streamed and background ones alike.
  for (const row of rows) {
    const got = await (await fetch(`${second.base}/v1/embed/responses/${row.id}`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(got.status).toBe("failed");
  }
  const returned = await db.selectFrom("credit_ledger").select("reason").where("organization_id", "=", org.id).where("delta", "=", 0).execute();
  expect(returned).toHaveLength(10);
  // And the new server serves.
  expect((await post(second.base, "/v1/embed/responses", key, { model: "local/slow", input: "again", background: true })).status).toBe(200);
  await db.destroy();
}, 60_000);
