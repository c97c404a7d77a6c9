// The gateway's own cost: the same chat requests sent straight to a stand-in provider and through
// Tessera's /v1/embed/chat/completions, non-streaming (whole answer) and streaming (time to first
// chunk). Prints p50/p99 of each and of the added latency, and requests per second at a fixed
// concurrency. Loopback only; every loop is bounded. Run: bun bench/gateway.ts [samples]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization } from "../src/db/index.ts";
import { serverConfig } from "../src/server/config.ts";
import { startServer } from "../src/server/main.ts";
import { startFakeOpenAI } from "../test/support/fake-providers.ts";

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => x.toFixed(3);

async function timeWhole(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { method: "POST", headers, body });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return performance.now() - t0;
}

/** Time until the first `data:` event with content arrives; the rest is drained untimed. */
async function timeFirstChunk(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { method: "POST", headers, body });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
  const reader = res.body.getReader();
  let first = -1;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (first < 0 && value.byteLength > 0) first = performance.now() - t0;
  }
  return first;
}

async function throughput(n: number, concurrency: number, one: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next++;
        await one();
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

export async function main(samples = Number(process.argv[2] ?? 1000)) {
  const fake = startFakeOpenAI();
  fake.fallback = { text: "The quick brown fox jumps over the lazy dog." };
  const dir = mkdtempSync(join(tmpdir(), "tessera-bench-"));
  const server = await startServer(
    serverConfig({ port: 0, dbPath: join(dir, "bench.db"), dataDir: dir, providers: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "sk-bench" } }),
    { log: () => {} },
  );
  const org = await createOrganization(server.db, "bench", 0);
  const { key } = await createApiKey(server.db, org.id);
  // Recording every call would grow the fake without bound: keep none.
  const calls = fake.calls;
  calls.push = () => 0;

  const direct = `${fake.url}/chat/completions`;
  const viaTessera = `${server.url}/v1/embed/chat/completions`;
  const hDirect = { "content-type": "application/json", authorization: "Bearer sk-bench" };
  const hTessera = { "content-type": "application/json", authorization: `Bearer ${key}` };
  const messages = [
    { role: "system", content: "Answer briefly." },
    { role: "user", content: "Say something." },
  ];
  const plain = (model: string) => JSON.stringify({ model, messages });
  const streamed = (model: string) => JSON.stringify({ model, messages, stream: true });

  const rows: string[][] = [];
  for (const [label, fn, dBody, tBody] of [
    ["non-streaming (whole answer)", timeWhole, plain("gpt-bench"), plain("openai/gpt-bench")],
    ["streaming (time to first chunk)", timeFirstChunk, streamed("gpt-bench"), streamed("openai/gpt-bench")],
  ] as const) {
    for (let i = 0; i < 100; i++) {
      await fn(direct, hDirect, dBody);
      await fn(viaTessera, hTessera, tBody);
    } // warm-up
    const d: number[] = [],
      t: number[] = [],
      added: number[] = [];
    for (let i = 0; i < samples; i++) {
      // Interleaved, so drift on the machine hits both sides alike.
      const a = await fn(direct, hDirect, dBody);
      const b = await fn(viaTessera, hTessera, tBody);
      d.push(a);
      t.push(b);
      added.push(b - a);
    }
    rows.push([label, ms(pct(d, 50)), ms(pct(d, 99)), ms(pct(t, 50)), ms(pct(t, 99)), ms(pct(added, 50)), ms(pct(added, 99))]);
  }
  const n = Math.max(500, samples * 2);
  const rpsDirect = await throughput(n, 16, () => timeWhole(direct, hDirect, plain("gpt-bench")));
  const rpsTessera = await throughput(n, 16, () => timeWhole(viaTessera, hTessera, plain("openai/gpt-bench")));

  console.log(`gateway bench: ${samples} interleaved samples per row, loopback, stand-in OpenAI provider`);
  console.log("| path | direct p50 ms | direct p99 ms | tessera p50 ms | tessera p99 ms | added p50 ms | added p99 ms |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  console.log(`\nrequests/s at concurrency 16, non-streaming, ${n} requests: direct ${rpsDirect.toFixed(0)}, through tessera ${rpsTessera.toFixed(0)}`);

  fake.stop();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  return { rows, rpsDirect, rpsTessera };
}

if (import.meta.main) await main();
