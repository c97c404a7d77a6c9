// Hosted tools: what the service's tool loop adds to a hosted call beyond the call's own work.
// One run, interleaved samples, loopback only:
//   M  one call straight to the stand-in model (fetch, whole answer)
//   P  a plain Responses turn through the service (one model call)
//   Dm the MCP work done straight with the SDK client: connect, tools/list, tools/call (echo)
//   Hm a turn with a remote MCP tool: tools listed, the call run, the model called again
//   Ds one search straight to the SearXNG stand-in
//   Hs a turn with web_search: the search run, the model called again
// The loop's overhead is Hm − (P + M + Dm) and Hs − (P + M + Ds): what the hosted turn costs over
// a plain turn, one more model call and the tool's own time. p50/p99, and the ratio of p50s.
// Every loop is bounded; timings are reported, never asserted.
// Run: bun bench/hosted-tools.ts [samples]   (also from bench/run.ts)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createApiKey, createOrganization } from "../src/db/index.ts";
import { parseAllowedHosts } from "../src/server/hosted/address.ts";
import { serverConfig } from "../src/server/config.ts";
import { startServer } from "../src/server/main.ts";
import { agentResponder, startFakeOpenAI } from "../test/support/fake-providers.ts";
import { startFakeSearch } from "../test/support/fake-search.ts";
import { startMcpServer } from "../test/support/mcp-server.ts";
import { pct } from "./stats.ts";

const f = (x: number) => x.toFixed(2);

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function main(samples = Number(process.argv[2] ?? 200)) {
  const fake = startFakeOpenAI();
  fake.responder = agentResponder;
  fake.calls.push = () => 0;
  const mcp = await startMcpServer();
  const searx = startFakeSearch("searxng");
  searx.calls.push = () => 0;
  const dir = mkdtempSync(join(tmpdir(), "tessera-bench-hosted-"));
  const server = await startServer(
    serverConfig({
      port: 0,
      dbPath: join(dir, "bench.db"),
      dataDir: dir,
      providers: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "sk-bench" },
      hostedTools: {
        webSearch: { provider: "searxng", url: searx.url, key: null },
        privateHostsAllowed: parseAllowedHosts(`127.0.0.1:${mcp.port}`),
        toolPrice: 0,
        mcpTimeoutMs: 10_000,
        maxToolRounds: 4,
      },
    }),
    { log: () => {} },
  );
  const org = await createOrganization(server.db, "bench", 0);
  const { key } = await createApiKey(server.db, org.id);
  const headers = { "content-type": "application/json", authorization: `Bearer ${key}` };
  const post = async (url: string, body: unknown, h: Record<string, string> = headers) => {
    const res = await fetch(url, { method: "POST", headers: h, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`HTTP ${res.status} from ${url}: ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };
  const responses = `${server.url}/v1/embed/responses`;
  const mcpTool = { type: "mcp", server_label: "bench", server_url: mcp.url, require_approval: "never", allowed_tools: ["echo"] };

  const directModel = () =>
    post(
      `${fake.url}/chat/completions`,
      { model: "gpt-bench", messages: [{ role: "user", content: "Say something." }] },
      { "content-type": "application/json", authorization: "Bearer sk-bench" },
    );
  const plainTurn = () => post(responses, { model: "openai/gpt-bench", input: "Say something." });
  const directMcp = async () => {
    const c = new Client({ name: "bench", version: "1" });
    await c.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
    await c.listTools();
    await c.callTool({ name: "echo", arguments: { text: "the weather in San Francisco" } });
    await c.close();
  };
  const mcpTurn = async () => {
    const r = (await post(responses, { model: "openai/gpt-bench", input: "Echo this.", tools: [mcpTool] })) as { output: { type: string }[] };
    if (r.output[1]?.type !== "mcp_call") throw new Error(`no mcp_call: ${JSON.stringify(r.output).slice(0, 300)}`);
  };
  const directSearch = () => fetch(`${searx.url}/search?q=the+weather+in+San+Francisco&format=json`).then((r) => r.json());
  const searchTurn = async () => {
    const r = (await post(responses, { model: "openai/gpt-bench", input: "Search this.", tools: [{ type: "web_search" }] })) as { output: { type: string }[] };
    if (r.output[0]?.type !== "web_search_call") throw new Error(`no web_search_call: ${JSON.stringify(r.output).slice(0, 300)}`);
  };

  const paths = { M: directModel, P: plainTurn, Dm: directMcp, Hm: mcpTurn, Ds: directSearch, Hs: searchTurn } as const;
  const t: Record<keyof typeof paths, number[]> = { M: [], P: [], Dm: [], Hm: [], Ds: [], Hs: [] };
  for (let i = 0; i < 20; i++) for (const fn of Object.values(paths)) await fn();
  const mcpOver: number[] = [],
    searchOver: number[] = [];
  for (let i = 0; i < samples; i++) {
    // Interleaved, so drift on the machine hits every path alike.
    const s = {} as Record<keyof typeof paths, number>;
    for (const [name, fn] of Object.entries(paths) as [keyof typeof paths, () => Promise<unknown>][]) {
      s[name] = await timed(fn);
      t[name].push(s[name]);
    }
    mcpOver.push(s.Hm - (s.P + s.M + s.Dm));
    searchOver.push(s.Hs - (s.P + s.M + s.Ds));
  }
  const p50 = (k: keyof typeof paths) => pct(t[k], 50);
  console.log(`Hosted tools: the tool loop's overhead (${samples} interleaved samples, ms)\n`);
  console.log("| path | p50 | p99 |");
  console.log("|---|---:|---:|");
  const labels: Record<keyof typeof paths, string> = {
    M: "M: model call, direct",
    P: "P: plain turn through the service",
    Dm: "Dm: MCP connect + list + call, direct (SDK client)",
    Hm: "Hm: turn with a remote MCP call",
    Ds: "Ds: search, direct (SearXNG stand-in)",
    Hs: "Hs: turn with a web search",
  };
  for (const k of Object.keys(paths) as (keyof typeof paths)[]) console.log(`| ${labels[k]} | ${f(p50(k))} | ${f(pct(t[k], 99))} |`);
  console.log(`| loop overhead, MCP: Hm − (P + M + Dm) | ${f(pct(mcpOver, 50))} | ${f(pct(mcpOver, 99))} |`);
  console.log(`| loop overhead, search: Hs − (P + M + Ds) | ${f(pct(searchOver, 50))} | ${f(pct(searchOver, 99))} |`);
  console.log(`\nratio Hm / (P + M + Dm) at p50: ${(p50("Hm") / (p50("P") + p50("M") + p50("Dm"))).toFixed(2)}×`);
  console.log(`ratio Hs / (P + M + Ds) at p50: ${(p50("Hs") / (p50("P") + p50("M") + p50("Ds"))).toFixed(2)}×`);

  await server.stop();
  await mcp.stop();
  searx.stop();
  fake.stop();
  rmSync(dir, { recursive: true, force: true });
}

if (import.meta.main) await main();
