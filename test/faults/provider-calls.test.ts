// No hidden ceiling on provider calls: Bun lets a process run 256 fetch() calls at once unless
// BUN_CONFIG_MAX_HTTP_REQUESTS was set when it started; main.ts raises it to
// TESSERA_MAX_PROVIDER_CALLS. 300 streamed Embed calls held open by the provider all reach it.
import { afterAll, expect, test } from "bun:test";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase } from "../../src/db/index.ts";
import { startServerProcess, until, type ServerProcess } from "../support/server-process.ts";

const CALLS = 300;
const dir = mkdtempSync(join(tmpdir(), "tessera-calls-"));
let arrived = 0;
let release!: () => void;
const released = new Promise<void>((resolve) => (release = resolve));
const enc = new TextEncoder();
// Holds every stream open (headers sent, no chunk) until the test releases them.
const provider = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  idleTimeout: 0,
  async fetch(req) {
    const body = await req.json();
    arrived++;
    let sent = false;
    return new Response(
      new ReadableStream<Uint8Array>({
        async pull(ctrl) {
          await released;
          if (sent) return ctrl.close();
          sent = true;
          const base = { id: "chatcmpl-held", object: "chat.completion.chunk", created: 0, model: body.model };
          ctrl.enqueue(
            enc.encode(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: "hi" }, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`),
          );
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  },
});
let server: ServerProcess | undefined;
afterAll(async () => {
  release();
  await server?.stop("SIGKILL");
  provider.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

test(`${CALLS} streams at once all reach the provider (Bun's default let 256 through)`, async () => {
  const path = join(dir, "tessera.db");
  const db = await openDatabase(path);
  const { key } = await createApiKey(db, (await createOrganization(db, "many", 0)).id);
  await db.destroy();
  server = await startServerProcess({
    TESSERA_DB: path,
    TESSERA_DATA_DIR: dir,
    OPENAI_BASE_URL: `http://127.0.0.1:${provider.port}/v1`,
    OPENAI_API_KEY: "sk-held",
    TESSERA_EMBED_PRICE: "0",
    BUN_CONFIG_MAX_HTTP_REQUESTS: "",
  });
  // node:http on this side: the test's own fetch() would meet the same limit.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const body = JSON.stringify({ model: "openai/gpt-held", messages: [{ role: "user", content: "hi" }], stream: true });
  const done = Array.from(
    { length: CALLS },
    () =>
      new Promise<string>((resolve) => {
        const req = http.request(
          `${server!.base}/v1/embed/chat/completions`,
          { method: "POST", agent, headers: { "content-type": "application/json", authorization: `Bearer ${key}` } },
          (res) => {
            let text = "";
            res.on("data", (c: Buffer) => (text += c));
            res.on("end", () => resolve(text));
          },
        );
        req.on("error", (e) => resolve(String(e)));
        req.end(body);
      }),
  );
  await until(`all ${CALLS} calls to reach the provider`, () => arrived === CALLS, 20_000);
  release();
  const answers = await Promise.all(done);
  agent.destroy();
  expect(answers.filter((a) => a.includes("[DONE]")).length).toBe(CALLS);
}, 45_000);
