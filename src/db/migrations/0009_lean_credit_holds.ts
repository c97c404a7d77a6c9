// credit_holds keeps only the holds of calls still running (a settled hold is deleted), so it stays
// as small as the calls in flight and its sweeps (by age once a minute, by a dead owner's id) read
// all of it at no cost. What each hold and each settlement paid for the table's shape: on SQLite a
// commit's cost and its tail grow with the pages it writes, and a hold wrote six (the row, three
// indexes, the balance, and sqlite_sequence for AUTOINCREMENT). Now three: the created_at and owner
// indexes are gone, and on SQLite the ids are plain rowids (a hold is found by its request id; one
// returned by id is also matched by request id, billing.ts). Measured in bun 1.4 with the paid
// path's statements, WAL and a checkpoint every 100 ms beside: a hold's transaction p50 48 → 30 µs,
// p99 0.5–2.7 ms → 0.1–0.3 ms. The request_id index stays: it keeps a hold unique.
import { sql, type Kysely } from "kysely";
import { capabilities } from "../dialect.ts";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("credit_holds_created").execute();
  await db.schema.dropIndex("credit_holds_owner").execute();
  // PostgreSQL's identity needs no table of its own: nothing more to write.
  if (!capabilities(db).autoincrement) return;
  await rebuild(db, sql`integer primary key`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (capabilities(db).autoincrement) await rebuild(db, sql`integer primary key autoincrement`);
  await db.schema.createIndex("credit_holds_created").on("credit_holds").column("created_at").execute();
  await db.schema.createIndex("credit_holds_owner").on("credit_holds").column("owner").execute();
}

/** SQLite cannot change a column's key in place: the table is copied into its new shape, in one transaction. */
async function rebuild(db: Kysely<unknown>, id: ReturnType<typeof sql>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`CREATE TABLE credit_holds_new (
      id ${id},
      organization_id integer not null references organizations (id),
      request_id text not null unique,
      amount integer not null,
      created_at text not null,
      owner text
    )`.execute(tx);
    await sql`INSERT INTO credit_holds_new (id, organization_id, request_id, amount, created_at, owner)
      SELECT id, organization_id, request_id, amount, created_at, owner FROM credit_holds`.execute(tx);
    await sql`DROP TABLE credit_holds`.execute(tx);
    await sql`ALTER TABLE credit_holds_new RENAME TO credit_holds`.execute(tx);
  });
}
