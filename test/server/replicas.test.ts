// Two replicas: two `bun src/server/main.ts` processes on one database (PostgreSQL in the
// TESSERA_TEST_DB=postgres run; the SQLite run puts both on one WAL file), the same
// TESSERA_MASTER_KEY, requests spread over both. Nothing one replica needs is held in the other.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { createApiKey, createOrganization, findOrganizationByName, insertResponse, openDatabase, type Db } from "../../src/db/index.ts";
import { responseObject, settingsOf } from "../../src/responses/object.ts";
import { CreateBody } from "../../src/responses/schema.ts";
import { normalizeInput } from "../../src/responses/to-chat.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import { startSlowOpenAI, type SlowOpenAI } from "../support/slow-openai.ts";
import { autofixBody, BROKEN } from "./harness.ts";
import { eventually } from "../support/eventually.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";

const root = new URL("../..", import.meta.url).pathname;
const CLI = join(root, "src/cli/bin.js");

let fresh: TestDatabase;
let dir: string;
let db: Db;
let slow: SlowOpenAI;
let quick: SlowOpenAI;
const replicas: ServerProcess[] = [];
let env: Record<string, string>;

/** A replica with a data folder of its own: what the replicas share is the database and TESSERA_MASTER_KEY. */
const startReplica = (extra: Record<string, string> = {}) => startServerProcess({ ...env, TESSERA_DATA_DIR: mkdtempSync(join(dir, "data-")), ...extra });

beforeAll(async () => {
  fresh = await freshDatabase(undefined, "replicas");
  dir = mkdtempSync(join(tmpdir(), "tessera-replicas-"));
  slow = startSlowOpenAI(400, 50); // 20 s of answer: a cancel lands mid-run
  quick = startSlowOpenAI(3, 1);
  env = {
    ...(process.env as Record<string, string>),
    TESSERA_DB: fresh.target,
    TESSERA_MASTER_KEY: randomBytes(32).toString("base64"),
    TESSERA_DATA_DIR: dir,
    TESSERA_AUTOFIX_PRICE: "1",
    LOCAL_BASE_URL: slow.url,
    OPENAI_BASE_URL: quick.url,
    OPENAI_API_KEY: "test-key",
  };
  db = await openDatabase(fresh.target);
  replicas.push(await startReplica(), await startReplica());
}, 30_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await db?.destroy();
  slow?.stop();
  quick?.stop();
  await fresh?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const call = (replica: number, path: string, key: string, body?: unknown, method = body === undefined ? "GET" : "POST") =>
  fetch(replicas[replica]!.base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function orgWithKey(name: string, credits: number) {
  const org = await createOrganization(db, name, credits);
  return { org, ...(await createApiKey(db, org.id)) };
}

test("50 concurrent paid Autofix calls over both replicas against 10 credits charge exactly 10", async () => {
  const { org, key } = await orgWithKey("rush", 10);
  const res = await Promise.all(Array.from({ length: 50 }, (_, i) => call(i % 2, "/v1/autofix", key, autofixBody(BROKEN))));
  const statuses = res.map((r) => r.status);
  await Promise.all(res.map((r) => r.arrayBuffer()));
  expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  // Each replica answered its 25 with a fix or a 429 (which one wins the credits is a race).
  for (const r of [0, 1]) expect(statuses.filter((s, i) => i % 2 === r && (s === 200 || s === 429))).toHaveLength(25);
  expect((await findOrganizationByName(db, "rush"))!.credits).toBe(0);
  const ledger = await db.selectFrom("credit_ledger").select("delta").where("organization_id", "=", org.id).where("reason", "=", "autofix").execute();
  expect(ledger.map((l) => l.delta)).toEqual(Array(10).fill(-1));
}, 30_000);

test("a key revoked through the CLI is refused by both replicas on their next request", async () => {
  const { key, prefix } = await orgWithKey("revoked", 100);
  for (const r of [0, 1]) expect((await call(r, "/v1/autofix", key, autofixBody(BROKEN))).status).toBe(200);
  const cli = Bun.spawnSync(["node", CLI, "key", "revoke", prefix], { env, cwd: dir });
  expect(cli.stdout.toString()).toContain(`revoked 1 key with prefix ${prefix}`);
  for (const r of [0, 1]) {
    const res = await call(r, "/v1/autofix", key, autofixBody(BROKEN));
    expect(res.status).toBe(401);
  }
}, 30_000);

test("a response created on one replica is retrieved and continued through the other", async () => {
  const { key } = await orgWithKey("chain", 0);
  const first = await (await call(0, "/v1/embed/responses", key, { model: "openai/quick", input: "my name is Ada" })).json();
  expect(first.status).toBe("completed");
  const seen = await (await call(1, `/v1/embed/responses/${first.id}`, key)).json();
  expect(seen).toEqual(first);
  const items = await (await call(1, `/v1/embed/responses/${first.id}/input_items`, key)).json();
  expect(items.data.map((i: any) => i.content[0].text)).toEqual(["my name is Ada"]);
  const before = quick.bodies.length;
  const second = await (await call(1, "/v1/embed/responses", key, { model: "openai/quick", input: "what is my name?", previous_response_id: first.id })).json();
  expect(second.status).toBe("completed");
  // Replica 1 sent the whole chain, as replica 0 stored it.
  const sent = JSON.stringify(quick.bodies.slice(before));
  expect(sent).toContain("my name is Ada");
  expect(sent).toContain("what is my name?");
  expect(sent).toContain(first.output[0].content[0].text.trim());
}, 30_000);

test("a background response running on one replica is cancelled through the other, and its run stops", async () => {
  const { org, key } = await orgWithKey("cancel", 0);
  const created = await (await call(0, "/v1/embed/responses", key, { model: "local/slow", input: "a long one", background: true })).json();
  await eventually(
    async () => (await call(1, `/v1/embed/responses/${created.id}`, key)).json(),
    (seen) => seen.status === "in_progress" && slow.started > 0,
    { what: "the run to start" },
  );
  const cancelledAt = Date.now();
  const cancelled = await (await call(1, `/v1/embed/responses/${created.id}/cancel`, key, {})).json();
  expect(cancelled.status).toBe("cancelled");
  // Replica 0's run sees the cancel (it looks every second, its 30 s lease renews every 10 s) and
  // ends: its request log row says so, long before the 20 s answer.
  const logged = await eventually(
    () => db.selectFrom("request_logs").select(["outcome", "status"]).where("organization_id", "=", org.id).executeTakeFirst(),
    Boolean,
    {
      what: "the cancelled run's log row",
    },
  );
  expect(logged).toEqual({ outcome: "cancelled", status: 499 });
  expect(Date.now() - cancelledAt).toBeLessThan(5_000);
  expect((await (await call(0, `/v1/embed/responses/${created.id}`, key)).json()).status).toBe("cancelled");
}, 30_000);

test("a frontend token minted by one replica is accepted by the other (signed under the shared master key)", async () => {
  const { key } = await orgWithKey("tokens", 0);
  const minted = await (await call(0, "/v1/frontend-tokens", key, { user: "ada" })).json();
  const conv = await (await call(1, "/v1/conversations", minted.token, { metadata: { topic: "x" } })).json();
  expect(conv.id).toMatch(/^conv_/);
  const again = await (await call(0, `/v1/conversations/${conv.id}`, minted.token)).json();
  expect(again).toEqual(conv);
  const forged = minted.token.slice(0, -2) + (minted.token.endsWith("AA") ? "BB" : "AA");
  expect((await call(1, `/v1/conversations/${conv.id}`, forged)).status).toBe(401);
}, 30_000);

test("a background response whose replica is killed with -9 is claimed and failed by the other, saying why", async () => {
  // A pair of their own with 1 s leases, so that the lapse and the sweep take seconds.
  const quickLease = { TESSERA_LEASE_SECONDS: "1" };
  const doomed = await startReplica(quickLease);
  const survivor = await startReplica(quickLease);
  try {
    const { key } = await orgWithKey("orphan", 0);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const startedBefore = slow.started;
    const created = await (
      await fetch(`${doomed.base}/v1/embed/responses`, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: "local/slow", input: "a long one", background: true }),
      })
    ).json();
    // Killed once it is in progress (a job still queued is taken over and run: the next test).
    const read = () => fetch(`${survivor.base}/v1/embed/responses/${created.id}`, { headers }).then((r) => r.json() as Promise<any>);
    await eventually(read, (seen) => seen.status === "in_progress" && slow.started > startedBefore, { what: "the run to start" });
    await doomed.stop("SIGKILL");
    const after = await eventually(read, (r) => r.status !== "in_progress" && r.status !== "queued", { ms: 15_000, what: "the orphan to end" });
    expect(after.status).toBe("failed");
    expect(after.error.message).toContain("stopped before it finished");
    const row = await db.selectFrom("responses").select(["worker", "lease_until"]).where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ worker: null, lease_until: null });
    const replay = await (await fetch(`${survivor.base}/v1/embed/responses/${created.id}?stream=true`, { headers })).text();
    expect(replay).toContain("event: response.failed");
  } finally {
    await Promise.all([doomed.stop(), survivor.stop()]);
  }
}, 30_000);

test("a queued background response left by a stopped replica is run to the end by another", async () => {
  const worker = await startReplica({ TESSERA_LEASE_SECONDS: "1" });
  try {
    const { org, key } = await orgWithKey("takeover", 0);
    // The row as a replica writes it just before it runs the job, had it died right then.
    const body = v.parse(CreateBody, { model: "openai/quick", input: "left behind", background: true });
    const id = `resp_takeover${Date.now()}`;
    const input = normalizeInput(body.input as string);
    const now = Math.floor(Date.now() / 1000);
    await insertResponse(db, {
      id,
      organizationId: org.id,
      status: "queued",
      model: body.model,
      previousResponseId: null,
      conversationId: null,
      background: true,
      body: responseObject(settingsOf(body, id, now, null), { status: "queued", output: [] }),
      request: { body, requestId: "req_dead", held: 0 },
      worker: "a-replica-that-died",
      leaseUntil: now - 5,
      input,
    });
    const after = await eventually(
      async () => (await call(1, `/v1/embed/responses/${id}`, key)).json(),
      (r) => r.status !== "in_progress" && r.status !== "queued",
      { ms: 15_000, what: "the queued run to be taken over" },
    );
    expect(after.status).toBe("completed");
    expect(after.id).toBe(id);
    expect(after.output[0].content[0].text).toContain("w0");
    expect(JSON.stringify(quick.bodies.at(-1))).toContain("left behind");
    const replay = await (await call(0, `/v1/embed/responses/${id}?stream=true`, key)).text();
    expect(replay).toContain("event: response.completed");
    const log = await db.selectFrom("request_logs").select(["request_id", "outcome"]).where("organization_id", "=", org.id).execute();
    expect(log).toEqual([{ request_id: "req_dead", outcome: "completed" }]);
  } finally {
    await worker.stop();
  }
}, 30_000);
