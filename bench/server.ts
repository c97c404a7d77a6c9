// Server benchmark: Autofix on an already-valid ~100k-character generation over loopback HTTP.
// Reports p50/p99 latency, requests per second, and the share of request time spent parsing
// (as the server reports it in its Server-Timing header). Then Autofix requests per second at
// concurrency 8 on a small sample and on a ~100k program, each with one error the sanitizer
// fixes, as ratios to a Bun server that only JSON.parses the same body (bench/json-parse-server.ts),
// each server a process of its own, the median of alternated rounds each, with each server's CPU
// time per request (targets >= 0.25x and >= 0.2x, reported as met or not, never asserted).
// Bounded (fixed request counts), loopback only, temporary database. Run: bun bench/server.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, MAX_CREDITS } from "../src/db/index.ts";
import { serverConfig } from "../src/server/config.ts";
import { startServer } from "../src/server/main.ts";
import { autofixBody } from "../test/server/harness.ts";
import { startServerProcess } from "../test/support/server-process.ts";
import { keyedDatabase } from "./keyed-database.ts";
import { cpuBetween, cpuUs } from "./processes.ts";
import { median, pct, throughput } from "./stats.ts";

/** A valid program just under 100,000 characters: one root, many Text statements. */
export function bigGeneration(limit = 100_000): string {
  const lines: string[] = [];
  const ids: string[] = [];
  let size = 40;
  for (let i = 0; ; i++) {
    const line = `t${i} = Text("Row ${i} of the generated benchmark page", "${i % 2 ? "small" : "large"}")`;
    size += line.length + 1 + String(i).length + 3;
    if (size > limit - 200) break;
    lines.push(line);
    ids.push(`t${i}`);
  }
  return [`root = Stack([${ids.join(", ")}])`, ...lines].join("\n");
}

/** A small sample with one error (a misspelt component) the sanitizer fixes. */
export const SMALL_BROKEN = 'root = Stack([title, rows])\ntitle = Txt("Orders", "large")\nrows = Stack([Text("First row", "small"), Text("Second row")])';

/** bigGeneration() with one misspelt component in the middle. */
export function bigBroken(): string {
  const valid = bigGeneration();
  const at = valid.indexOf("= Text(", valid.length >> 1);
  return valid.slice(0, at) + "= Txt(" + valid.slice(at + 7);
}

/** One Autofix call; throws unless it answers 200 with `status`. */
async function callAutofix(url: string, key: string, body: string, status: "fixed" | "already_valid"): Promise<Response> {
  const res = await fetch(`${url}/v1/autofix`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body,
  });
  const json = (await res.json()) as { fix_summary?: { status: string } };
  if (res.status !== 200 || json.fix_summary?.status !== status) throw new Error(`unexpected answer ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
  return res;
}

/** Alternated rounds per workload (each server's median is compared). */
const ROUNDS = 7;

/** The ratio workloads: requests per round, and before the rounds (a server's compilers settle after about 12,000 small fixes), and the target. */
const WORKLOADS = [
  { name: "small sample, one error", program: () => SMALL_BROKEN, perRound: 3000, warmUp: 20_000, target: 0.25 },
  { name: "~100k program, one error", program: bigBroken, perRound: 400, warmUp: 2000, target: 0.2 },
] as const;

/**
 * Autofix requests per second against the JSON.parse-only server's, each server a process of its
 * own (test/support/server-process.ts): in one process, a round of either paid for the garbage and the code
 * the other left behind (the JSON.parse server served a 100k body 2–4 times faster in a round of
 * its own than right after an Autofix round).
 */
async function fixRatios(dir: string, concurrency: number) {
  const dbPath = join(dir, "fixes.db");
  const key = await keyedDatabase(dbPath, MAX_CREDITS, "bench-fixes");
  const env = { HOST: "127.0.0.1", TESSERA_DB: dbPath, TESSERA_DATA_DIR: dir };
  const [tessera, baseline] = await Promise.all([startServerProcess(env), startServerProcess({}, undefined, "bench/json-parse-server.ts")]);
  try {
    const ratios = [];
    for (const w of WORKLOADS) {
      const program = w.program();
      const body = JSON.stringify(autofixBody(program));
      const fix = async () => {
        await callAutofix(tessera.base, key, body, "fixed");
      };
      const parseOnly = async () => {
        const res = await fetch(`${baseline.base}/`, { method: "POST", headers: { "content-type": "application/json" }, body });
        await res.json();
      };
      await throughput(fix, w.warmUp, concurrency);
      await throughput(parseOnly, w.warmUp, concurrency);
      // Alternated rounds, each server's median: the machine is shared, and a round of either can
      // meet a stall. CPU per request is summed over the rounds (it moves less than req/s does).
      const a: number[] = [];
      const j: number[] = [];
      const cpu = { autofix: 0 as number | null, json: 0 as number | null };
      const round = async (call: () => Promise<void>, pid: number, which: keyof typeof cpu) => {
        const before = cpuUs([pid]);
        const rps = await throughput(call, w.perRound, concurrency);
        const used = cpuBetween(before, cpuUs([pid]));
        cpu[which] = used === null || cpu[which] === null ? null : cpu[which] + used / (w.perRound * ROUNDS);
        return rps;
      };
      for (let r = 0; r < ROUNDS; r++) {
        a.push(await round(fix, tessera.proc.pid, "autofix"));
        j.push(await round(parseOnly, baseline.proc.pid, "json"));
      }
      const autofix = median(a);
      const json = median(j);
      const each = a.map((x, i) => x / j[i]!).sort((x, y) => x - y);
      ratios.push({
        name: w.name,
        chars: program.length,
        autofix,
        json,
        ratio: autofix / json,
        low: each[0]!,
        high: each[each.length - 1]!,
        autofixCpu: cpu.autofix,
        jsonCpu: cpu.json,
        target: w.target,
      });
    }
    return ratios;
  } finally {
    await Promise.all([tessera.stop(), baseline.stop()]);
  }
}

export async function main(opts: { sequential?: number; concurrent?: number; concurrency?: number } = {}) {
  const sequential = opts.sequential ?? 200;
  const concurrent = opts.concurrent ?? 400;
  const concurrency = opts.concurrency ?? 8;
  const dir = mkdtempSync(join(tmpdir(), "tessera-bench-"));
  const server = await startServer(serverConfig({ port: 0, dbPath: join(dir, "bench.db"), dataDir: dir }), { log: () => {} });
  try {
    // One credit: a call needs credits to be accepted, though already_valid never spends them.
    const org = await createOrganization(server.db, "bench", 1);
    const { key } = await createApiKey(server.db, org.id);
    const generation = bigGeneration();
    const body = JSON.stringify(autofixBody(generation));
    const call = async () => {
      const res = await callAutofix(server.url, key, body, "already_valid");
      // The server reports its own parse time: `server-timing: parse;dur=<ms>`.
      return Number(/parse;dur=([\d.]+)/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? NaN);
    };

    for (let i = 0; i < 20; i++) await call(); // warm up JIT and SQLite

    const latencies: number[] = [];
    const parses: number[] = [];
    for (let i = 0; i < sequential; i++) {
      const t = performance.now();
      parses.push(await call());
      latencies.push(performance.now() - t);
    }
    const parseTotal = parses.reduce((a, b) => a + b, 0);
    const share = parseTotal / latencies.reduce((a, b) => a + b, 0);
    latencies.sort((a, b) => a - b);
    parses.sort((a, b) => a - b);

    const rps = await throughput(call, concurrent, concurrency);

    // Autofix that fixes (the sanitizer, charged) against a server that only JSON.parses the body.
    const ratios = await fixRatios(dir, concurrency);
    const p50 = pct(latencies, 50);
    const parseP50 = pct(parses, 50);
    const rows = [
      ["generation", `${generation.length} chars`],
      ["p50 latency", `${p50.toFixed(2)} ms`],
      ["p99 latency", `${pct(latencies, 99).toFixed(2)} ms`],
      [`requests/s (${concurrency} at once)`, rps.toFixed(0)],
      ["parse p50", `${parseP50.toFixed(2)} ms`],
      ["parse share of total time", `${(share * 100).toFixed(0)}%`],
    ];
    console.log("Autofix, already-valid 100k generation, loopback HTTP");
    for (const [k, v] of rows) console.log(`  ${k.padEnd(26)} ${v}`);
    console.log(`\nAutofix that fixes (sanitizer) vs a Bun server that only JSON.parses the same body, ${concurrency} at once,`);
    console.log("each server in a process of its own, warmed up first (median of alternated rounds; the range of the rounds' own ratios;");
    console.log("CPU: the server process's user and system time per request, all its threads; their ratio is what each server could");
    console.log("serve with a core to itself, where req/s also counts this process's client, which can hold the faster server back)");
    console.log(
      "| workload | chars | Autofix req/s | JSON.parse req/s | ratio | rounds' ratios | Autofix CPU/req | JSON.parse CPU/req | CPU ratio | target (req/s) |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const r of ratios) {
      const cpu = (us: number | null) => (us === null ? "n/a" : `${us.toFixed(0)} µs`);
      const cpuRatio = r.autofixCpu === null || r.jsonCpu === null ? "n/a" : `${(r.jsonCpu / r.autofixCpu).toFixed(3)}x`;
      console.log(
        `| ${r.name} | ${r.chars} | ${r.autofix.toFixed(0)} | ${r.json.toFixed(0)} | ${r.ratio.toFixed(3)}x | ${r.low.toFixed(3)}–${r.high.toFixed(3)}x | ${cpu(r.autofixCpu)} | ${cpu(r.jsonCpu)} | ${cpuRatio} | >= ${r.target}x: ${r.ratio >= r.target ? "met" : "NOT met"} |`,
      );
    }
    return {
      ratios,
      p50,
      p99: pct(latencies, 99),
      rps,
      parseP50,
      parseShare: share,
      generationChars: generation.length,
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
