// Opens the SQLite file, sets WAL and a busy timeout, and brings the schema up to date.
import { Database as SqliteDatabase } from "bun:sqlite";
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, Migrator } from "kysely";
import { CachedStatementSqliteDialect } from "./sqlite-dialect.ts";
import { migrationProvider } from "./migrations/index.ts";
import type { Database } from "./schema.ts";

export type Db = Kysely<Database>;

export async function openDatabase(path: string): Promise<Db> {
  if (path !== ":memory:") createPrivately(path);
  const sqlite = new SqliteDatabase(path, { create: true });
  // WAL lets the CLI read while the server writes; busy_timeout makes writers wait instead of failing.
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  // In WAL mode NORMAL stays consistent after a crash and skips a sync per commit.
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  const db = new Kysely<Database>({ dialect: new CachedStatementSqliteDialect(sqlite) });
  await migrate(db);
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

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ""}: ${String(error)}`);
  }
}
