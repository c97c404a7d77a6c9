// Scale-out benchmark: paid Autofix (a broken generation fixed by the sanitizer: a credit held and
// settled per call), non-streaming Embed Chat Completions (a stand-in provider; a credit per
// call) and non-streaming Responses (stored: the response, its items, the settlement; a credit
// per response) through real server processes (`bun src/server/main.ts`), side by side on
//   SQLite (one process, one file) | PostgreSQL, one replica | PostgreSQL, two replicas
// the client spreading requests over the replicas. Requests per second at a fixed concurrency, and
// p50/p99 latency. Loopback only, bounded counts, a throwaway PostgreSQL (test/support/postgres.ts).
// Every cell's servers run at once and the cells take turns in ROUNDS rounds (each round a share of
// the requests, the order reversed every other round), so that a change in the machine's other load
// reaches every cell alike: req/s is the median of a cell's rounds, the PostgreSQL / SQLite ratio the
// median of the per-round ratios (with their lowest and highest).
// Run: bun bench/scale.ts [requests per cell] [surfaces, e.g. responses or embed,responses] [rounds]
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import pg from "pg";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase } from "../src/db/index.ts";
import { startFakeOpenAI } from "../test/support/fake-providers.ts";
import { freshDatabase, postgresBinaries, SKIP_POSTGRES, type TestDatabase } from "../test/support/postgres.ts";
import { autofixBody, BROKEN } from "../test/server/harness.ts";
import { freePort } from "../test/support/ports.ts";
import { cpuBetween, cpuUs } from "./processes.ts";
import { median, pct } from "./stats.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const CONCURRENCY = 32;
const WARM_UP = 10 * CONCURRENCY;
const ROUNDS = 5;

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

async function burst(urls: string[], path: string, key: string, body: string, count: number, latencies: number[]) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const one = async (i: number) => {
    const t = performance.now();
    const res = await fetch(urls[i % urls.length]! + path, { method: "POST", headers, body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
    return performance.now() - t;
  };
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) latencies.push(await one(next++));
    }),
  );
  return count / ((performance.now() - t0) / 1000);
}

// CPU time of the server processes and (PostgreSQL) of the database server's processes, read from
// /proc (processes.ts; elsewhere the column is left out): on a machine shared with other work, CPU
// per request moves less than requests per second do.
const parentOf = (pid: number) => {
  try {
    return Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
  } catch {
    return -1;
  }
};
/** The database server's processes: its postmaster (the parent of a backend) and every child of it. */
async function databasePids(target: string): Promise<() => number[]> {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  const postmaster = parentOf((await client.query("SELECT pg_backend_pid() AS pid")).rows[0].pid);
  await client.end();
  return () => [
    postmaster,
    ...readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p))
      .map(Number)
      .filter((p) => parentOf(p) === postmaster),
  ];
}

const SURFACES = ["autofix", "embed", "responses"] as const;

export async function main(
  n = Number(process.argv[2] ?? 2000),
  surfaces: readonly string[] = process.argv[3]?.split(",") ?? SURFACES,
  rounds = Number(process.argv[4] ?? ROUNDS),
) {
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
  const bodies: Record<(typeof SURFACES)[number], [label: string, path: string, body: string]> = {
    autofix: ["Autofix", "/v1/autofix", JSON.stringify(autofixBody(BROKEN))],
    embed: ["Embed", "/v1/embed/chat/completions", JSON.stringify({ model: "openai/gpt-bench", messages: [{ role: "user", content: "Say something." }] })],
    responses: ["Responses", "/v1/embed/responses", JSON.stringify({ model: "openai/gpt-bench", input: "Say something." })],
  };
  type Cell = { label: string; urls: string[]; key: string; procs: Bun.Subprocess[]; db: TestDatabase; dbPids: () => number[] };
  const cells: Cell[] = [];
  const results: Record<string, Record<string, string>> = {};
  const ratios: string[] = [];
  try {
    for (const setup of setups) {
      if (setup.kind === "postgres" && pgWhy) {
        console.log(`${setup.label}: not run (${pgWhy})`);
        continue;
      }
      const db: TestDatabase = await freshDatabase(setup.kind, "bench");
      const cell: Cell = { label: setup.label, urls: [], key: "", procs: [], db, dbPids: setup.kind === "postgres" ? await databasePids(db.target) : () => [] };
      cells.push(cell);
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
      cell.key = (await createApiKey(admin, org.id)).key;
      await admin.destroy();
      for (let i = 0; i < setup.replicas; i++) {
        const r = await replica(env);
        cell.procs.push(r.proc);
        cell.urls.push(r.url);
      }
    }
    for (const surface of SURFACES) {
      if (!surfaces.includes(surface)) continue;
      const [label, path, body] = bodies[surface];
      // Warm-up at the same concurrency, so that every pooled connection is open and every statement
      // prepared (and the code compiled) before the clock starts, on every database alike.
      for (const cell of cells) await burst(cell.urls, path, cell.key, body, WARM_UP, []);
      const rps = new Map<Cell, number[]>(cells.map((c) => [c, []]));
      const latencies = new Map<Cell, number[]>(cells.map((c) => [c, []]));
      const cpu = new Map<Cell, { server: number; db: number } | null>(cells.map((c) => [c, { server: 0, db: 0 }]));
      const perRound: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? cells : [...cells].reverse();
        const count = Math.ceil(n / rounds);
        for (const cell of order) {
          const pids = cell.procs.map((p) => p.pid);
          const [server0, db0] = [cpuUs(pids), cpuUs(cell.dbPids())];
          rps.get(cell)!.push(await burst(cell.urls, path, cell.key, body, count, latencies.get(cell)!));
          const [server, db] = [cpuBetween(server0, cpuUs(pids)), cpuBetween(db0, cpuUs(cell.dbPids()))];
          const sum = cpu.get(cell);
          if (sum && server !== null && db !== null) {
            sum.server += server / count;
            sum.db += db / count;
          } else cpu.set(cell, null);
        }
        if (cells.length >= 2) perRound.push(rps.get(cells[1]!)!.at(-1)! / rps.get(cells[0]!)!.at(-1)!);
      }
      for (const cell of cells) {
        const sorted = latencies.get(cell)!.sort((a, b) => a - b);
        const row = (results[cell.label] ??= {});
        row[`${label} req/s`] = median(rps.get(cell)!).toFixed(0);
        row[`${label} p50 ms`] = pct(sorted, 50).toFixed(1);
        row[`${label} p99 ms`] = pct(sorted, 99).toFixed(1);
        const used = cpu.get(cell);
        if (used) row[`${label} CPU µs/req server+db`] = `${(used.server / rounds).toFixed(0)}+${(used.db / rounds).toFixed(0)}`;
      }
      if (perRound.length) {
        const [lo, hi] = [Math.min(...perRound), Math.max(...perRound)];
        ratios.push(`${label} on PostgreSQL (1 replica) / SQLite: ${median(perRound).toFixed(2)}x (rounds ${lo.toFixed(2)}–${hi.toFixed(2)}x)`);
      }
    }
  } finally {
    for (const cell of cells) for (const p of cell.procs) p.kill();
    await Promise.all(cells.flatMap((c) => c.procs.map((p) => p.exited)));
    for (const cell of cells) await cell.db.drop();
    fake.stop?.();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `Paid ${surfaces.join(", ")} through server processes, ${n} requests per cell in ${rounds} rounds, ${CONCURRENCY} at once, pool 10 per replica (req/s: median round)`,
  );
  console.table(results);
  for (const line of ratios) console.log(line);
  return results;
}

if (import.meta.main) await main();
