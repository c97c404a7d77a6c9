// PostgreSQL restarted under load with two replicas on it: neither dies, every answer meanwhile
// is a success or a 503 with Retry-After (never a 500), both serve again within seconds of the
// database's return, and the books balance with exactly one charge per successful answer.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { createApiKey, createOrganization, openDatabase, type Db } from "../../src/db/index.ts";
import { startPostgres, SKIP_POSTGRES, type Server } from "../support/postgres.ts";
import { startFakeOpenAI, type FakeProvider } from "../support/fake-providers.ts";
import { books } from "../support/books.ts";
import { startServerProcess, until, type ServerProcess } from "../support/server-process.ts";
import { autofixBody, BROKEN, post } from "../server/harness.ts";

const START = 100_000;
const LOOPS = 4; // concurrent callers per replica and per surface

let pg: Server;
let db: Db;
let target: string;
let fake: FakeProvider;
let dir: string;
let replicas: ServerProcess[] = [];

beforeAll(async () => {
  if (SKIP_POSTGRES) return;
  pg = await startPostgres();
  await pg.admin(`CREATE DATABASE faults`);
  target = pg.url("faults");
  db = await openDatabase(target);
  fake = startFakeOpenAI();
  fake.fallback = { text: "hello" };
  dir = mkdtempSync(join(tmpdir(), "tessera-pg-restart-"));
});

afterAll(async () => {
  for (const r of replicas) await r.stop("SIGKILL");
  await db?.destroy();
  fake?.stop();
  if (pg) pg.stop("immediate");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test.skipIf(SKIP_POSTGRES)(
  "PostgreSQL restarted twice and stopped a while under load: both replicas live, 503 + Retry-After meanwhile, serving again after, the books exact",
  async () => {
    const org = await createOrganization(db, "load", START);
    const { key } = await createApiKey(db, org.id);
    const env = {
      TESSERA_DB: target,
      TESSERA_MASTER_KEY: randomBytes(32).toString("base64"),
      TESSERA_DATA_DIR: dir,
      TESSERA_AUTOFIX_PRICE: "1",
      TESSERA_EMBED_PRICE: "1",
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: "sk-fake",
      TESSERA_DB_POOL: "4",
    };
    replicas = [await startServerProcess(env), await startServerProcess(env)];

    const statuses = new Map<number, number>();
    const problems: string[] = [];
    let running = true;
    const call = async (base: string, surface: "autofix" | "embed") => {
      const res =
        surface === "autofix"
          ? await post(base, "/v1/autofix", key, autofixBody(BROKEN))
          : await post(base, "/v1/embed/chat/completions", key, { model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
      const body = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 503) {
        if (!res.headers.get("retry-after")) problems.push(`503 without Retry-After: ${body}`);
        if (JSON.parse(body).error.code !== "service_unavailable") problems.push(`503 of another kind: ${body}`);
      } else if (res.status !== 200) problems.push(`${surface} ${res.status}: ${body}`);
      return res.status;
    };
    const loop = async (base: string, surface: "autofix" | "embed") => {
      while (running) await call(base, surface).catch((e) => problems.push(`${surface}: ${e}`));
    };
    const loops = replicas.flatMap((r) => Array.from({ length: LOOPS }, () => [loop(r.base, "autofix"), loop(r.base, "embed")]).flat());

    const served = () => statuses.get(200) ?? 0;
    for (let round = 0; round < 2; round++) {
      const before = served();
      await until("calls to succeed before the restart", () => served() >= before + 20);
      pg.restart("fast");
      const back = Date.now();
      // Both replicas serve a paid call again within seconds of the database's return.
      for (const r of replicas) {
        await until(`replica ${r.base} to serve again`, async () => (await call(r.base, "autofix")) === 200, 10_000);
      }
      expect(Date.now() - back).toBeLessThan(10_000);
    }
    // Down for longer than a transaction's retries: 503 with Retry-After, /health degraded; then back.
    pg.stop("fast");
    for (const r of replicas) {
      await until(`replica ${r.base} to answer 503`, async () => (await call(r.base, "embed")) === 503, 15_000);
      const health = await fetch(`${r.base}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: "degraded", database: "unreachable" });
      expect((await fetch(`${r.base}/health/live`)).status).toBe(200);
    }
    pg.start();
    for (const r of replicas) await until(`replica ${r.base} to serve again`, async () => (await call(r.base, "embed")) === 200, 10_000);
    running = false;
    await Promise.all(loops);

    for (const r of replicas) expect(r.alive()).toBe(true);
    expect(problems).toEqual([]);
    // Readiness reports the database as reachable again.
    for (const r of replicas) expect((await fetch(`${r.base}/health/ready`)).status).toBe(200);

    // Every answer settled before it went out: one charge per success, nothing held, the books balanced.
    const b = await books(db, org.id);
    expect(b.openHolds).toBe(0);
    expect(b.balanced).toBe(true);
    expect(START - b.credits).toBe(served());
    console.log(`postgres restarts: ${[...statuses].map(([s, n]) => `${n}×${s}`).join(", ")}; credits charged ${START - b.credits}, lost 0`);
  },
  60_000,
);
