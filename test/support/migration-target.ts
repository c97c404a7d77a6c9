// A fresh database for one migration's test (SQLite, or TESSERA_TEST_DB=postgres), opened before
// the file's tests and dropped after them, moved between migrations by name.
import { afterAll, beforeAll } from "bun:test";
import { Migrator, type Kysely } from "kysely";
import type { Database } from "../../src/db/index.ts";
import { migrationProvider } from "../../src/db/migrations/index.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import { openSqlite } from "../../src/db/sqlite.ts";
import { freshDatabase, type DatabaseKind } from "./postgres.ts";

export interface MigrationTarget {
  db: Kysely<Database>;
  kind: DatabaseKind;
  migrator: Migrator;
  /** Up or down to the migration named (it and every one before it applied); throws its error. */
  migrateTo(name: string): Promise<void>;
  /** A new organization's row alone (createOrganization also writes its first ledger row): its id. */
  organization(name: string, credits: number): Promise<number>;
}

/** Registers the file's hooks; the target's fields are set once its beforeAll has run. */
export function migrationTarget(label: string): MigrationTarget {
  const target = {} as MigrationTarget;
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const fresh = await freshDatabase(undefined, label);
    drop = fresh.drop;
    const db = fresh.kind === "sqlite" ? await openSqlite(fresh.target) : openPostgres(fresh.target);
    const migrator = new Migrator({ db, provider: migrationProvider });
    Object.assign(target, {
      db,
      kind: fresh.kind,
      migrator,
      migrateTo: async (name: string) => {
        const { error } = await migrator.migrateTo(name);
        if (error) throw error;
      },
      organization: async (name: string, credits: number) => {
        const row = await db
          .insertInto("organizations")
          .values({ name, credits, suspended: 0, created_at: new Date().toISOString() })
          .returning("id")
          .executeTakeFirstOrThrow();
        return row.id;
      },
    });
  });
  afterAll(async () => {
    await target.db?.destroy();
    await drop();
  });
  return target;
}
