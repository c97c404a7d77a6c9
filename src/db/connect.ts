// Opens the database TESSERA_DB names (a PostgreSQL URL, or a SQLite file path) and brings the
// schema up to date. The dialect modules (sqlite.ts, postgres.ts) hold what differs.
import { type Kysely, Migrator } from "kysely";
import { isPostgresTarget, type OpenOptions } from "./dialect.ts";
import { migrationProvider } from "./migrations/index.ts";
import { openPostgres } from "./postgres.ts";
import type { Database } from "./schema.ts";
import { openSqlite } from "./sqlite.ts";

export type Db = Kysely<Database>;

export async function openDatabase(target: string, opts: OpenOptions = {}): Promise<Db> {
  const db = isPostgresTarget(target) ? openPostgres(target, opts.poolSize) : await openSqlite(target, opts);
  try {
    await migrate(db);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return db;
}

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ""}: ${String(error)}`);
  }
}
