// Checkpoints of a SQLite database in a worker thread (checkpoint-worker.ts), off the event loop.
// The server's connection then checkpoints only as a backstop, should the worker fall behind.
import { runtime, type SqliteConnection } from "../runtime/index.ts";

/** How often the worker copies the log into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;
/** Pages of log past which the server's own commits checkpoint after all (64 MB of 8 KB pages, sqlite.ts). */
export const BACKSTOP_PAGES = 8192;

/** Starts the worker for the database at `path` (already open as `sqlite`); resolves to its stop. */
export async function startCheckpointer(sqlite: SqliteConnection, path: string): Promise<() => Promise<void>> {
  sqlite.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const worker = new Worker(new URL("./checkpoint-worker.ts", import.meta.url).href, { type: "module" });
  const reply = () => new Promise<void>((resolve) => worker.addEventListener("message", () => resolve(), { once: true }));
  // The worker says when it listens (its module awaits the runtime's first): a message sent
  // before then could be lost.
  await reply();
  const started = reply();
  worker.postMessage({ path, intervalMs: CHECKPOINT_INTERVAL_MS });
  await started;
  runtime.unrefWorker(worker);
  return async () => {
    const stopped = reply();
    worker.postMessage("stop");
    await stopped;
    worker.terminate();
  };
}
