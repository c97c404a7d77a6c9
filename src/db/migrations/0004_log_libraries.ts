// Request logs keep each distinct library config block once: log_libraries holds the block by its
// SHA-256, and a log names it in library_hash instead of carrying the block in its conversation.
// Plain text columns only: the same migration runs on SQLite and PostgreSQL.
import type { Kysely } from "kysely";
import { columns } from "./columns.ts";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columns(db);
  await db.schema
    .createTable("log_libraries")
    .addColumn("hash", "text", (c) => c.primaryKey())
    .addColumn("config", "text", (c) => c.notNull())
    .addColumn("created_at", t.isoText, (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable("request_logs")
    .addColumn("library_hash", "text", (c) => c.references("log_libraries.hash"))
    .execute();
  await db.schema.createIndex("request_logs_library").on("request_logs").column("library_hash").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("request_logs_library").execute();
  await db.schema.alterTable("request_logs").dropColumn("library_hash").execute();
  await db.schema.dropTable("log_libraries").execute();
}
