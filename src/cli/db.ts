// The CLI's database: the same database and migrations as the server (TESSERA_DB: a SQLite file,
// default ./data/tessera.db, or a postgres:// URL).
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describeTarget, findOrganizationByName, isPostgresTarget, openDatabase, type Db, type Organization } from "../db/index.ts";
import { CommandFailed } from "./io.ts";

export const DEFAULT_DATABASE = "./data/tessera.db";

/** What TESSERA_DB names (a SQLite file path or a postgres:// URL). */
export const databaseTarget = () => process.env.TESSERA_DB || DEFAULT_DATABASE;

/**
 * Opens the database. A SQLite file in a folder that does not exist is refused unless `create`
 * (tessera init): a mistyped TESSERA_DB would otherwise make a new, empty database and its
 * folders, and every command would answer as if the service had no data.
 */
export async function withDb<T>(fn: (db: Db) => Promise<T>, { create = false } = {}): Promise<T> {
  const target = databaseTarget();
  if (!create && !isPostgresTarget(target) && target !== ":memory:" && !existsSync(dirname(resolve(target)))) {
    throw new CommandFailed(
      `no database at ${describeTarget(target)}: its folder ${dirname(resolve(target))} does not exist. ` +
        "Check TESSERA_DB, or create the database with `tessera init` (the server's first start creates it too).",
    );
  }
  const db = await openDatabase(target, { poolSize: 2 });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

export async function requireOrg(db: Db, name: string): Promise<Organization> {
  const org = await findOrganizationByName(db, name);
  if (!org) throw new CommandFailed(`no organization named ${JSON.stringify(name)} (create it with: tessera org create ${name})`);
  return org;
}
