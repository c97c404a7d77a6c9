// Concurrent streams on one server process: N streamed Embed calls opened at once against a
// stand-in provider that holds every stream until all N have reached it (or 15 s after the first),
// then sends each its first chunk at the same moment, then a few more and the end. For each
// stream: how long after that moment its client saw the first chunk. Run side by side in one go:
//   anchor   the server as it was, Bun's default of 256 concurrent fetch() calls per process
//   tessera  the server as started by main.ts, which raises the limit to TESSERA_MAX_PROVIDER_CALLS
// Also the server's resident memory while the N streams are open, per stream, and the CPU time it
// spent per stream: until the provider answered (request, auth, hold, the provider call's start),
// until every first chunk had reached its client, and the rest (later chunks, the settlement). CPU time does not depend on
// how busy the machine is, the delays do: the load average is printed with them.
// Run: bun bench/streams.ts [streams]   (default 1000)
import http from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase } from "../src/db/index.ts";
import { startServerProcess } from "../test/support/server-process.ts";
import { cpuUs } from "./processes.ts";
import { pct } from "./stats.ts";

const CHUNKS_AFTER_FIRST = 4;
const CHUNK_GAP_MS = 250;
const GATE_WAIT_MS = 15_000;

/** The stand-in provider: OpenAI's streaming wire; in each round, every stream's first chunk goes out at one moment. */
function gatedProvider() {
  let round = { expected: 1, arrived: 0, openAt: 0, open: () => {}, gate: Promise.resolve() };
  const arm = (expected: number) => {
    const r = { expected, arrived: 0, openAt: 0, open: () => {}, gate: Promise.resolve() };
    r.gate = new Promise<void>(
      (resolve) =>
        (r.open = () => {
          r.openAt ||= performance.timeOrigin + performance.now();
          resolve();
        }),
    );
    round = r;
    return r;
  };
  const enc = new TextEncoder();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const body = await req.json();
      const r = round;
      if (++r.arrived === 1) setTimeout(r.open, GATE_WAIT_MS);
      if (r.arrived === r.expected) r.open();
      const base = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: body.model };
      const frame = (o: unknown) => enc.encode(`data: ${JSON.stringify(o)}\n\n`);
      let sent = 0;
      return new Response(
        new ReadableStream<Uint8Array>({
          async pull(ctrl) {
            if (sent === 0) await r.gate;
            else await Bun.sleep(CHUNK_GAP_MS);
            if (sent <= CHUNKS_AFTER_FIRST) {
              ctrl.enqueue(frame({ ...base, choices: [{ index: 0, delta: { content: `w${sent} ` }, finish_reason: null }] }));
              sent++;
              return;
            }
            ctrl.enqueue(frame({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
            ctrl.enqueue(enc.encode("data: [DONE]\n\n"));
            ctrl.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, arm, stop: () => server.stop(true) };
}

/** CPU time a process has used, user and system, in ms (Linux; processes.ts). */
function cpuMs(pid: number): number {
  return (cpuUs([pid])?.get(pid) ?? Number.NaN) / 1000;
}

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** node:http, not fetch(): the client side must not meet the very limit being measured. */
function openStream(agent: http.Agent, base: string, key: string, body: string, onFirst = () => {}): Promise<{ first: number; ok: boolean }> {
  return new Promise((resolve) => {
    const req = http.request(
      `${base}/v1/embed/chat/completions`,
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      },
      (res) => {
        let first = -1;
        let text = "";
        res.on("data", (c: Buffer) => {
          text += c.toString();
          if (first < 0 && text.includes('"content"')) {
            first = performance.now() + performance.timeOrigin;
            onFirst();
          }
        });
        res.on("end", () => resolve({ first, ok: res.statusCode === 200 && text.includes("[DONE]") }));
        res.on("error", () => resolve({ first, ok: false }));
      },
    );
    req.on("error", () => resolve({ first: -1, ok: false }));
    req.end(body);
  });
}

async function run(n: number, env: Record<string, string>) {
  const provider = gatedProvider();
  const dir = mkdtempSync(join(tmpdir(), "tessera-streams-"));
  const dbPath = join(dir, "bench.db");
  const db = await openDatabase(dbPath);
  const org = await createOrganization(db, "bench", 0);
  const { key } = await createApiKey(db, org.id);
  await db.destroy();
  const server = await startServerProcess({
    TESSERA_DB: dbPath,
    TESSERA_DATA_DIR: dir,
    OPENAI_BASE_URL: provider.url,
    OPENAI_API_KEY: "sk-bench",
    TESSERA_EMBED_PRICE: "0",
    ...env,
  });
  const { proc, base } = server;
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
    const body = JSON.stringify({ model: "openai/gpt-bench", messages: [{ role: "user", content: "Say something." }], stream: true });
    provider.arm(1);
    await openStream(agent, base, key, body); // warm-up
    const idle = rssMb(proc.pid);
    const round = provider.arm(n);
    let atGate = -1;
    const cpuStart = cpuMs(proc.pid);
    let cpuAtGate = Number.NaN;
    void round.gate.then(() => {
      atGate = round.arrived;
      cpuAtGate = cpuMs(proc.pid);
    });
    const arrivedAtGate = () => atGate;
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(proc.pid));
    }, 50);
    // The server's CPU time when the last stream's first chunk has reached its client.
    let firsts = 0;
    let cpuAtFirsts = Number.NaN;
    const onFirst = () => {
      if (++firsts === n) cpuAtFirsts = cpuMs(proc.pid);
    };
    const streams = await Promise.all(Array.from({ length: n }, () => openStream(agent, base, key, body, onFirst)));
    clearInterval(sampler);
    const cpuEnd = cpuMs(proc.pid);
    agent.destroy();
    const delays = streams.filter((s) => s.first > 0).map((s) => s.first - round.openAt);
    return {
      ok: streams.filter((s) => s.ok).length,
      // Streams that had reached the provider when it sent its first chunks.
      reached: arrivedAtGate(),
      withinSecond: delays.filter((d) => d <= 1000).length,
      p50: pct(delays, 50),
      p90: pct(delays, 90),
      p99: pct(delays, 99),
      max: Math.max(...delays),
      cpuBeforeMs: (cpuAtGate - cpuStart) / n,
      cpuFirstMs: (cpuAtFirsts - cpuAtGate) / n,
      cpuAfterMs: (cpuEnd - cpuAtFirsts) / n,
      idleMb: idle,
      peakMb: peak,
      perStreamKb: ((peak - idle) * 1024) / n,
    };
  } finally {
    await server.stop();
    provider.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(n = Number(process.argv[2] ?? 1000)) {
  const loadBefore = loadavg()[0]!;
  const anchor = await run(n, { TESSERA_MAX_PROVIDER_CALLS: "256" });
  const tessera = await run(n, {});
  console.log(`concurrent streams bench: ${n} streamed Embed calls at once on one process; the stand-in provider sends every first chunk at one moment`);
  console.log(
    `(load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after, on ${availableParallelism()} cores: the delays count this machine's contention too, the CPU times do not)`,
  );
  console.log(
    "| server | streams ok | at the provider when it answered | first chunk within 1 s of the provider's | first chunk delay ms p50 / p90 / p99 / max | server CPU ms per stream: to the provider / its first chunk out / the rest | RSS idle MB | RSS with streams open MB | RSS per stream KB |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const [label, r] of [
    ["anchor: Bun's 256 fetch() calls", anchor],
    ["tessera (TESSERA_MAX_PROVIDER_CALLS 4096)", tessera],
  ] as const) {
    console.log(
      `| ${label} | ${r.ok}/${n} | ${r.reached}/${n} | ${r.withinSecond}/${n} | ${[r.p50, r.p90, r.p99, r.max].map((d) => d.toFixed(0)).join(" / ")} | ${r.cpuBeforeMs.toFixed(2)} / ${r.cpuFirstMs.toFixed(2)} / ${r.cpuAfterMs.toFixed(2)} | ${r.idleMb.toFixed(0)} | ${r.peakMb.toFixed(0)} | ${r.perStreamKb.toFixed(0)} |`,
    );
  }
  const ratio = tessera.withinSecond / Math.max(1, anchor.withinSecond);
  console.log(`\nstreams served on time: ${ratio.toFixed(2)}x the anchor; target (all ${n} within 1 s): ${tessera.withinSecond === n ? "met" : "not met"}`);
  return { anchor, tessera };
}

if (import.meta.main) await main();
