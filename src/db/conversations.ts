// Conversations and their items. Items keep the order they were appended in (their `seq`), and
// every listing pages by it exactly. A conversation may belong to one of the application's users
// (frontend tokens see only theirs).
import type { Selectable } from "kysely";
import type { Db } from "./connect.ts";
import type { Item } from "../responses/types.ts";
import { readPage, type Page, type PageQuery } from "./page.ts";
import type { ConversationsTable } from "./schema.ts";

type ConversationRow = Selectable<ConversationsTable>;

/** A stored conversation: its row, with its metadata parsed. */
export type Conversation = Omit<ConversationRow, "metadata"> & { metadata: Record<string, string> };

const parsed = (row: ConversationRow): Conversation => ({ ...row, metadata: JSON.parse(row.metadata) });

const seconds = () => Math.floor(Date.now() / 1000);

/** Who may see a conversation: the whole organization (API key), or one user in it (token). */
export interface Owner {
  organizationId: number;
  /** Set for a frontend token: only this user's conversations exist for it. */
  userId?: string | null;
}

export async function createConversation(
  db: Db,
  c: { id: string; owner: Owner; userId: string | null; metadata: Record<string, string>; items: { id: string }[] },
): Promise<Conversation> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto("conversations")
      .values({ id: c.id, organization_id: c.owner.organizationId, user_id: c.userId, metadata: JSON.stringify(c.metadata), created_at: seconds() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await appendConversationItems(tx, c.id, c.owner.organizationId, c.items);
    return { ...row, metadata: c.metadata };
  });
}

export async function findConversation(db: Db, owner: Owner, id: string): Promise<Conversation | undefined> {
  const row = await conversationRow(db, owner, id);
  return row && parsed(row);
}

/** The row as stored (metadata left unread): the lookups that only need where it is. */
function conversationRow(db: Db, owner: Owner, id: string): Promise<ConversationRow | undefined> {
  let q = db.selectFrom("conversations").selectAll().where("id", "=", id).where("organization_id", "=", owner.organizationId);
  if (owner.userId != null) q = q.where("user_id", "=", owner.userId);
  return q.executeTakeFirst();
}

export async function updateConversationMetadata(db: Db, owner: Owner, id: string, metadata: Record<string, string>): Promise<Conversation | undefined> {
  const row = await conversationRow(db, owner, id);
  if (!row) return undefined;
  await db
    .updateTable("conversations")
    .set({ metadata: JSON.stringify(metadata) })
    .where("seq", "=", row.seq)
    .execute();
  return { ...row, metadata };
}

export async function deleteConversation(db: Db, owner: Owner, id: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const row = await conversationRow(tx, owner, id);
    if (!row) return false;
    await tx.deleteFrom("conversation_items").where("conversation_id", "=", id).execute();
    await tx.deleteFrom("conversations").where("seq", "=", row.seq).execute();
    return true;
  });
}

/**
 * Appends in the given order; call inside the caller's transaction to append with other writes.
 * Appends to one conversation are serialized by a lock on its row (a no-op update, held to the
 * commit): where writers run concurrently (PostgreSQL), two turns' items would otherwise take
 * interleaved `seq` numbers, and a later `seq` could commit before an earlier one under a reader's
 * paging cursor. SQLite has one writer at a time anyway.
 */
export async function appendConversationItems(db: Db, conversationId: string, orgId: number, items: { id: string }[]): Promise<void> {
  if (items.length === 0) return;
  if (!db.isTransaction) return db.transaction().execute((tx) => appendConversationItems(tx, conversationId, orgId, items));
  await db
    .updateTable("conversations")
    .set((eb) => ({ id: eb.ref("id") }))
    .where("id", "=", conversationId)
    .execute();
  const now = seconds();
  await db
    .insertInto("conversation_items")
    .values(items.map((item) => ({ id: item.id, conversation_id: conversationId, organization_id: orgId, item: JSON.stringify(item), created_at: now })))
    .execute();
}

/** Every item, oldest first: the history a response in this conversation continues. */
export async function allConversationItems(db: Db, conversationId: string): Promise<Item[]> {
  const rows = await db.selectFrom("conversation_items").select("item").where("conversation_id", "=", conversationId).orderBy("seq").execute();
  return rows.map((r) => JSON.parse(r.item));
}

/** One page of items; null when `after` names no item of this conversation. */
export async function listConversationItems(db: Db, conversationId: string, q: PageQuery): Promise<Page<Item> | null> {
  const query = db.selectFrom("conversation_items").select(["item", "seq"]).where("conversation_id", "=", conversationId);
  const page = await readPage(query, q, (id) =>
    db.selectFrom("conversation_items").select("seq").where("conversation_id", "=", conversationId).where("id", "=", id).executeTakeFirst(),
  );
  return page && { rows: page.rows.map((r) => JSON.parse(r.item)), hasMore: page.hasMore };
}

export async function findConversationItem(db: Db, conversationId: string, itemId: string): Promise<Item | undefined> {
  const row = await db
    .selectFrom("conversation_items")
    .select("item")
    .where("conversation_id", "=", conversationId)
    .where("id", "=", itemId)
    .executeTakeFirst();
  return row ? JSON.parse(row.item) : undefined;
}

export async function deleteConversationItem(db: Db, conversationId: string, itemId: string): Promise<boolean> {
  const r = await db.deleteFrom("conversation_items").where("conversation_id", "=", conversationId).where("id", "=", itemId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** An item of any conversation of the organization, for item_reference. */
export async function findItemInOrganization(db: Db, orgId: number, itemId: string): Promise<Item | undefined> {
  const row = await db.selectFrom("conversation_items").select("item").where("organization_id", "=", orgId).where("id", "=", itemId).executeTakeFirst();
  return row ? JSON.parse(row.item) : undefined;
}

/** The caller's conversations, newest first by default. */
export async function listConversations(db: Db, owner: Owner, q: PageQuery): Promise<Page<Conversation> | null> {
  let query = db.selectFrom("conversations").selectAll().where("organization_id", "=", owner.organizationId);
  if (owner.userId != null) query = query.where("user_id", "=", owner.userId);
  const page = await readPage(query, q, (id) => conversationRow(db, owner, id));
  return page && { rows: page.rows.map(parsed), hasMore: page.hasMore };
}
