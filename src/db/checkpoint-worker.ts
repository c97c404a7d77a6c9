// Runs in a worker thread (checkpointer.ts starts it): copies the SQLite write-ahead log back into
// the database file, through a connection of its own, every CHECKPOINT_INTERVAL_MS. PASSIVE: it
// never waits for the server's writers, nor they for it (WAL lets one connection checkpoint while
// another appends). The copy and its disk sync were the server's longest stalls when its own
// commits checkpointed: with request logs of 100k characters, one request in 40 took 10 ms.
import { runtime, type SqliteConnection } from "../runtime/index.ts";

declare const self: Worker;

let db: SqliteConnection | null = null;
let timer: ReturnType<typeof setInterval> | null = null;

self.onmessage = (event: MessageEvent<{ path: string; intervalMs: number } | "stop">) => {
  const message = event.data;
  if (message === "stop") {
    if (timer) clearInterval(timer);
    db?.close();
    db = null;
    self.postMessage("stopped");
    return;
  }
  db = runtime.openSqlite(message.path);
  db.exec("PRAGMA busy_timeout = 5000");
  timer = setInterval(() => {
    try {
      db?.exec("PRAGMA wal_checkpoint(PASSIVE)");
    } catch {
      // Busy or closing: the next turn tries again, and the server's own backstop remains.
    }
  }, message.intervalMs);
  self.postMessage("started");
};

self.postMessage("ready");
