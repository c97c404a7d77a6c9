// Servers the benches run in processes of their own, and the CPU time processes use: a server in
// the bench's own process shares its heap, its collector and its compiler threads with the client
// and with whatever else the bench runs there, so each would pay for the others' garbage.
import { existsSync, readFileSync } from "node:fs";

const ROOT = new URL("..", import.meta.url).pathname;

export interface ServerProcess {
  url: string;
  proc: Bun.Subprocess<"ignore", "pipe", "inherit">;
  stop(): Promise<void>;
}

/**
 * Runs `bun <script>` (a path in the repository) with `env`; resolves once it prints
 * `listening on <url>` on its standard output.
 */
export async function serverProcess(script: string, env: Record<string, string | undefined>): Promise<ServerProcess> {
  const proc = Bun.spawn([process.execPath, script], { cwd: ROOT, env, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let out = "";
  let url = "";
  while (!url) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${script} exited before it listened: ${out.slice(-500)}`);
    out += decoder.decode(value, { stream: true });
    url = /listening on (http:\/\/\S+)/.exec(out)?.[1]?.replace(/\/$/, "") ?? "";
  }
  // What it prints later (a line per request) is read and dropped: a full pipe would stall it.
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return {
    url,
    proc,
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}

const TICK_US = 1e6 / (Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString()) || 100);

/** CPU time so far (µs, user and system) of each process, or null where /proc is not there (not Linux). */
export function cpuUs(pids: number[]): Map<number, number> | null {
  if (!existsSync("/proc/self/stat")) return null;
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      used.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_US);
    } catch {
      // gone meanwhile
    }
  }
  return used;
}

/** CPU used between two readings: a process that started meanwhile counts whole (a new pooled connection's backend). */
export function cpuBetween(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let us = 0;
  for (const [pid, used] of after) us += used - (before.get(pid) ?? 0);
  return us;
}
