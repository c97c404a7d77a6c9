// First schema: organizations, keys, ledger, request logs, reliability events.
import type { Kysely } from "kysely";
import { columns } from "./columns.ts";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columns(db);
  await db.schema
    .createTable("organizations")
    .addColumn("id", ...t.identity)
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("credits", t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn("suspended", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.isoText, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", ...t.identity)
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("created_at", t.isoText, (c) => c.notNull())
    .addColumn("revoked_at", t.isoText)
    .addColumn("last_used_at", t.isoText)
    .execute();
  await db.schema.createIndex("api_keys_prefix").on("api_keys").column("prefix").execute();

  await db.schema
    .createTable("credit_ledger")
    .addColumn("id", ...t.bigIdentity)
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    .addColumn("delta", t.bigint, (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("request_id", "text")
    .addColumn("created_at", t.isoText, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("request_logs")
    .addColumn("id", ...t.bigIdentity)
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    .addColumn("endpoint", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("conversation", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("charge", t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("created_at", t.isoText, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("request_logs_created").on("request_logs").column("created_at").execute();

  await db.schema
    .createTable("reliability_events")
    .addColumn("id", ...t.bigIdentity)
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("endpoint", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("corrected_codes", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("created_at", t.isoText, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("reliability_events_org").on("reliability_events").columns(["organization_id", "model"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["reliability_events", "request_logs", "credit_ledger", "api_keys", "organizations"]) {
    await db.schema.dropTable(t).execute();
  }
}
