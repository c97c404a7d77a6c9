// Migration 0010 on a database that already holds responses, their items and a conversation's
// items (SQLite, or TESSERA_TEST_DB=postgres): every row and its seq kept, the status and worker
// indexes partial, SQLite's seq a plain rowid (no sqlite_sequence row written), new rows after the
// old ones, the claim sweep and a dead owner's release still finding their rows; and back down.
import { expect, test } from "bun:test";
import { sql } from "kysely";
import { chainItems, claimLapsedResponses, inputItemsOf, insertResponse, releaseOwner } from "../../src/db/index.ts";
import { migrationTarget } from "../support/migration-target.ts";

const m = migrationTarget("lean");

const snapshot = async () => ({
  responses: await m.db.selectFrom("responses").selectAll().orderBy("seq").execute(),
  items: await m.db.selectFrom("response_items").selectAll().orderBy("seq").execute(),
  conversationItems: await m.db.selectFrom("conversation_items").selectAll().orderBy("seq").execute(),
});

const response = (id: string, org: number, over: Record<string, unknown> = {}) => ({
  id,
  organization_id: org,
  status: "completed",
  model: "openai/gpt",
  previous_response_id: null,
  conversation_id: null,
  background: 0,
  body: JSON.stringify({ id }),
  request: null,
  worker: null,
  lease_until: null,
  created_at: 1,
  updated_at: 1,
  ...over,
});

async function indexDefinitions(): Promise<Record<string, string>> {
  if (m.kind === "sqlite") {
    const rows = await sql<{
      name: string;
      sql: string;
    }>`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'responses' AND sql IS NOT NULL`.execute(m.db);
    return Object.fromEntries(rows.rows.map((r) => [r.name, r.sql]));
  }
  const rows = await sql<{ name: string; sql: string }>`SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'responses'`.execute(m.db);
  return Object.fromEntries(rows.rows.map((r) => [r.name, r.sql]));
}

test("0010 keeps every response, item and conversation item (and its seq); the indexes partial; back down and up again", async () => {
  await m.migrateTo("0009_lean_credit_holds");
  const orgId = await m.organization("lean", 0);
  await m.db
    .insertInto("responses")
    .values([
      response("resp_a", orgId),
      response("resp_b", orgId, { previous_response_id: "resp_a", user_id: "u1" }),
      response("resp_queued", orgId, { status: "queued", background: 1, request: JSON.stringify({ input: "later" }) }),
      response("resp_running", orgId, { status: "in_progress", worker: "dead-owner" }),
    ])
    .execute();
  await m.db
    .insertInto("response_items")
    .values(
      ["resp_a", "resp_b", "resp_running"].flatMap((r, i) => [
        { id: `msg_in${i}`, response_id: r, organization_id: orgId, role: "input", item: JSON.stringify({ n: i }) },
        { id: `msg_out${i}`, response_id: r, organization_id: orgId, role: "output", item: JSON.stringify({ n: -i }) },
      ]),
    )
    .execute();
  await m.db.insertInto("conversations").values({ id: "conv_a", organization_id: orgId, metadata: "{}", created_at: 1 }).execute();
  await m.db
    .insertInto("conversation_items")
    .values([0, 1, 2].map((n) => ({ id: `msg_c${n}`, conversation_id: "conv_a", organization_id: orgId, item: JSON.stringify({ n }), created_at: 1 })))
    .execute();
  // A deleted last row: on SQLite its seq (an AUTOINCREMENT one until now) is not the next one's either way.
  await m.db.deleteFrom("conversation_items").where("id", "=", "msg_c2").execute();
  const before = await snapshot();
  expect(before.items).toHaveLength(6);

  await m.migrateTo("0010_lean_response_writes");
  expect(await snapshot()).toEqual(before);
  const indexes = await indexDefinitions();
  expect(indexes.responses_status).toBeUndefined();
  expect(indexes.responses_background).toMatch(/WHERE \(?background = 1\)?/i);
  expect(indexes.responses_worker).toMatch(/WHERE \(?worker IS NOT NULL\)?/i);
  if (m.kind === "sqlite") {
    const tables = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name IN ('responses', 'response_items', 'conversation_items')`.execute(m.db);
    expect(tables.rows).toHaveLength(3);
    for (const t of tables.rows) expect(t.sql.toLowerCase()).not.toContain("autoincrement");
  }

  // New rows come after the old ones, and no sqlite_sequence row is written for them.
  const sequence = () =>
    m.kind === "sqlite" ? sql<{ name: string }>`SELECT name FROM sqlite_sequence`.execute(m.db).then((r) => r.rows.map((x) => x.name)) : [];
  const names = await sequence();
  await m.db.insertInto("responses").values(response("resp_c", orgId)).execute();
  await m.db.insertInto("response_items").values({ id: "msg_new", response_id: "resp_c", organization_id: orgId, role: "input", item: "{}" }).execute();
  await m.db.insertInto("conversation_items").values({ id: "msg_c3", conversation_id: "conv_a", organization_id: orgId, item: "{}", created_at: 1 }).execute();
  const after = await snapshot();
  expect(after.responses.at(-1)!.id).toBe("resp_c");
  expect(after.responses.at(-1)!.seq).toBeGreaterThan(before.responses.at(-1)!.seq);
  expect(after.items.at(-1)!.seq).toBeGreaterThan(before.items.at(-1)!.seq);
  expect(after.conversationItems.map((i) => i.id)).toEqual(["msg_c0", "msg_c1", "msg_c3"]);
  expect(await sequence()).toEqual(names);

  // The readers of the partial indexes: the background claim sweep, a dead owner's running responses.
  const claimed = await claimLapsedResponses(m.db, "me", 100, 50);
  expect(claimed.map((r) => r.id)).toEqual(["resp_queued"]);
  expect(await releaseOwner(m.db, "dead-owner", "test")).toEqual({ responses: 1, holds: 0 });
  expect((await m.db.selectFrom("responses").select(["status", "worker"]).where("id", "=", "resp_running").executeTakeFirstOrThrow()).status).toBe("failed");

  const kept = await snapshot();
  await m.migrateTo("0009_lean_credit_holds");
  expect(await snapshot()).toEqual(kept);
  const down = await indexDefinitions();
  expect(down.responses_status).toBeDefined();
  expect(down.responses_worker).not.toMatch(/WHERE/i);
  const { error } = await m.migrator.migrateToLatest();
  expect(error).toBeUndefined();
  expect(await snapshot()).toEqual(kept);
});

test("a response's items, more than one statement takes on SQLite, are stored in their order: input, then output", async () => {
  const { error } = await m.migrator.migrateToLatest();
  expect(error).toBeUndefined();
  const orgId = await m.organization("items", 0);
  const input = Array.from({ length: 9 }, (_, n) => ({ id: `msg_in_${n}`, type: "message", role: "user", content: [{ type: "input_text", text: `in ${n}` }] }));
  const output = Array.from({ length: 2 }, (_, n) => ({
    id: `msg_out_${n}`,
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text: `out ${n}` }],
  }));
  await insertResponse(m.db, {
    id: "resp_items",
    organizationId: orgId,
    status: "completed",
    model: "openai/gpt",
    previousResponseId: null,
    conversationId: null,
    background: false,
    body: { id: "resp_items" },
    request: null,
    worker: null,
    leaseUntil: null,
    input,
    output,
  });
  expect(await inputItemsOf(m.db, "resp_items")).toEqual(input as never);
  expect(await chainItems(m.db, orgId, "resp_items")).toEqual([...input, ...output] as never);
});
