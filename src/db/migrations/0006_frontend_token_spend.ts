// Frontend tokens that run model turns. frontend_token_spend: what each token minted with
// max_credits has spent, one row per such token written at mint time, taken from in one
// conditional UPDATE per paid call (so concurrent calls never spend past the limit, on any
// replica). responses.user_id: the application's user a token created the response for (another
// user's token cannot continue it). Plain columns only: the same migration runs on SQLite and PostgreSQL.
import type { Kysely } from "kysely";
import { columns } from "./columns.ts";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columns(db);
  await db.schema
    .createTable("frontend_token_spend")
    .addColumn("token_id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    .addColumn("max_credits", t.bigint, (c) => c.notNull())
    .addColumn("spent", t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("frontend_token_spend_expiry").on("frontend_token_spend").column("expires_at").execute();
  await db.schema.alterTable("responses").addColumn("user_id", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("responses").dropColumn("user_id").execute();
  await db.schema.dropTable("frontend_token_spend").execute();
}
