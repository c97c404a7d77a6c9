// Conversations under /v1 (docs/responses.md), for the API key and for
// frontend tokens: a token sees only its user's conversations (any other id is a 404, as if it
// never existed), and writing needs its write scope.
import * as v from "valibot";
import {
  appendConversationItems,
  createConversation,
  deleteConversation,
  deleteConversationItem,
  findConversation,
  findConversationItem,
  listConversationItems,
  listConversations,
  updateConversationMetadata,
  type Conversation,
  type Db,
  type Owner,
} from "../../../db/index.ts";
import { newId, withFreshId } from "../../../responses/ids.ts";
import { InputItem, Metadata, UserId } from "../../../responses/schema.ts";
import { normalizeInput } from "../../../responses/to-chat.ts";
import type { Item } from "../../../responses/types.ts";
import { requireScope, type Principal } from "../../auth.ts";
import { readBody } from "../../body.ts";
import type { AuthedContext } from "../../context.ts";
import { HttpError } from "../../errors.ts";
import { listPage, PageParams } from "../../pages.ts";

/** At most this many items per create or add call (as OpenAI). */
const MAX_ITEMS_PER_CALL = 20;

const Title = v.pipe(v.string(), v.maxLength(512, "title is at most 512 characters"));

// The create body's own item and metadata checks, reused.
const Items = v.pipe(v.array(InputItem), v.maxLength(MAX_ITEMS_PER_CALL, `at most ${MAX_ITEMS_PER_CALL} items per call`));

const CreateConversation = v.object({
  items: v.optional(v.nullable(Items)),
  metadata: v.optional(v.nullable(Metadata)),
  /** The application's user this conversation belongs to (API key only; a token sets its own). */
  user: v.optional(v.nullable(UserId)),
  title: v.optional(v.nullable(Title)),
});
// OpenUI's cloud storage names a thread with `title`: kept as metadata.title (metadata wins when both name it).
const UpdateConversation = v.object({ metadata: v.optional(v.nullable(Metadata)), title: v.optional(v.nullable(Title)) });
const AddItems = v.object({ items: v.pipe(Items, v.minLength(1, "items must not be empty")) });

function ownerOf(p: Principal): Owner {
  return p.kind === "token" ? { organizationId: p.org.id, userId: p.userId } : { organizationId: p.org.id };
}

function conversationJson(row: Conversation) {
  return { id: row.id, object: "conversation", created_at: row.created_at, metadata: row.metadata, title: row.metadata.title ?? null };
}

/** The metadata a body sets: its metadata, with its title as metadata.title. */
function withTitle(metadata: Record<string, string> | null | undefined, title: string | null | undefined): Record<string, string> {
  return title == null || metadata?.title !== undefined ? (metadata ?? {}) : { ...(metadata ?? {}), title };
}

/** Items as a conversation stores them: server ids (unique in the store), item references refused. */
function toStored(items: v.InferOutput<typeof Items>): Item[] {
  return normalizeInput(items).map((item, i) => {
    if (item.type === "item_reference") {
      throw new HttpError(400, "item_reference cannot be added to a conversation: add the item itself", { param: `items[${i}]` });
    }
    return withFreshId(item);
  });
}

type Ctx<P extends string = string> = AuthedContext<P, "key or token">;

function access(ctx: Ctx, scope: "conversations:read" | "conversations:write"): { db: Db; owner: Owner; principal: Principal } {
  const { principal } = ctx;
  requireScope(principal, scope);
  return { db: ctx.deps.db, owner: ownerOf(principal), principal };
}

async function found(db: Db, owner: Owner, id: string): Promise<Conversation> {
  const row = await findConversation(db, owner, id);
  if (!row) throw new HttpError(404, `no conversation ${id}`, { param: "conversation_id", code: "conversation_not_found" });
  return row;
}

export async function create(ctx: Ctx): Promise<Response> {
  const { db, owner, principal } = access(ctx, "conversations:write");
  const body = await readBody(ctx.req, CreateConversation);
  const userId = principal.kind === "token" ? principal.userId : (body.user ?? null);
  const row = await createConversation(db, {
    id: newId("conversation"),
    owner,
    userId,
    metadata: withTitle(body.metadata, body.title),
    items: toStored(body.items ?? []),
  });
  return Response.json(conversationJson(row));
}

export async function list(ctx: Ctx): Promise<Response> {
  const { db, owner } = access(ctx, "conversations:read");
  const q = PageParams.read(ctx.url);
  return listPage(await listConversations(db, owner, q), q.after, conversationJson);
}

export async function retrieve(ctx: Ctx<"/:id">): Promise<Response> {
  const { db, owner } = access(ctx, "conversations:read");
  return Response.json(conversationJson(await found(db, owner, ctx.params.id)));
}

export async function update(ctx: Ctx<"/:id">): Promise<Response> {
  const { db, owner } = access(ctx, "conversations:write");
  const body = await readBody(ctx.req, UpdateConversation);
  if (body.metadata === undefined && body.title === undefined) throw new HttpError(400, "send metadata (or title) to update", { param: "metadata" });
  let metadata: Record<string, string>;
  if (body.metadata === undefined) {
    // A title alone renames: the rest of the metadata stays.
    const current = await found(db, owner, ctx.params.id);
    metadata = { ...current.metadata, ...(body.title == null ? {} : { title: body.title }) };
    if (body.title == null) delete metadata.title;
  } else metadata = withTitle(body.metadata, body.title);
  const row = await updateConversationMetadata(db, owner, ctx.params.id, metadata);
  if (!row) throw new HttpError(404, `no conversation ${ctx.params.id}`, { param: "conversation_id", code: "conversation_not_found" });
  return Response.json(conversationJson(row));
}

export async function remove(ctx: Ctx<"/:id">): Promise<Response> {
  const { db, owner } = access(ctx, "conversations:write");
  const id = ctx.params.id;
  if (!(await deleteConversation(db, owner, id)))
    throw new HttpError(404, `no conversation ${id}`, { param: "conversation_id", code: "conversation_not_found" });
  return Response.json({ id, object: "conversation.deleted", deleted: true });
}

export async function addItems(ctx: Ctx<"/:id">): Promise<Response> {
  const { db, owner } = access(ctx, "conversations:write");
  const row = await found(db, owner, ctx.params.id);
  const body = await readBody(ctx.req, AddItems);
  const items = toStored(body.items);
  await appendConversationItems(db, row.id, row.organization_id, items);
  return listPage({ rows: items, hasMore: false }, undefined);
}

export async function listItems(ctx: Ctx<"/:id">): Promise<Response> {
  const { db, owner } = access(ctx, "conversations:read");
  const row = await found(db, owner, ctx.params.id);
  const q = PageParams.read(ctx.url);
  return listPage(await listConversationItems(db, row.id, q), q.after);
}

export async function retrieveItem(ctx: Ctx<"/:id/items/:item">): Promise<Response> {
  const { db, owner } = access(ctx, "conversations:read");
  const row = await found(db, owner, ctx.params.id);
  const item = await findConversationItem(db, row.id, ctx.params.item);
  if (!item) throw new HttpError(404, `no item ${ctx.params.item} in conversation ${row.id}`, { param: "item_id", code: "item_not_found" });
  return Response.json(item);
}

export async function removeItem(ctx: Ctx<"/:id/items/:item">): Promise<Response> {
  const { db, owner } = access(ctx, "conversations:write");
  const row = await found(db, owner, ctx.params.id);
  if (!(await deleteConversationItem(db, row.id, ctx.params.item))) {
    throw new HttpError(404, `no item ${ctx.params.item} in conversation ${row.id}`, { param: "item_id", code: "item_not_found" });
  }
  return Response.json(conversationJson(row));
}
