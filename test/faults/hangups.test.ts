// Clients that hang up, and providers that hang or drop. A client that leaves a call, streamed or
// not, aborts its provider call and gets its hold handed back (nothing charged). A provider that
// never answers, stalls mid-stream or drops the connection ends the call with a clear error
// (504 upstream_timeout, or an error event) within the configured timeouts, its hold handed back.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase, type Db } from "../../src/db/index.ts";
import { books } from "../support/books.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import { startServerProcess, until, type ServerProcess } from "../support/server-process.ts";
import { autofixBody, HOPELESS } from "../server/harness.ts";

const START = 1000;
const enc = new TextEncoder();
let arrived = 0;
let aborted = 0;
/**
 * A stand-in provider (OpenAI wire) that misbehaves as its model says: `hang` never answers (nor
 * starts a stream), `stall` streams one chunk and then nothing, `drop` streams one chunk and then
 * breaks the connection.
 */
const provider = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  idleTimeout: 0,
  async fetch(req) {
    const body = await req.json();
    arrived++;
    req.signal.addEventListener("abort", () => aborted++, { once: true });
    const model = String(body.model);
    const never = new Promise<never>(() => {});
    if (!body.stream) return never;
    const chunk = enc.encode(
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }] })}\n\n`,
    );
    let sent = false;
    return new Response(
      new ReadableStream<Uint8Array>({
        async pull(ctrl) {
          if (model === "hang" || sent) {
            // A moment after the first chunk, so that it goes out (with the headers) before the break.
            if (model === "drop") return Bun.sleep(100).then(() => ctrl.error(new Error("connection dropped")));
            return never;
          }
          sent = true;
          ctrl.enqueue(chunk);
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  },
});

let fresh: TestDatabase;
let db: Db;
let dir: string;
let key: string;
let orgId: number;
let patient: ServerProcess; // provider timeouts at their defaults: only the client's leaving ends a call
let strict: ServerProcess; // provider timeouts of 800 ms
beforeAll(async () => {
  fresh = await freshDatabase(undefined, "hangups");
  db = await openDatabase(fresh.target);
  dir = mkdtempSync(join(tmpdir(), "tessera-hangups-"));
  const org = await createOrganization(db, "hangups", START);
  orgId = org.id;
  key = (await createApiKey(db, org.id)).key;
  const env = {
    TESSERA_DB: fresh.target,
    TESSERA_DATA_DIR: dir,
    TESSERA_EMBED_PRICE: "1",
    TESSERA_RESPONSES_PRICE: "1",
    TESSERA_AUTOFIX_PRICE: "1",
    LOCAL_BASE_URL: `http://127.0.0.1:${provider.port}/v1`,
    TESSERA_AUTOFIX_MODEL: "local/hang",
  };
  [patient, strict] = await Promise.all([
    startServerProcess(env),
    startServerProcess({ ...env, TESSERA_PROVIDER_CONNECT_TIMEOUT_MS: "800", TESSERA_PROVIDER_IDLE_TIMEOUT_MS: "800" }),
  ]);
});
afterAll(async () => {
  await patient?.stop("SIGKILL");
  await strict?.stop("SIGKILL");
  provider.stop(true);
  await db?.destroy();
  await fresh?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const headers = () => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
const embed = (model: string, stream: boolean) => ({
  path: "/v1/embed/chat/completions",
  body: { model: `local/${model}`, messages: [{ role: "user", content: "hi" }], stream },
});
const responses = (model: string, stream: boolean) => ({ path: "/v1/embed/responses", body: { model: `local/${model}`, input: "hi", stream } });
// A program no sanitizer can mend: the call waits on the fixing model (which hangs).
const slowFix = { path: "/v1/autofix", body: { ...autofixBody(HOPELESS), stream: false } };

async function settledBooks() {
  await until("every hold to be handed back", async () => (await books(db, orgId)).openHolds === 0, 10_000);
  return books(db, orgId);
}

test.each([
  ["an Embed call", embed("hang", false)],
  ["a streamed Embed call", embed("stall", true)],
  ["a Responses call", responses("hang", false)],
  ["a streamed Responses call", responses("stall", true)],
  ["an Autofix call waiting on the fixing model", slowFix],
])("a client that hangs up on %s: the provider call is aborted, the hold handed back, nothing charged", async (_name, call) => {
  const before = { arrived, aborted };
  const ac = new AbortController();
  const res = fetch(patient.base + call.path, { method: "POST", headers: headers(), body: JSON.stringify(call.body), signal: ac.signal });
  await until("the call to reach the provider", () => arrived === before.arrived + 1);
  if (call.body.stream) await (await res).body!.getReader().read(); // the stream has started
  ac.abort();
  await res.catch(() => {});
  await until("the provider call to be aborted", () => aborted >= before.aborted + 1, 10_000);
  expect(await settledBooks()).toMatchObject({ credits: START, holds: 0, balanced: true });
});

test.each([
  ["never answers (Embed)", embed("hang", false)],
  ["never starts its stream (Embed)", embed("hang", true)],
  ["never answers (Responses)", responses("hang", false)],
])("a provider that %s: 504 upstream_timeout within the timeout, the hold handed back", async (_name, call) => {
  const res = await fetch(strict.base + call.path, { method: "POST", headers: headers(), body: JSON.stringify(call.body) });
  const body = await res.json();
  expect(res.status).toBe(504);
  expect(body.error).toMatchObject({ code: "upstream_timeout", type: "upstream_timeout_error" });
  expect(body.error.message).toMatch(/within 0.8 s/);
  expect(await settledBooks()).toMatchObject({ credits: START, holds: 0, balanced: true });
});

test.each([
  ["stalls mid-stream", "stall", /sent nothing for 0.8 s/],
  ["drops the connection mid-stream", "drop", /stream broke/],
])("a provider that %s: the stream ends with an error event, not [DONE]; the hold handed back", async (_name, model, message) => {
  for (const call of [embed(model, true), responses(model, true)]) {
    const res = await fetch(strict.base + call.path, { method: "POST", headers: headers(), body: JSON.stringify(call.body) });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("[DONE]\n\ndata");
    if (call.path.endsWith("responses")) expect(text).toContain("event: response.failed");
    else expect(text).not.toContain("data: [DONE]");
    expect(text).toMatch(message);
  }
  expect(await settledBooks()).toMatchObject({ credits: START, holds: 0, balanced: true });
});
