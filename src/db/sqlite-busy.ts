// Waiting out another process's lock on a SQLite file (a backup, an operator's sqlite3 shell in a
// transaction, the CLI) without stopping the server. SQLite's own wait (PRAGMA busy_timeout) sleeps
// in the thread that asked: on the server's one thread it froze every request, /health/live
// included, for up to 5 s. So the connection has no busy timeout (it fails at once with
// SQLITE_BUSY), and the statement runs again after a pause taken on the event loop: other requests
// go on meanwhile, and those that need the database queue behind it as they did before.

/** How long a statement waits, in all, for a lock before it fails as busy (503, Retry-After: 1). */
export const BUSY_WAIT_MS = 5000;

/** Pauses between tries: short at first (most locks are a commit long), then every 100 ms. */
const PAUSES_MS = [1, 2, 5, 10, 25, 50, 100];

// bun:sqlite names SQLite's result code; Node's node:sqlite numbers it (errcode); Deno's (2.9) gives
// neither, only ERR_SQLITE_ERROR and SQLite's own message.
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const LOCKED_MESSAGE = /^database (table )?is locked/;

/** Whether `e` is SQLite saying the database (or a table) is locked by another connection. */
export function isSqliteBusy(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const { code, errcode } = e as { code?: unknown; errcode?: unknown };
  if (typeof code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(code)) return true;
  if (code !== "ERR_SQLITE_ERROR") return false;
  // Extended result codes keep the primary one in their low byte.
  if (typeof errcode === "number") return (errcode & 0xff) === SQLITE_BUSY || (errcode & 0xff) === SQLITE_LOCKED;
  return LOCKED_MESSAGE.test(e.message);
}

/**
 * Runs `run` (which just failed as busy) again after growing pauses until it succeeds, fails
 * otherwise, or `waitMs` have passed; then its last error is thrown. `onWait` is told once, as the
 * wait begins. Only for statements that may simply run again: outside a transaction, or the
 * transaction's own begin and commit.
 */
export async function retryWhileBusy<T>(run: () => T, onWait?: (waitMs: number) => void, waitMs = BUSY_WAIT_MS): Promise<T> {
  onWait?.(waitMs);
  const deadline = performance.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    const pause = Math.min(PAUSES_MS[Math.min(attempt, PAUSES_MS.length - 1)]!, Math.max(0, deadline - performance.now()));
    await new Promise((resolve) => setTimeout(resolve, pause));
    try {
      return run();
    } catch (e) {
      if (!isSqliteBusy(e) || performance.now() >= deadline) throw e;
    }
  }
}
