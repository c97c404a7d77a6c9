// Responses, their items and stream events; conversations and their items; token columns on the
// request log. Written for SQLite and PostgreSQL alike: integer `seq` keys give every table a
// stable order (pagination and chains read by it), public ids are text, JSON is stored as text.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("conversations")
    .addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    // The application's own user id: set by a frontend token, or by the API key caller.
    .addColumn("user_id", "text")
    .addColumn("metadata", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("conversations_org").on("conversations").columns(["organization_id", "seq"]).execute();

  await db.schema
    .createTable("conversation_items")
    .addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("conversation_id", "text", (c) => c.notNull())
    .addColumn("organization_id", "integer", (c) => c.notNull())
    .addColumn("item", "text", (c) => c.notNull())
    .addColumn("created_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("conversation_items_conv").on("conversation_items").columns(["conversation_id", "seq"]).execute();

  await db.schema
    .createTable("responses")
    .addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("previous_response_id", "text")
    .addColumn("conversation_id", "text")
    .addColumn("background", "integer", (c) => c.notNull().defaultTo(0))
    // The whole Response object as last written (JSON).
    .addColumn("body", "text", (c) => c.notNull())
    // The create request as checked at the edge (JSON), so a background job can be run by anyone.
    .addColumn("request", "text")
    // Which server process runs a background job, and until when its claim holds.
    .addColumn("worker", "text")
    .addColumn("lease_until", "integer")
    .addColumn("created_at", "integer", (c) => c.notNull())
    .addColumn("updated_at", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("responses_status").on("responses").columns(["background", "status"]).execute();

  await db.schema
    .createTable("response_items")
    .addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("response_id", "text", (c) => c.notNull())
    .addColumn("organization_id", "integer", (c) => c.notNull())
    // "input" or "output"
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("item", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("response_items_resp").on("response_items").columns(["response_id", "seq"]).execute();
  await db.schema.createIndex("response_items_id").on("response_items").columns(["organization_id", "id"]).execute();

  await db.schema
    .createTable("response_events")
    .addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("response_id", "text", (c) => c.notNull())
    .addColumn("sequence_number", "integer", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("response_events_resp").on("response_events").columns(["response_id", "sequence_number"]).execute();

  await db.schema.alterTable("request_logs").addColumn("input_tokens", "integer").execute();
  await db.schema.alterTable("request_logs").addColumn("output_tokens", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["response_events", "response_items", "responses", "conversation_items", "conversations"]) {
    await db.schema.dropTable(t).execute();
  }
  await db.schema.alterTable("request_logs").dropColumn("output_tokens").execute();
  await db.schema.alterTable("request_logs").dropColumn("input_tokens").execute();
}
