// SQLite: one file, WAL, locks waited for off the event loop (sqlite-busy.ts); kysely over the runtime's SQLite (bun:sqlite, or
// node:sqlite on Deno: src/runtime) with each distinct SQL text prepared once (sqlite-dialect.ts).
// The embedded default.
import { runtime } from "../runtime/index.ts";
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, sql } from "kysely";
import { registerCapabilities } from "./dialect.ts";
import { CachedStatementSqliteDialect } from "./sqlite-dialect.ts";
import { startCheckpointer } from "./checkpointer.ts";
import type { Database } from "./schema.ts";

/**
 * Bytes per page of a new database file. A commit writes each page it changed to the log, in two
 * system calls a page: a 100k-character request log filled 26 pages of 4 KB, and its commit took
 * 340 µs; 13 pages of 8 KB, 165 µs. A small call's commit, a few pages, cost the same with 8 KB as
 * with 4 KB, and a third more with 16 KB (copying whole pages). Measured by timing each statement in
 * the server under bench/server.ts's load.
 */
export const PAGE_BYTES = 8192;

/**
 * `checkpointer`: the log is copied into the file by a worker thread (checkpointer.ts), for a
 * server. `onBusyWait`: told when a statement begins to wait for another process's lock.
 */
export async function openSqlite(path: string, opts: { checkpointer?: boolean; onBusyWait?: (waitMs: number) => void } = {}): Promise<Kysely<Database>> {
  if (path !== ":memory:") createPrivately(path);
  const sqlite = runtime.openSqlite(path);
  // Before anything is written: a new file only (a database's pages keep the size it was made with).
  sqlite.exec(`PRAGMA page_size = ${PAGE_BYTES}`);
  // WAL lets the CLI read while the server writes. No busy timeout: SQLite's would wait for a lock
  // by sleeping in this thread; the dialect waits instead, off the event loop (sqlite-busy.ts).
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA busy_timeout = 0");
  // In WAL mode NORMAL stays consistent after a crash and skips a sync per commit.
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  const beforeClose = opts.checkpointer && path !== ":memory:" ? await startCheckpointer(sqlite, path) : undefined;
  const db = new Kysely<Database>({ dialect: new CachedStatementSqliteDialect(sqlite, { beforeClose, onBusyWait: opts.onBusyWait }) });
  registerCapabilities(db, {
    label: "sqlite",
    skipLocked: false,
    modifyingCte: false,
    inProcess: true,
    autoincrement: true,
    jsonTuples: (json, width) => {
      const columns = Array.from({ length: width }, (_, i) => sql`json_extract(value, ${sql.lit(`$[${i}]`)}) AS ${sql.ref(`c${i}`)}`);
      return sql`(SELECT ${sql.join(columns)}, key AS n FROM json_each(${json}))`;
    },
  });
  return db;
}

/**
 * The file holds conversations: only its owner may read it. A folder we create is 0700 (one that
 * exists is the operator's to set); the file is 0600 however it came to be. SQLite gives its -wal
 * and -shm files the mode of the database file.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, "a", 0o600));
  chmodSync(path, 0o600);
}
