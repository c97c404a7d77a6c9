// Which mcp_list_tools items a later turn may reuse instead of listing again (migration 0008).
import type { Db } from "./connect.ts";
import { nowIso } from "./clock.ts";

export async function recordToolList(db: Db, orgId: number, itemId: string, fingerprint: string): Promise<void> {
  await db.insertInto("mcp_tool_lists").values({ item_id: itemId, organization_id: orgId, fingerprint, created_at: nowIso() }).execute();
}

/** The fingerprint an organization's listed item was made with, if it was recorded. */
export async function toolListFingerprint(db: Db, orgId: number, itemId: string): Promise<string | undefined> {
  const row = await db.selectFrom("mcp_tool_lists").select("fingerprint").where("item_id", "=", itemId).where("organization_id", "=", orgId).executeTakeFirst();
  return row?.fingerprint;
}
