// A paid call's commit writes the pages it changed, one log frame each (on this kind of machine two
// system calls a page): the organization's balance, the ledger's last leaf and, for AUTOINCREMENT,
// sqlite_sequence, a third of a charge's commit. On SQLite credit_ledger's id is now a plain rowid:
// a new row still takes an id above every row there (the largest plus one), and no ledger row is
// ever deleted, so ids keep growing as before. PostgreSQL's identity needs no table: nothing to do.
// The table is copied into its new shape (rows and ids kept), in one transaction.
import { sql, type Kysely } from "kysely";
import { capabilities } from "../dialect.ts";

export async function up(db: Kysely<unknown>): Promise<void> {
  if (capabilities(db).autoincrement) await rebuild(db, sql`integer primary key`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (capabilities(db).autoincrement) await rebuild(db, sql`integer primary key autoincrement`);
}

/** SQLite cannot change a column's key in place: the table is copied into its new shape (0001's columns, in order). */
async function rebuild(db: Kysely<unknown>, id: ReturnType<typeof sql>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`CREATE TABLE credit_ledger_new (
      id ${id},
      organization_id integer not null references organizations (id),
      delta integer not null,
      reason text not null,
      request_id text,
      created_at text not null
    )`.execute(tx);
    await sql`INSERT INTO credit_ledger_new (id, organization_id, delta, reason, request_id, created_at)
      SELECT id, organization_id, delta, reason, request_id, created_at FROM credit_ledger ORDER BY id`.execute(tx);
    await sql`DROP TABLE credit_ledger`.execute(tx);
    await sql`ALTER TABLE credit_ledger_new RENAME TO credit_ledger`.execute(tx);
  });
}
