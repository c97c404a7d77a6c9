// The server as `npm start` starts it (bun src/server/main.ts, its own process), reached over raw
// TCP so that requests no fetch() would send (a bad Host, HTTP/1.0 without Host) get through.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN_HEAD_LIMIT_BYTES } from "../../src/runtime/bun.ts";
import { MAX_HEAD_BYTES, serve } from "../../src/server/serve.ts";

const ROOT = join(import.meta.dir, "../..");
const MAIN = join(ROOT, "src/server/main.ts");
const dirs: string[] = [];
const procs: { kill(): void }[] = [];
afterAll(() => {
  for (const p of procs) p.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Starts main.ts on a free port; resolves with the port and the first log line once it listens. */
async function startMain(env: Record<string, string> = {}): Promise<{ port: number; line: string }> {
  const dir = mkdtempSync(join(tmpdir(), "tessera-main-"));
  dirs.push(dir);
  const proc = Bun.spawn([process.execPath, MAIN], {
    cwd: dir,
    env: { ...process.env, PORT: "0", TESSERA_DB: join(dir, "data", "tessera.db"), TESSERA_DATA_DIR: join(dir, "data"), ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  procs.push(proc);
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of proc.stdout) {
    text += decoder.decode(chunk, { stream: true });
    const m = /listening on http:\/\/\S+:(\d+).*\n/.exec(text);
    if (m) return { port: Number(m[1]), line: m[0].trim() };
  }
  throw new Error(`main.ts exited before listening: ${text}`);
}

/** Sends `request` as is and reads until the server closes or goes quiet. */
function raw(port: number, request: string, host = "127.0.0.1"): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect(port, host, () => socket.write(request));
    socket.on("data", (d) => {
      answer += d;
      // One answer is enough: stop once its declared body has arrived.
      const m = /content-length: (\d+)\r\n[\s\S]*?\r\n\r\n([\s\S]*)$/i.exec(answer);
      if (m && Buffer.byteLength(m[2]) >= Number(m[1])) socket.end();
    });
    socket.on("end", () => resolve(answer));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
    socket.setTimeout(3000, () => socket.destroy());
  });
}

function leaksNothing(answer: string) {
  expect(answer).not.toContain("<html");
  expect(answer).not.toContain(ROOT);
  expect(answer).not.toMatch(/\.ts\b|__bunfallback|\bat [\w.<>]+ \(/);
}

test("a bad Host header gets the wire-format 400, HTTP/1.0 without Host is served, nothing leaks", async () => {
  const { port } = await startMain();
  for (const host of ["a b", "a:99999"]) {
    const answer = await raw(port, `GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(answer).toStartWith("HTTP/1.1 400");
    leaksNothing(answer);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    expect(body).toEqual({ error: { message: "the Host header is not a valid host", type: "invalid_request_error", param: null, code: "invalid_host" } });
  }
  const old = await raw(port, "GET /health HTTP/1.0\r\n\r\n");
  expect(old).toStartWith("HTTP/1.1 200");
  expect(old).toContain('{"status":"ok"}');
});

test("headers past 16 KiB get the wire-format 431, not Bun's bare one; the connection's next request is served", async () => {
  const { port } = await startMain();
  const head = (fill: number) => `GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fill: ${"x".repeat(fill)}\r\n`;
  // Just inside the limit: served.
  expect(await raw(port, `${head(MAX_HEAD_BYTES - 200)}Connection: close\r\n\r\n`)).toStartWith("HTTP/1.1 200");
  // 20 KB and 900 KB (Bun alone answered both with a bare 431 past 16 KiB): the JSON error body.
  for (const fill of [20_000, 900_000]) {
    const answer = await raw(port, `${head(fill)}Connection: close\r\n\r\n`);
    expect(answer).toStartWith("HTTP/1.1 431");
    expect(answer.toLowerCase()).toContain("content-type: application/json");
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    expect(body.error).toMatchObject({ type: "invalid_request_error", param: null, code: "request_header_fields_too_large" });
    expect(body.error.message).toContain(`at most ${MAX_HEAD_BYTES}`);
  }
  // Kept alive: after a 431 the same connection is served (Bun's own 431 closes it).
  const two = await raw(port, `${head(20_000)}\r\n${head(10)}Connection: close\r\n\r\n`);
  expect(two).toStartWith("HTTP/1.1 431");
  expect(two).toContain('{"status":"ok"}');
});

test("what Bun answers itself, before any handler (a documented limit: docs/reliability.md)", async () => {
  const { port } = await startMain();
  // A head past Bun's own limit (1 MiB), and an HTTP version its parser does not speak: no body.
  const huge = await raw(port, `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fill: ${"x".repeat(BUN_HEAD_LIMIT_BYTES + 1)}\r\n\r\n`);
  expect(huge).toBe("HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n");
  for (const version of ["HTTP/1.2", "HTTP/2.0", "FOO/1.1"]) {
    const answer = await raw(port, `GET /health ${version}\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(answer).toBe("HTTP/1.1 505 HTTP Version Not Supported\r\nConnection: close\r\n\r\n");
  }
});

test("an error that escapes the fetch handler is the wire-format 500, its stack only in the log", async () => {
  const lines: string[] = [];
  const server = serve({
    port: 0,
    hostname: "127.0.0.1",
    log: (l) => lines.push(l),
    fetch: () => {
      throw new Error(`broken in ${MAIN}`);
    },
  });
  try {
    const answer = await raw(server.port!, "GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expect(answer).toStartWith("HTTP/1.1 500");
    leaksNothing(answer);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      error: { message: "internal error", type: "internal_server_error", param: null, code: null },
    });
    expect(lines.join("\n")).toContain(`broken in ${MAIN}`);
  } finally {
    await server.stop(true);
  }
});

test("HOST decides the bind address (default 127.0.0.1) and the log line says which", async () => {
  // 127.0.0.2 is loopback too, but a socket bound to 127.0.0.1 alone does not answer there.
  const local = await startMain();
  expect(local.line).toContain(`listening on http://127.0.0.1:${local.port} `);
  await expect(raw(local.port, "GET /health HTTP/1.0\r\n\r\n", "127.0.0.2")).rejects.toThrow(/ECONNREFUSED/);
  const all = await startMain({ HOST: "0.0.0.0" });
  expect(all.line).toContain(`listening on http://0.0.0.0:${all.port} (every interface)`);
  expect(await raw(all.port, "GET /health HTTP/1.0\r\n\r\n", "127.0.0.2")).toContain('{"status":"ok"}');
});

test("a price that is not a whole number of credits within 10^15 stops the server at start, naming the variable", () => {
  for (const price of ["1e20", "99999999999999999999", "1.5"]) {
    const dir = mkdtempSync(join(tmpdir(), "tessera-main-"));
    dirs.push(dir);
    const r = Bun.spawnSync([process.execPath, MAIN], {
      cwd: dir,
      env: { ...process.env, PORT: "0", TESSERA_DB: join(dir, "t.db"), TESSERA_AUTOFIX_PRICE: price },
      timeout: 10_000,
    });
    expect([price, r.exitCode === 0]).toEqual([price, false]);
    expect(r.stderr.toString()).toContain("TESSERA_AUTOFIX_PRICE");
  }
});
