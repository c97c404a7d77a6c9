// The CLI's database: the same database and migrations as the server (TESSERA_DB: a SQLite file,
// default ./data/tessera.db, or a postgres:// URL).
import { findOrganizationByName, openDatabase, type Db, type Organization } from "../db/index.ts";
import { CommandFailed } from "./io.ts";

export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDatabase(process.env.TESSERA_DB || "./data/tessera.db", { poolSize: 2 });
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
