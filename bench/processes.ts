// The CPU time of the processes a bench runs (its servers, started with test/support/server-process.ts),
// read from /proc.
import { existsSync, readFileSync } from "node:fs";

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
