// Scale-out benchmark: paid Autofix (a broken generation fixed by the sanitizer: a credit held and
// settled per call), non-streaming Embed Chat Completions (a stand-in provider; a credit per
// call) and non-streaming Responses (stored: the response, its items, the settlement; a credit
// per response) through real server processes (`bun src/server/main.ts`), side by side on
//   SQLite (one process, one file) | PostgreSQL, one replica | PostgreSQL, two replicas
// the client spreading requests over the replicas. Requests per second at a fixed concurrency, and
// p50/p99 latency. Loopback only, bounded counts, a throwaway PostgreSQL (test/support/postgres.ts).
// Run: bun bench/scale.ts [requests per cell] [surfaces, e.g. responses or embed,responses]
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase } from "../src/db/index.ts";
import { startFakeOpenAI } from "../test/support/fake-providers.ts";
import { freshDatabase, postgresBinaries, SKIP_POSTGRES, type TestDatabase } from "../test/support/postgres.ts";
import { autofixBody, BROKEN } from "../test/server/harness.ts";
import { freePort } from "../test/support/ports.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const CONCURRENCY = 32;
const WARM_UP = 10 * CONCURRENCY;

async function replica(env: Record<string, string>): Promise<{ url: string; proc: Bun.Subprocess }> {
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, "src/server/main.ts"], { cwd: ROOT, env: { ...env, PORT: String(port) }, stdout: "ignore", stderr: "inherit" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, proc };
    await Bun.sleep(50);
  }
  proc.kill();
  throw new Error("a replica did not start");
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function load(urls: string[], path: string, key: string, body: string, n: number) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const one = async (i: number) => {
    const t = performance.now();
    const res = await fetch(urls[i % urls.length]! + path, { method: "POST", headers, body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
    return performance.now() - t;
  };
  const burst = async (count: number, latencies: number[]) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) latencies.push(await one(next++));
      }),
    );
  };
  // Warm-up at the same concurrency, so that every pooled connection is open and every statement
  // prepared (and the code compiled) before the clock starts, on every database alike.
  await burst(WARM_UP, []);
  const latencies: number[] = [];
  const t0 = performance.now();
  await burst(n, latencies);
  const rps = n / ((performance.now() - t0) / 1000);
  latencies.sort((a, b) => a - b);
  return { rps, p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

const SURFACES = ["autofix", "embed", "responses"] as const;

export async function main(n = Number(process.argv[2] ?? 2000), surfaces: readonly string[] = process.argv[3]?.split(",") ?? SURFACES) {
  const unknown = surfaces.filter((x) => !(SURFACES as readonly string[]).includes(x));
  if (unknown.length) throw new Error(`unknown surface ${unknown.join(", ")}: ${SURFACES.join(", ")}`);
  const fake = startFakeOpenAI();
  fake.fallback = { text: "The quick brown fox jumps over the lazy dog." };
  fake.calls.push = () => 0; // keep none: the fake would grow without bound
  const dir = mkdtempSync(join(tmpdir(), "tessera-scale-"));
  const pg = postgresBinaries();
  const pgWhy = SKIP_POSTGRES ? "TESSERA_SKIP_POSTGRES=1" : "missing" in pg ? pg.missing : null;
  const setups: { label: string; replicas: number; kind: "sqlite" | "postgres" }[] = [
    { label: "SQLite, 1 process", replicas: 1, kind: "sqlite" },
    { label: "PostgreSQL, 1 replica", replicas: 1, kind: "postgres" },
    { label: "PostgreSQL, 2 replicas", replicas: 2, kind: "postgres" },
  ];
  const results: Record<string, Record<string, string>> = {};
  try {
    for (const setup of setups) {
      if (setup.kind === "postgres" && pgWhy) {
        console.log(`${setup.label}: not run (${pgWhy})`);
        continue;
      }
      const db: TestDatabase = await freshDatabase(setup.kind, "bench");
      const env = {
        ...(process.env as Record<string, string>),
        TESSERA_DB: db.target,
        TESSERA_DB_POOL: "10",
        TESSERA_MASTER_KEY: randomBytes(32).toString("base64"),
        TESSERA_DATA_DIR: dir,
        TESSERA_AUTOFIX_PRICE: "1",
        TESSERA_EMBED_PRICE: "1",
        TESSERA_RESPONSES_PRICE: "1",
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: "sk-bench",
      };
      const admin = await openDatabase(db.target);
      const org = await createOrganization(admin, "bench", 1_000_000_000);
      const { key } = await createApiKey(admin, org.id);
      await admin.destroy();
      const procs = [];
      for (let i = 0; i < setup.replicas; i++) procs.push(await replica(env));
      try {
        const urls = procs.map((p) => p.url);
        const bodies: Record<(typeof SURFACES)[number], [label: string, path: string, body: string]> = {
          autofix: ["Autofix", "/v1/autofix", JSON.stringify(autofixBody(BROKEN))],
          embed: [
            "Embed",
            "/v1/embed/chat/completions",
            JSON.stringify({ model: "openai/gpt-bench", messages: [{ role: "user", content: "Say something." }] }),
          ],
          responses: ["Responses", "/v1/embed/responses", JSON.stringify({ model: "openai/gpt-bench", input: "Say something." })],
        };
        const row: Record<string, string> = {};
        for (const surface of SURFACES) {
          if (!surfaces.includes(surface)) continue;
          const [label, path, body] = bodies[surface];
          const r = await load(urls, path, key, body, n);
          row[`${label} req/s`] = r.rps.toFixed(0);
          row[`${label} p50 ms`] = r.p50.toFixed(1);
          row[`${label} p99 ms`] = r.p99.toFixed(1);
        }
        results[setup.label] = row;
      } finally {
        for (const p of procs) p.proc.kill();
        await Promise.all(procs.map((p) => p.proc.exited));
        await db.drop();
      }
    }
  } finally {
    fake.stop?.();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`Paid ${surfaces.join(", ")} through server processes, ${n} requests per cell, ${CONCURRENCY} at once, pool 10 per replica`);
  console.table(results);
  const sqlite = results["SQLite, 1 process"]?.["Responses req/s"];
  const pg1 = results["PostgreSQL, 1 replica"]?.["Responses req/s"];
  if (sqlite && pg1) console.log(`Responses on PostgreSQL (1 replica) / SQLite: ${(Number(pg1) / Number(sqlite)).toFixed(2)}x`);
  return results;
}

if (import.meta.main) await main();
