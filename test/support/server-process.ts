// The server as its own process (bun src/server/main.ts), for tests that kill, restart or starve
// it and for the benches: started with the environment given, its log kept, its address read from
// its first line. (A bench's anchor, another script that says where it listens, runs the same way.)
import type { Subprocess } from "bun";
import { eventually } from "./eventually.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface ServerProcess {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  base: string;
  /** Everything it wrote to stdout and stderr so far. */
  log(): string;
  /** Whether it is still running. */
  alive(): boolean;
  /** SIGTERM (or `signal`), then waits for the exit. */
  stop(signal?: number | NodeJS.Signals): Promise<number>;
}

export async function startServerProcess(env: Record<string, string | undefined>, timeoutMs = 20_000, script = "src/server/main.ts"): Promise<ServerProcess> {
  const proc = Bun.spawn([process.execPath, script], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  let found = false;
  let listening: (base: string) => void;
  const started = new Promise<string>((resolve) => (listening = resolve));
  const pump = async (s: ReadableStream<Uint8Array>) => {
    // A decoder per stream: a character split between two chunks of one must not meet the other's.
    const decoder = new TextDecoder();
    for await (const c of s) {
      out += decoder.decode(c, { stream: true });
      // Looked for until found: a server logs a line per request, and the log only grows.
      if (found) continue;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        found = true;
        listening(m[1]!);
      }
    }
  };
  void pump(proc.stdout);
  void pump(proc.stderr);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const base = await Promise.race([
    started,
    proc.exited.then((code) => {
      throw new Error(`${script} exited (${code}) before listening: ${out}`);
    }),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${script} did not start within ${timeoutMs} ms: ${out}`)), timeoutMs))),
  ]).finally(() => clearTimeout(timer));
  return {
    proc,
    base,
    log: () => out,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async stop(signal = "SIGTERM") {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return proc.exited;
    },
  };
}

/** Polls `ok` (an event the test cannot subscribe to: a row, a status) until it holds, or fails naming `what`. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  await eventually(ok, Boolean, { ms, what });
}
