// MCP tool lists a later turn may reuse: an mcp_list_tools item's id with a keyed fingerprint of
// the server URL and credentials it was listed with (an HMAC under a key derived from the master
// key; the credentials themselves are never stored). A continued turn reuses a listed item only
// when its own URL and credentials give the same fingerprint.
import type { Kysely } from "kysely";
import { columns } from "./columns.ts";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columns(db);
  await db.schema
    .createTable("mcp_tool_lists")
    .addColumn("item_id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("created_at", t.isoText, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mcp_tool_lists").execute();
}
