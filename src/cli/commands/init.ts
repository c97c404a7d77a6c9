// tessera init: creates the database TESSERA_DB names (a SQLite file and its folder, mode 0600 in
// 0700) or brings an existing one, SQLite or PostgreSQL, up to the current schema.
import { existsSync } from "node:fs";
import { describeTarget, isPostgresTarget } from "../../db/index.ts";
import { checkFlags, parseArgs, UsageError } from "../args.ts";
import { databaseTarget, withDb } from "../db.ts";
import { out } from "../io.ts";

export const INIT_HELP = `Usage: tessera init

Creates the database TESSERA_DB names (default ./data/tessera.db: a SQLite file, created with its
folder; or a postgres:// URL, whose database must exist) and brings it to the current schema.
Running it again changes nothing. Other commands refuse a SQLite file whose folder does not exist.`;

export async function initCommand(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  if (args.flags.has("help")) return out(INIT_HELP);
  checkFlags(args, []);
  if (args.positionals.length) throw new UsageError(`init takes no arguments\n\n${INIT_HELP}`);
  const target = databaseTarget();
  const existed = isPostgresTarget(target) || existsSync(target);
  await withDb(async () => {}, { create: true });
  out(`${existed ? "database up to date" : "created database"}: ${describeTarget(target)}`);
}
