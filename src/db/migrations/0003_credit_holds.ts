// Credit holds: the credits a paid call has taken and not yet settled, one row per call, written in
// the same transaction as the decrement. balance + open holds = sum of the ledger, at every moment.
// Identity, bigint and timestamp columns from columns.ts: the same migration runs on SQLite and PostgreSQL.
import type { Kysely } from "kysely";
import { columns } from "./columns.ts";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columns(db);
  await db.schema
    .createTable("credit_holds")
    .addColumn("id", ...t.bigIdentity)
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    .addColumn("request_id", "text", (c) => c.notNull().unique())
    .addColumn("amount", t.bigint, (c) => c.notNull())
    .addColumn("created_at", t.isoText, (c) => c.notNull())
    .execute();
  // The sweep that returns stale holds reads them by age.
  await db.schema.createIndex("credit_holds_created").on("credit_holds").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("credit_holds").execute();
}
