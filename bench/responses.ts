// Responses and Conversations: what Tessera adds, and how it scales with stored history.
//   1. Added latency over a direct call to a stand-in OpenAI provider, beside Embed's
//      (/v1/embed/chat/completions): non-streaming (whole answer) and streaming (time to the
//      first event, and to the first text), p50/p99, interleaved samples; once with both surfaces
//      free (Embed then writes nothing before its answer) and once with both priced alike; in this
//      process, and again with the server in a process of its own, as it is deployed (in one
//      process the client, the server and the stand-in share one thread, so the server's work after
//      its answer, such as storing a turn that has streamed its first text, delays the client's reads).
//   2. previous_response_id chains: continuing from depth 1 and from depth 200 (ratio deep/shallow;
//      target: at most 2×).
//   3. Listing one page of a 10,000-item conversation (items created through the API, 20 per call),
//      beside a 200-item one, in both orders and from the middle; and walking all of it.
// Loopback only; every loop is bounded; timings are reported, never asserted.
// Run: bun bench/responses.ts [samples]   (also from bench/run.ts)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization } from "../src/db/index.ts";
import { serverConfig } from "../src/server/config.ts";
import { startServer } from "../src/server/main.ts";
import { startFakeOpenAI } from "../test/support/fake-providers.ts";
import { startServerProcess } from "../test/support/server-process.ts";
import { keyedDatabase } from "./keyed-database.ts";
import { pct } from "./stats.ts";

const ms = (x: number) => x.toFixed(3);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

type Timer = (url: string, headers: Record<string, string>, body: string | null) => Promise<number>;

async function send(url: string, headers: Record<string, string>, body: string | null): Promise<Response> {
  const res = await fetch(url, body === null ? { headers } : { method: "POST", headers, body });
  if (!res.ok) throw new Error(`HTTP ${res.status} from ${url}: ${(await res.text()).slice(0, 300)}`);
  return res;
}

const timeWhole: Timer = async (url, headers, body) => {
  const t0 = performance.now();
  const res = await send(url, headers, body);
  await res.arrayBuffer();
  return performance.now() - t0;
};

/** Time until the stream's first bytes (`pattern` null) or until `pattern` first shows; the rest is drained. */
const timeFirst =
  (pattern: RegExp | null): Timer =>
  async (url, headers, body) => {
    const t0 = performance.now();
    const res = await send(url, headers, body);
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let seen = "";
    let first = -1;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (first >= 0 || value.byteLength === 0) continue;
      if (!pattern) {
        first = performance.now() - t0;
        continue;
      }
      seen += dec.decode(value, { stream: true });
      if (pattern.test(seen)) first = performance.now() - t0;
    }
    if (first < 0) throw new Error(`the stream from ${url} never matched ${pattern}`);
    return first;
  };

interface Stats {
  p50: number;
  p99: number;
}
const stats = (xs: number[]): Stats => ({ p50: pct(xs, 50), p99: pct(xs, 99) });
interface Latency {
  /** Where the server runs: in the bench's process, or in its own. */
  setting: string;
  label: string;
  /** Credits per call on both surfaces. */
  price: number;
  d: Stats;
  e: Stats;
  r: Stats;
  eAdded: Stats;
  rAdded: Stats;
}
const HERE = "in this process";
const OWN = "own process";
/** The priced rows' price, per call, on Embed and Responses alike. */
const PRICE = 1;

export async function main(samples = Number(process.argv[2] ?? 500)) {
  const fake = startFakeOpenAI();
  fake.fallback = { text: "The quick brown fox jumps over the lazy dog." };
  const dir = mkdtempSync(join(tmpdir(), "tessera-bench-responses-"));
  const start = async (price: number) => {
    const config = serverConfig({
      port: 0,
      dbPath: join(dir, `bench-${price}.db`),
      dataDir: dir,
      providers: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "sk-bench" },
    });
    const server = await startServer({ ...config, embedPrice: price, responsesPrice: price }, { log: () => {} });
    const org = await createOrganization(server.db, "bench", price > 0 ? 1_000_000_000 : 0);
    return { server, key: (await createApiKey(server.db, org.id)).key };
  };
  // Free, both surfaces: Embed then writes nothing before its answer, while a stored response is
  // committed first. Priced alike (1 credit each), as paid surfaces are: both hold and settle.
  const { server, key } = await start(0);
  const priced = await start(PRICE);
  // Recording every call would grow the fake without bound: keep none.
  fake.calls.push = () => 0;

  const hDirect = { "content-type": "application/json", authorization: "Bearer sk-bench" };
  const direct = `${fake.url}/chat/completions`;
  const messages = [
    { role: "system", content: "Answer briefly." },
    { role: "user", content: "Say something." },
  ];
  const chat = (model: string, stream: boolean) => JSON.stringify({ model, messages, ...(stream ? { stream: true } : {}) });
  const resp = (stream: boolean, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ model: "openai/gpt-bench", instructions: "Answer briefly.", input: "Say something.", ...(stream ? { stream: true } : {}), ...extra });

  // ------------------------------------------------------------ 1. added latency
  const chatText = /"content":"[^"]/;
  const respText = /response\.output_text\.delta/;
  const modes: { label: string; direct: Timer; embed: Timer; responses: Timer; stream: boolean }[] = [
    { label: "non-streaming (whole answer)", direct: timeWhole, embed: timeWhole, responses: timeWhole, stream: false },
    { label: "streaming: first event", direct: timeFirst(null), embed: timeFirst(null), responses: timeFirst(null), stream: true },
    { label: "streaming: first text", direct: timeFirst(chatText), embed: timeFirst(chatText), responses: timeFirst(respText), stream: true },
  ];
  const addedLatency = async (setting: string, base: string, key: string, price: number) => {
    const hTessera = { "content-type": "application/json", authorization: `Bearer ${key}` };
    const embed = `${base}/v1/embed/chat/completions`;
    const responses = `${base}/v1/embed/responses`;
    const rows: Latency[] = [];
    for (const m of modes) {
      const dBody = chat("gpt-bench", m.stream),
        eBody = chat("openai/gpt-bench", m.stream),
        rBody = resp(m.stream);
      for (let i = 0; i < 50; i++) {
        await m.direct(direct, hDirect, dBody);
        await m.embed(embed, hTessera, eBody);
        await m.responses(responses, hTessera, rBody);
      }
      const d: number[] = [],
        e: number[] = [],
        r: number[] = [],
        eAdded: number[] = [],
        rAdded: number[] = [];
      for (let i = 0; i < samples; i++) {
        // Interleaved, so drift on the machine hits every path alike.
        const a = await m.direct(direct, hDirect, dBody);
        const b = await m.embed(embed, hTessera, eBody);
        const c = await m.responses(responses, hTessera, rBody);
        d.push(a);
        e.push(b);
        r.push(c);
        eAdded.push(b - a);
        rAdded.push(c - a);
      }
      rows.push({ setting, label: m.label, price, d: stats(d), e: stats(e), r: stats(r), eAdded: stats(eAdded), rAdded: stats(rAdded) });
    }
    return rows;
  };
  const latency = [...(await addedLatency(HERE, server.url, key, 0)), ...(await addedLatency(HERE, priced.server.url, priced.key, PRICE))];
  await priced.server.stop();
  // The same rows with the server in a process of its own (bun src/server/main.ts), free and priced.
  for (const price of [0, PRICE]) {
    const dbPath = join(dir, `own-${price}.db`);
    const ownKey = await keyedDatabase(dbPath, price > 0 ? 1_000_000_000 : 0);
    const own = await startServerProcess({
      HOST: "127.0.0.1",
      TESSERA_DB: dbPath,
      TESSERA_DATA_DIR: dir,
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: "sk-bench",
      TESSERA_EMBED_PRICE: String(price),
      TESSERA_RESPONSES_PRICE: String(price),
    });
    try {
      latency.push(...(await addedLatency(OWN, own.base, ownKey, price)));
    } finally {
      await own.stop();
    }
  }
  const hTessera = { "content-type": "application/json", authorization: `Bearer ${key}` };
  const responses = `${server.url}/v1/embed/responses`;

  // ------------------------------------------------------------ 2. previous_response_id chains
  const DEPTH = 200;
  const ids: string[] = [];
  let prev: string | null = null;
  for (let i = 0; i < DEPTH; i++) {
    const body = JSON.stringify({ model: "openai/gpt-bench", input: `Turn ${i}: say something.`, ...(prev ? { previous_response_id: prev } : {}) });
    const r = (await (await send(responses, hTessera, body)).json()) as { id: string };
    ids.push(r.id);
    prev = r.id;
  }
  const cont = (id: string) => JSON.stringify({ model: "openai/gpt-bench", input: "Go on.", previous_response_id: id });
  const chainSamples = Math.max(50, Math.floor(samples / 2));
  for (let i = 0; i < 20; i++) {
    await timeWhole(responses, hTessera, cont(ids[0]!));
    await timeWhole(responses, hTessera, cont(ids[DEPTH - 1]!));
  }
  // The same context sent straight to the provider: what a chain costs the model's side alone.
  const history = (depth: number) =>
    JSON.stringify({
      model: "gpt-bench",
      messages: [
        ...Array.from({ length: depth }, (_, i) => [
          { role: "user", content: `Turn ${i}: say something.` },
          { role: "assistant", content: fake.fallback.text },
        ]).flat(),
        { role: "user", content: "Go on." },
      ],
    });
  const shallow: number[] = [],
    deep: number[] = [],
    shallowAdded: number[] = [],
    deepAdded: number[] = [];
  for (let i = 0; i < chainSamples; i++) {
    const a = await timeWhole(direct, hDirect, history(1));
    const b = await timeWhole(responses, hTessera, cont(ids[0]!));
    const c = await timeWhole(direct, hDirect, history(DEPTH));
    const d = await timeWhole(responses, hTessera, cont(ids[DEPTH - 1]!));
    shallow.push(b);
    deep.push(d);
    shallowAdded.push(b - a);
    deepAdded.push(d - c);
  }
  const sh = stats(shallow),
    dp = stats(deep),
    shA = stats(shallowAdded),
    dpA = stats(deepAdded);

  // ------------------------------------------------------------ 3. a 10,000-item conversation
  const conversations = `${server.url}/v1/conversations`;
  const ITEMS = 10_000;
  const SMALL = 200;
  const newConversation = async () => ((await (await send(conversations, hTessera, "{}")).json()) as { id: string }).id;
  const big = await newConversation();
  const small = await newConversation();
  const batch = (from: number, n: number) =>
    JSON.stringify({
      items: Array.from({ length: n }, (_, k) => ({ type: "message", role: (from + k) % 2 ? "assistant" : "user", content: `item ${from + k}` })),
    });
  const tFill = performance.now();
  for (let i = 0; i < ITEMS; i += 20) await send(`${conversations}/${big}/items`, hTessera, batch(i, 20));
  const fillMs = performance.now() - tFill;
  for (let i = 0; i < SMALL; i += 20) await send(`${conversations}/${small}/items`, hTessera, batch(i, 20));
  // An item in the middle, for a page that starts there.
  const middle = await idAt(big, ITEMS / 2 - 1);
  const smallMiddle = await idAt(small, SMALL / 4 - 1);
  async function idAt(conv: string, index: number): Promise<string> {
    // Walks asc pages of 100 to the item at `index` (only used once, outside the timings).
    let after = "";
    for (let seen = 0; ; seen += 100) {
      const page = (await (await send(`${conversations}/${conv}/items?order=asc&limit=100${after}`, hTessera, null)).json()) as { data: { id: string }[] };
      if (index < seen + page.data.length) return page.data[index - seen]!.id;
      after = `&after=${page.data.at(-1)!.id}`;
    }
  }
  const listRows: { label: string; url: string; base: string }[] = [
    { label: "newest 20 (default: desc)", url: `${conversations}/${big}/items`, base: `${conversations}/${small}/items` },
    { label: "oldest 20 (order=asc)", url: `${conversations}/${big}/items?order=asc`, base: `${conversations}/${small}/items?order=asc` },
    {
      label: "100 from the middle (after=)",
      url: `${conversations}/${big}/items?order=asc&limit=100&after=${middle}`,
      base: `${conversations}/${small}/items?order=asc&limit=100&after=${smallMiddle}`,
    },
  ];
  const listed: { label: string; big: Stats; small: Stats }[] = [];
  for (const row of listRows) {
    for (let i = 0; i < 20; i++) {
      await timeWhole(row.url, hTessera, null);
      await timeWhole(row.base, hTessera, null);
    }
    const b: number[] = [],
      s: number[] = [];
    for (let i = 0; i < samples; i++) {
      b.push(await timeWhole(row.url, hTessera, null));
      s.push(await timeWhole(row.base, hTessera, null));
    }
    listed.push({ label: row.label, big: stats(b), small: stats(s) });
  }
  // Walking all of it, as a client that pages with after=last_id does.
  const tWalk = performance.now();
  let walked = 0,
    pages = 0,
    after = "";
  for (;;) {
    const page = (await (await send(`${conversations}/${big}/items?order=asc&limit=100${after}`, hTessera, null)).json()) as {
      data: { id: string }[];
      has_more: boolean;
      last_id: string;
    };
    walked += page.data.length;
    pages++;
    if (!page.has_more || pages > ITEMS) break;
    after = `&after=${page.last_id}`;
  }
  const walkMs = performance.now() - tWalk;

  // ------------------------------------------------------------ report
  console.log(`responses bench: ${samples} interleaved samples per latency row, loopback, stand-in OpenAI provider, stored responses (store: true)`);
  console.log("\n1. Added latency over a direct call to the provider (ms)\n");
  console.log(
    "| server | path | credits per call | direct p50 | direct p99 | embed p50 | embed p99 | responses p50 | responses p99 | embed added p50 / p99 | responses added p50 / p99 | responses ÷ direct (p50) | responses added ÷ embed added (p50) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const l of latency) {
    console.log(
      `| ${l.setting} | ${l.label} | ${l.price} | ${ms(l.d.p50)} | ${ms(l.d.p99)} | ${ms(l.e.p50)} | ${ms(l.e.p99)} | ${ms(l.r.p50)} | ${ms(l.r.p99)} | ${ms(l.eAdded.p50)} / ${ms(l.eAdded.p99)} | ${ms(l.rAdded.p50)} / ${ms(l.rAdded.p99)} | ${ratio(l.r.p50, l.d.p50)} | ${l.eAdded.p50 > 0 ? ratio(l.rAdded.p50, l.eAdded.p50) : "n/a"} |`,
    );
  }
  const chainRatio = dp.p50 / sh.p50;
  console.log(`\n2. Continuing a previous_response_id chain (${chainSamples} interleaved samples each, ms)\n`);
  console.log("| chain depth | p50 | p99 | added over the same context sent direct, p50 / p99 |");
  console.log("|---|---|---|---|");
  console.log(`| 1 | ${ms(sh.p50)} | ${ms(sh.p99)} | ${ms(shA.p50)} / ${ms(shA.p99)} |`);
  console.log(`| ${DEPTH} | ${ms(dp.p50)} | ${ms(dp.p99)} | ${ms(dpA.p50)} / ${ms(dpA.p99)} |`);
  console.log(
    `\ndeep ÷ shallow: p50 ${ratio(dp.p50, sh.p50)}, p99 ${ratio(dp.p99, sh.p99)}; target ≤ 2× at p50: ${chainRatio <= 2 ? "met" : "NOT met"}; Tessera's own part, deep ÷ shallow: p50 ${ratio(dpA.p50, shA.p50)}`,
  );
  console.log(`\n3. Listing one page of a ${ITEMS.toLocaleString("en")}-item conversation beside a ${SMALL}-item one (${samples} samples each, ms)\n`);
  console.log(`| page | ${ITEMS} items p50 | p99 | ${SMALL} items p50 | p99 | ratio (p50) |`);
  console.log("|---|---|---|---|---|---|");
  for (const l of listed)
    console.log(`| ${l.label} | ${ms(l.big.p50)} | ${ms(l.big.p99)} | ${ms(l.small.p50)} | ${ms(l.small.p99)} | ${ratio(l.big.p50, l.small.p50)} |`);
  console.log(
    `\nfilling it: ${ITEMS / 20} calls of 20 items in ${(fillMs / 1000).toFixed(1)} s (${ms(fillMs / (ITEMS / 20))} ms per call); walking all of it by 100: ${pages} pages, ${walked} items, ${ms(walkMs)} ms${walked === ITEMS ? "" : ` (EXPECTED ${ITEMS} items)`}`,
  );

  fake.stop();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  return { latency, chain: { shallow: sh, deep: dp, ratio: chainRatio, shallowAdded: shA, deepAdded: dpA }, listed, fillMs, walkMs, walked };
}

if (import.meta.main) await main();
