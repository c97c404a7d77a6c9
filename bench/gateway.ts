// The gateway's own cost: the same chat requests sent straight to a stand-in provider and through a
// gateway, non-streaming (whole answer) and streaming (time to first chunk), one at a time, each
// gateway request interleaved with a direct one so that drift on the machine hits both alike.
// Tessera's Embed route (/v1/embed/chat/completions) is priced (1 credit), so every call holds,
// settles and logs as a paying customer's does. Two settings:
//   - in this process: Tessera, the stand-in and the client share one event loop and one heap;
//   - own process: Tessera (bun src/server/main.ts) and, when it is installed, Portkey's gateway from
//     npm (`npm install --no-save @portkey-ai/gateway@1.15.2`, run on Bun as Tessera is; or
//     PORTKEY_GATEWAY=<path to its build/start-server.js>), each a server process of its own, as
//     deployed, and the stand-in in one of its own (test/support/stand-in-openai.ts), as a provider is.
// Prints p50/p99 of each, the added latency per pair (p50, p99) and p99 minus the direct call's p99,
// and requests per second at a fixed concurrency. Loopback only; every loop is bounded.
// Run: bun bench/gateway.ts [samples]
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keyedDatabase } from "./keyed-database.ts";
import { serverConfig } from "../src/server/config.ts";
import { startServer } from "../src/server/main.ts";
import { startFakeOpenAI } from "../test/support/fake-providers.ts";
import { pct, throughput } from "./stats.ts";

const ROOT = new URL("../", import.meta.url).pathname;
/** Credits per Embed call in this bench, and the organization's balance (never runs out). */
const PRICE = 1;
const BALANCE = 1_000_000_000;

const ms = (x: number) => x.toFixed(3);

type Timer = (url: string, headers: Record<string, string>, body: string) => Promise<number>;

async function timeWhole(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { method: "POST", headers, body });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`HTTP ${res.status} from ${url}`);
  return performance.now() - t0;
}

/** Time until the first bytes of the event stream arrive; the rest is drained untimed. */
async function timeFirstChunk(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { method: "POST", headers, body });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status} from ${url}`);
  const reader = res.body.getReader();
  let first = -1;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (first < 0 && value.byteLength > 0) first = performance.now() - t0;
  }
  return first;
}

/** A gateway under test: how to send it the stand-in's chat request. */
interface Gateway {
  name: string;
  url: string;
  headers: Record<string, string>;
  model: string;
}

/** A port free right now (for a process that must be told its port). */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** The first line a process prints (bounded by the process: it ends when the output does). */
async function firstLine(out: ReadableStream<Uint8Array>): Promise<string> {
  const reader = out.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the stand-in exited before printing its URL");
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text.slice(0, text.indexOf("\n")).trim();
}

/** Waits (bounded) until `url` answers at all. */
async function answering(url: string, what: string, proc: { exitCode: number | null }): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`${what} exited (${proc.exitCode}) before answering`);
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      await Bun.sleep(50);
    }
  }
  throw new Error(`${what} did not answer within 15 s`);
}

function portkeyPath(): string | null {
  const path = process.env.PORTKEY_GATEWAY ?? join(ROOT, "node_modules/@portkey-ai/gateway/build/start-server.js");
  return existsSync(path) ? path : null;
}

/** Samples of each gateway, each sample paired with a direct call made just before it. */
async function latency(
  fn: Timer,
  direct: { url: string; headers: Record<string, string> },
  gateways: Gateway[],
  body: (model: string) => string,
  samples: number,
  warmup: number,
): Promise<{ direct: number[]; through: number[][] }> {
  const dBody = body("gpt-bench");
  const gBodies = gateways.map((g) => body(g.model));
  for (let i = 0; i < warmup; i++) {
    await fn(direct.url, direct.headers, dBody);
    for (const [j, g] of gateways.entries()) await fn(g.url, g.headers, gBodies[j]!);
  }
  const d: number[] = [];
  const through: number[][] = gateways.map(() => []);
  for (let i = 0; i < samples; i++) {
    for (const [j, g] of gateways.entries()) {
      d[i * gateways.length + j] = await fn(direct.url, direct.headers, dBody);
      through[j]!.push(await fn(g.url, g.headers, gBodies[j]!));
    }
  }
  return { direct: d, through };
}

export async function main(samples = Number(process.argv[2] ?? 3000)) {
  const warmup = Math.min(1000, Math.max(200, samples / 4));
  const fake = startFakeOpenAI();
  fake.fallback = { text: "The quick brown fox jumps over the lazy dog." };
  // Recording every call would grow the fake without bound: keep none.
  fake.calls.push = () => 0;
  const dir = mkdtempSync(join(tmpdir(), "tessera-bench-"));
  const providers = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "sk-bench" };
  const direct = { url: `${fake.url}/chat/completions`, headers: { "content-type": "application/json", authorization: "Bearer sk-bench" } };
  const messages = [
    { role: "system", content: "Answer briefly." },
    { role: "user", content: "Say something." },
  ];
  const plain = (model: string) => JSON.stringify({ model, messages });
  const streamed = (model: string) => JSON.stringify({ model, messages, stream: true });
  const paths = [
    ["non-streaming (whole answer)", timeWhole, plain],
    ["streaming (time to first chunk)", timeFirstChunk, streamed],
  ] as const;
  const rows: string[][] = [];
  const rps: string[] = [];
  const row = (setting: string, label: string, g: string, d: number[], t: number[]) => {
    const added = t.map((x, i) => x - d[i]!);
    rows.push([
      setting,
      label,
      g,
      ms(pct(d, 50)),
      ms(pct(d, 99)),
      ms(pct(t, 50)),
      ms(pct(t, 99)),
      ms(pct(added, 50)),
      ms(pct(added, 99)),
      ms(pct(t, 99) - pct(d, 99)),
    ]);
  };
  const tesseraAt = (base: string, key: string): Gateway => ({
    name: "tessera",
    url: `${base}/v1/embed/chat/completions`,
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    model: "openai/gpt-bench",
  });
  const spawned: { kill(): void; exited: Promise<unknown> }[] = [];
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    // In this process.
    const inDb = join(dir, "in-process.db");
    const inKey = await keyedDatabase(inDb, BALANCE);
    server = await startServer(serverConfig({ port: 0, dbPath: inDb, dataDir: dir, providers, embedPrice: PRICE }), { log: () => {} });
    const inProcess = tesseraAt(server.url, inKey);
    for (const [label, fn, body] of paths) {
      const r = await latency(fn, direct, [inProcess], body, samples, warmup);
      row("in this process", label, "tessera", r.direct, r.through[0]!);
    }
    const n = Math.max(500, samples * 2);
    const plainT = plain(inProcess.model);
    rps.push(`in this process: direct ${(await throughput(() => timeWhole(direct.url, direct.headers, plain("gpt-bench")), n, 16)).toFixed(0)}`);
    rps.push(`tessera ${(await throughput(() => timeWhole(inProcess.url, inProcess.headers, plainT), n, 16)).toFixed(0)}`);
    await server.stop();
    server = null;

    // Each gateway in a process of its own; its request log goes to /dev/null, as a log line is written per request.
    // The stand-in too, as a provider is apart from both its callers: the direct call then crosses
    // processes as a gateway's call to the stand-in does (with the stand-in in this process, each
    // gateway call crossed processes twice more than the direct call, a wake-up each).
    const standIn = Bun.spawn([process.execPath, "test/support/stand-in-openai.ts"], { cwd: ROOT, stdin: "pipe", stdout: "pipe", stderr: "inherit" });
    spawned.push(standIn);
    const standInUrl = await firstLine(standIn.stdout);
    const ownDirect = { ...direct, url: `${standInUrl}/chat/completions` };
    const ownDb = join(dir, "own-process.db");
    const ownKey = await keyedDatabase(ownDb, BALANCE);
    const tPort = freePort();
    const tessera = Bun.spawn([process.execPath, "src/server/main.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(tPort),
        HOST: "127.0.0.1",
        TESSERA_DB: ownDb,
        TESSERA_EMBED_PRICE: String(PRICE),
        ...providers,
        OPENAI_BASE_URL: standInUrl,
      },
      stdin: "ignore",
      stdout: "ignore",
      stderr: "inherit",
    });
    spawned.push(tessera);
    await answering(`http://127.0.0.1:${tPort}/health/live`, "tessera", tessera);
    const gateways: Gateway[] = [tesseraAt(`http://127.0.0.1:${tPort}`, ownKey)];
    const pk = portkeyPath();
    if (pk) {
      const pPort = freePort();
      const portkey = Bun.spawn([process.execPath, pk, `--port=${pPort}`, "--headless"], { stdin: "ignore", stdout: "ignore", stderr: "inherit" });
      spawned.push(portkey);
      await answering(`http://127.0.0.1:${pPort}/`, "portkey", portkey);
      gateways.push({
        name: "portkey",
        url: `http://127.0.0.1:${pPort}/v1/chat/completions`,
        headers: { "content-type": "application/json", authorization: "Bearer sk-bench", "x-portkey-provider": "openai", "x-portkey-custom-host": standInUrl },
        model: "gpt-bench",
      });
    }
    for (const [label, fn, body] of paths) {
      const r = await latency(fn, ownDirect, gateways, body, samples, warmup);
      for (const [j, g] of gateways.entries()) {
        // Each gateway's samples against the direct calls made just before them.
        row(
          "own process",
          label,
          g.name,
          r.direct.filter((_, i) => i % gateways.length === j),
          r.through[j]!,
        );
      }
    }
    for (const g of gateways) {
      const b = plain(g.model);
      rps.push(`${g.name} (own process) ${(await throughput(() => timeWhole(g.url, g.headers, b), n, 16)).toFixed(0)}`);
    }

    console.log(
      `gateway bench: ${samples} samples per row (after ${warmup} of warm-up), sequential, each paired with a direct call just before it; loopback, stand-in OpenAI provider; Embed priced at ${PRICE} credit`,
    );
    console.log(
      "| setting | path | gateway | direct p50 ms | direct p99 ms | gateway p50 ms | gateway p99 ms | added p50 ms | added p99 ms | p99 − direct p99 ms |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) console.log(`| ${r.join(" | ")} |`);
    console.log(
      "\nadded = gateway sample − the direct sample just before it. A direct call's p99 far above its p50 is the machine's own tail" +
        " (scheduling, other processes): a gateway request lasts longer, so it is more often the one such a stall hits, and the added p99" +
        " carries it; the last column compares the two distributions' tails instead of pairs.",
    );
    if (!pk) console.log("Portkey's gateway is not installed: `npm install --no-save @portkey-ai/gateway@1.15.2` adds its row.");
    console.log(`\nrequests/s at concurrency 16, non-streaming, ${n} requests: ${rps.join(", ")}`);
    return { rows, rps };
  } finally {
    for (const p of spawned) p.kill();
    await Promise.all(spawned.map((p) => p.exited));
    await server?.stop();
    fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
