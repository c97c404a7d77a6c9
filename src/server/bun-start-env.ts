// What Bun reads only as a process starts, so that setting it from code has no effect: a server
// started without these set replaces itself with the same program, with them set (execve: the same
// process id, so signals and process managers see no change). Only the server's entry (main.ts
// run as a program) does this.
//   - BUN_CONFIG_MAX_HTTP_REQUESTS: Bun runs at most this many fetch() calls at once per process
//     (256 unless set) and queues the rest: with 500 streams open, 244 waited for a slot while
//     their clients waited for a first byte. Set to TESSERA_MAX_PROVIDER_CALLS.
//   - MIMALLOC_PURGE_DELAY: how long Bun's allocator keeps memory it has freed before giving it
//     back to the system (10 ms unless set). A 100k Autofix fix allocates and frees about a
//     megabyte in large blocks: given back after each fix, they were faulted in again by the
//     next. Kept ALLOCATOR_PURGE_DELAY_MS, through a busy spell, and given back once the server
//     is idle: the server's CPU per 100k fix fell by a fifth, its resident memory under that load
//     rose by about 80 MB (docs/reliability.md). An operator's own setting is kept.

/** The most Bun allows. */
export const MAX_FETCH_LIMIT = 65_535;

/** Milliseconds freed memory stays with the process before the allocator gives it back. */
export const ALLOCATOR_PURGE_DELAY_MS = 10_000;

/** The variables as the server wants them at start, from the configured limit and the environment. */
export function bunStartEnv(limit: number, env: Record<string, string | undefined>): Record<string, string> {
  return {
    BUN_CONFIG_MAX_HTTP_REQUESTS: String(Math.min(Math.max(1, limit), MAX_FETCH_LIMIT)),
    MIMALLOC_PURGE_DELAY: env.MIMALLOC_PURGE_DELAY || String(ALLOCATOR_PURGE_DELAY_MS),
  };
}

/** Returns when they are in force (never, when it re-executes); false when this runtime cannot set them. */
export function ensureBunStartEnv(limit: number, env: Record<string, string | undefined>): boolean {
  if (!("Bun" in globalThis)) return true; // Bun's settings; other runtimes have not these
  const want = bunStartEnv(limit, env);
  if (Object.entries(want).every(([name, value]) => env[name] === value)) return true;
  const execve = (process as unknown as { execve?: (file: string, args: string[], env: Record<string, string | undefined>) => never }).execve;
  if (typeof execve !== "function") return false;
  return execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...env, ...want });
}
