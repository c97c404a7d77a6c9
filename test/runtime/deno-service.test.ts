// The service on Deno, as `deno task start` runs it (Deno.serve, node:sqlite or pg, the checkpoint
// worker): health, an Autofix fix, an Embed call against a stand-in OpenAI, a Responses turn
// stored in a conversation and read back, a page of that conversation, and a WebSocket turn; on
// SQLite and on PostgreSQL (a throwaway one, from test/support/postgres-server.ts).
// Run: deno task test:service (npm test does).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import { eventually } from "../support/eventually.ts";

declare const Deno: { test(options: { name: string; fn: () => Promise<void>; ignore?: boolean; sanitizeResources?: boolean; sanitizeOps?: boolean }): void };

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const bin = (name: string) => join(ROOT, "node_modules/.bin", name);
const SKIP_POSTGRES = process.env.TESSERA_SKIP_POSTGRES === "1";

/** The first match of `re` in a child's standard output (its first group). */
function waitFor(child: ChildProcess, re: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = re.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`${what} exited ${code} before printing ${re}: ${out}`)));
  });
}

/** A helper process that serves until its stdin closes, and the line it printed. */
async function helper(script: string, re: RegExp) {
  const child = spawn(bin("bun"), [join(ROOT, script)], { stdio: ["pipe", "pipe", "inherit"] });
  const line = await waitFor(child, re, script);
  return {
    line,
    stop: () =>
      new Promise<void>((resolve) => {
        child.on("exit", () => resolve());
        child.stdin!.end();
      }),
  };
}

function cli(env: Record<string, string>, ...args: string[]): string {
  return new Promise<string>((resolve, reject) => {
    const child = spawn("node", [join(ROOT, "src/cli/bin.js"), ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (err += d));
    child.on("exit", (code) => (code === 0 ? resolve(out.trim().split("\n").at(-1)!) : reject(new Error(`tessera ${args.join(" ")}: ${err}`))));
  }) as unknown as string;
}

const LIBRARY = {
  root: "Stack",
  schema: {
    $defs: {
      Stack: { properties: { children: { type: "array" } }, required: ["children"] },
      Text: { properties: { text: { type: "string" } }, required: ["text"] },
    },
  },
};
const CONFIG = `]]>service:config\n${JSON.stringify({ chatLibrary: LIBRARY })}`;

async function smoke(kind: "sqlite" | "postgres") {
  const dir = mkdtempSync(join(tmpdir(), `tessera-deno-${kind}-`));
  const openai = await helper("test/support/stand-in-openai.ts", /^(http:\/\/\S+)$/m);
  const pg = kind === "postgres" ? await helper("test/support/postgres-server.ts", /^(postgres:\/\/\S+)$/m) : null;
  const env = {
    PORT: "0",
    TESSERA_DB: pg ? pg.line : join(dir, "tessera.db"),
    TESSERA_DATA_DIR: dir,
    OPENAI_BASE_URL: openai.line,
    OPENAI_API_KEY: "sk-stand-in",
    NO_COLOR: "1",
  };
  // As a reader starts it: the task of deno.json.
  const server = spawn(bin("deno"), ["task", "start"], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  server.stdout!.on("data", (d) => (output += d));
  server.stderr!.on("data", (d) => (output += d));
  let stopped = false;
  try {
    const base = await waitFor(server, /tessera listening on (http:\/\/\S+:\d+)/, "deno task start");
    await cli(env, "org", "create", "deno", "--credits", "10");
    const key = await cli(env, "key", "create", "--org", "deno");
    const post = async (path: string, body: unknown) => {
      const res = await fetch(base + path, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const get = async (path: string) => {
      const res = await fetch(base + path, { headers: { authorization: `Bearer ${key}` } });
      return { status: res.status, body: await res.json() };
    };

    assert.deepEqual(await (await fetch(`${base}/health`)).json(), { status: "ok" });

    const fix = await post("/v1/autofix", {
      messages: [
        { role: "system", content: CONFIG },
        { role: "assistant", content: 'root = Stack([t])\nt = text("Hello")' },
      ],
    });
    assert.equal(fix.status, 200, JSON.stringify(fix.body));
    assert.equal(fix.body.fix_summary.status, "fixed");
    assert.equal(fix.body.choices[0].message.content, 'root = Stack([t])\nt = Text("Hello")');

    const chat = await post("/v1/embed/chat/completions", { model: "openai/gpt-4.1-mini", messages: [{ role: "user", content: "Hello" }] });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));
    assert.equal(chat.body.choices[0].message.content, 'Stand-in answer to "Hello" (1 messages)');

    const conversation = await post("/v1/conversations", { metadata: { topic: "deno" } });
    assert.equal(conversation.status, 200, JSON.stringify(conversation.body));
    const first = await post("/v1/embed/responses", { model: "openai/gpt-4.1-mini", input: "My name is Ada.", conversation: conversation.body.id });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.status, "completed");
    const second = await post("/v1/embed/responses", { model: "openai/gpt-4.1-mini", input: "What is my name?", conversation: conversation.body.id });
    assert.match(second.body.output[0].content[0].text, /What is my name\?.*\(3 messages\)/);
    const stored = await get(`/v1/embed/responses/${first.body.id}`);
    assert.equal(stored.status, 200);
    assert.equal(stored.body.output[0].content[0].text, first.body.output[0].content[0].text);

    // A page of the conversation: the first two of its four items, in order, and more after them.
    const page = await get(`/v1/conversations/${conversation.body.id}/items?order=asc&limit=2`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.equal(page.body.has_more, true);
    assert.deepEqual(
      page.body.data.map((i: { role: string }) => i.role),
      ["user", "assistant"],
    );
    const rest = await get(`/v1/conversations/${conversation.body.id}/items?order=asc&after=${page.body.last_id}`);
    assert.equal(rest.body.has_more, false);
    assert.deepEqual(
      rest.body.data.map((i: { role: string }) => i.role),
      ["user", "assistant"],
    );

    // The WebSocket mode, through Deno.upgradeWebSocket: a turn in, its events out.
    const socketUrl = `${base.replace(/^http/, "ws")}/v1/embed/responses`;
    const events = await new Promise<string[]>((resolve, reject) => {
      const ws = new WebSocket(socketUrl, { headers: { authorization: `Bearer ${key}` } } as never);
      const types: string[] = [];
      ws.onopen = () => ws.send(JSON.stringify({ type: "response.create", model: "openai/gpt-4.1-mini", input: "Hi" }));
      ws.onmessage = (e) => {
        const event = JSON.parse(String(e.data));
        types.push(event.type);
        if (/^response\.(completed|failed|incomplete)$/.test(event.type) || event.type === "error") ws.close();
      };
      ws.onclose = () => resolve(types);
      ws.onerror = () => reject(new Error(`WebSocket to ${socketUrl} failed`));
    });
    assert.equal(events[0], "response.created");
    assert.equal(events.at(-1), "response.completed", events.join(", "));

    if (kind === "sqlite") {
      // Another process's lock on the file: a call that writes before it answers (a new
      // conversation) waits for it off the event loop (node:sqlite's busy error recognized),
      // /health/live answers meanwhile, and the call is served once the lock goes.
      const other = new DatabaseSync(env.TESSERA_DB);
      other.exec("BEGIN IMMEDIATE");
      let settled = false;
      let waiting: Promise<{ status: number; body: { id: string } }>;
      try {
        waiting = post("/v1/conversations", { metadata: { topic: "locked" } });
        void waiting.finally(() => (settled = true));
        await eventually(() => output.includes("database locked by another process"), Boolean, { ms: 15_000, what: "the call to wait for the lock" });
        assert.equal((await fetch(`${base}/health/live`)).status, 200);
        assert.equal(settled, false);
      } finally {
        other.exec("ROLLBACK");
        other.close();
      }
      const served = await waiting;
      assert.equal(served.status, 200, JSON.stringify(served.body));
      assert.equal((await get(`/v1/conversations/${served.body.id}`)).body.metadata.topic, "locked");
    }

    // SIGTERM: the requests settle, the database closes, the process exits 0.
    const exit = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
    process.kill(-server.pid!, "SIGTERM");
    assert.equal(await exit, 0, output);
    stopped = true;
    assert.match(output, /stopped: requests settled, logs written, database closed/);
    assert.doesNotMatch(output, /error/i, output);
  } finally {
    if (!stopped)
      await new Promise<void>((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.on("exit", () => resolve());
        process.kill(-server.pid!, "SIGTERM");
      });
    await openai.stop();
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

Deno.test({ name: "the service on Deno, on SQLite", fn: () => smoke("sqlite") });
if (SKIP_POSTGRES) console.log("skipped: the service on Deno, on PostgreSQL: TESSERA_SKIP_POSTGRES=1");
Deno.test({ name: "the service on Deno, on PostgreSQL", ignore: SKIP_POSTGRES, fn: () => smoke("postgres") });
