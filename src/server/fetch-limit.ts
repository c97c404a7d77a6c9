// Bun runs at most BUN_CONFIG_MAX_HTTP_REQUESTS fetch() calls at once per process (256 unless set)
// and queues the rest: with 500 streams open, 244 waited for a slot while their clients waited for
// a first byte. Bun reads the variable once, as the process starts, so setting it from code has
// no effect; a server started without it set to TESSERA_MAX_PROVIDER_CALLS replaces itself with
// the same program, the variable set (execve: the same process id, so signals and process
// managers see no change). Only the server's entry (main.ts run as a program) does this.

/** The most Bun allows. */
export const MAX_FETCH_LIMIT = 65_535;

/** Returns when the limit is in force (never, when it re-executes); false when this runtime cannot set it. */
export function ensureFetchLimit(limit: number, env: Record<string, string | undefined>): boolean {
  if (!("Bun" in globalThis)) return true; // Bun's limit; other runtimes have not this one
  const want = String(Math.min(Math.max(1, limit), MAX_FETCH_LIMIT));
  if (env.BUN_CONFIG_MAX_HTTP_REQUESTS === want) return true;
  const execve = (process as unknown as { execve?: (file: string, args: string[], env: Record<string, string | undefined>) => never }).execve;
  if (typeof execve !== "function") return false;
  return execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...env, BUN_CONFIG_MAX_HTTP_REQUESTS: want });
}
