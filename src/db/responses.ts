// Stored responses: the Response object, its input and output items, and (for background runs)
// its stream events. A chain of previous_response_id is read in two queries at any depth.
import { sql, type Kysely } from "kysely";
import type { Db } from "./connect.ts";
import { capabilities } from "./dialect.ts";
import { appendConversationItems } from "./conversations.ts";
import {
  chargeOutright,
  holdSettlementParts,
  holdSettlementRows,
  recordsOf,
  type HoldSettlement,
  settleCreditsIn,
  settled,
  settleIn,
  type Settlement,
} from "./billing.ts";
import { nowIso } from "./clock.ts";
import { queueRecords } from "./log-queue.ts";
import { inOwnStatement } from "./own-statement.ts";
import { ownerOf } from "./owners.ts";
import { readPage, type Page, type PageQuery } from "./page.ts";
import { changedRows, prepared } from "./prepared.ts";
import { statementBatch } from "./statement-batch.ts";
import type { Insertable, Selectable } from "kysely";
import { jsonOnce } from "../responses/json.ts";
import type { SequencedEvent } from "../responses/stream-events.ts";
import type { Item, ResponseObject } from "../responses/types.ts";
import type { Database, ResponsesTable } from "./schema.ts";

type ResponseRow = Selectable<ResponsesTable>;

/** A stored response: its row, with the Response object and the background job it was created with parsed. */
export type StoredResponse = Omit<ResponseRow, "body" | "request"> & {
  body: ResponseObject;
  /** A background job's request as its creator stored it (its shape is the runner's); null for any other. */
  request: unknown;
};

function stored(row: ResponseRow): StoredResponse {
  return { ...row, body: JSON.parse(row.body), request: row.request === null ? null : JSON.parse(row.request) };
}

const seconds = () => Math.floor(Date.now() / 1000);

/** A Response object as stored: serialized once, as the reply that sends it reuses the text (json.ts). */
const bodyText = (body: unknown) => (typeof body === "object" && body !== null ? jsonOnce(body) : JSON.stringify(body));

export interface NewResponse {
  id: string;
  organizationId: number;
  status: string;
  model: string;
  previousResponseId: string | null;
  conversationId: string | null;
  /** The application's user, when a frontend token created it. */
  userId?: string | null;
  background: boolean;
  body: unknown;
  request: unknown | null;
  worker: string | null;
  leaseUntil: number | null;
  /** The request's own input items (not the history they continue). */
  input: { id: string }[];
  /** A response stored only once it has ended: its output, and its conversation's new items. */
  output?: { id: string }[];
  conversation?: Finish["conversation"];
}

/**
 * The row and its input items (and, for one that has ended, its output and its conversation's new
 * items), in one transaction: retrievable and continuable from now on.
 */
export async function insertResponse(db: Db, r: NewResponse): Promise<void> {
  await db.transaction().execute((tx) => insertResponseIn(tx, r));
}

// Every turn writes these: compiled once (prepared.ts), as the paid path's statements are.
type ResponseValues = {
  id: string;
  org: number;
  status: string;
  model: string;
  previous: string | null;
  conversation: string | null;
  user: string | null;
  background: number;
  body: string;
  request: string | null;
  worker: string | null;
  lease: number | null;
  at: number;
};
/** The row's columns, the values they take and their types (for an INSERT … SELECT, which names them). */
const RESPONSE_COLUMNS = [
  ["id", "id", "text"],
  ["organization_id", "org", "integer"],
  ["status", "status", "text"],
  ["model", "model", "text"],
  ["previous_response_id", "previous", "text"],
  ["conversation_id", "conversation", "text"],
  ["user_id", "user", "text"],
  ["background", "background", "integer"],
  ["body", "body", "text"],
  ["request", "request", "text"],
  ["worker", "worker", "text"],
  ["lease_until", "lease", "bigint"],
  ["created_at", "at", "bigint"],
  ["updated_at", "at", "bigint"],
] as const satisfies readonly (readonly [keyof ResponsesTable, keyof ResponseValues, string])[];
type Slots<V> = <K extends keyof V & string>(name: K) => V[K];
const responseRow = (db: Kysely<Database>, v: Slots<ResponseValues>) =>
  db.insertInto("responses").values(Object.fromEntries(RESPONSE_COLUMNS.map(([column, name]) => [column, v(name)])) as Insertable<ResponsesTable>);
const insertResponseRow = prepared<ResponseValues>(responseRow);
/** A response's items, input and output alike, in one statement whatever their number: `rows` is JSON [[id, role, item JSON], …]. */
const insertItemRows = prepared<{ response: string; org: number; rows: string }>(
  (db, v) => sql`
  INSERT INTO response_items (id, response_id, organization_id, role, item)
  SELECT c0, CAST(${v("response")} AS text), CAST(${v("org")} AS integer), c1, c2
  FROM ${capabilities(db).jsonTuples(v("rows"), 3)} AS items ORDER BY n`,
);
/** The row and its items as one statement, where the database runs an INSERT inside WITH (PostgreSQL): one round trip. */
const insertResponseWithItems = prepared<ResponseValues & { rows: string }>(
  (db, v) => sql`
  WITH r AS (${responseRow(db, v).returning(["id", "organization_id"])})
  INSERT INTO response_items (id, response_id, organization_id, role, item)
  SELECT c0, r.id, r.organization_id, c1, c2
  FROM r, ${capabilities(db).jsonTuples(v("rows"), 3)} AS items ORDER BY n`,
);
/**
 * Turns' ends whole, many in one statement (PostgreSQL: writes inside WITH): their holds settled
 * (holdSettlementParts), and each response's row and items stored only if its hold was there to
 * settle. `responses` is JSON [[RESPONSE_COLUMNS' values…, hold's request], …], `items` JSON
 * [[response id, item id, role, item JSON], …]; answers each hold settled, with its charge.
 */
const insertSettledResponses = prepared<{ settlements: string; responses: string; items: string }, { request: string; charged: number }>(
  (db, v) => sql`
  WITH ${holdSettlementParts(db, v("settlements"))}, rj AS (
    SELECT * FROM ${capabilities(db).jsonTuples(v("responses"), RESPONSE_COLUMNS.length + 1)} AS responses
  ), r AS (
    INSERT INTO responses (${sql.join(RESPONSE_COLUMNS.map(([column]) => sql.ref(column)))})
    SELECT ${sql.join(RESPONSE_COLUMNS.map(([, , type], i) => sql`CAST(${sql.ref(`rj.c${i}`)} AS ${sql.raw(type)})`))}
    FROM rj JOIN settled ON settled.request = ${sql.ref(`rj.c${RESPONSE_COLUMNS.length}`)} ORDER BY rj.n
    RETURNING id, organization_id
  ), i AS (
    INSERT INTO response_items (id, response_id, organization_id, role, item)
    SELECT it.c1, r.id, r.organization_id, it.c2, it.c3
    FROM ${capabilities(db).jsonTuples(v("items"), 4)} AS it JOIN r ON r.id = it.c0 ORDER BY it.n
  )
  SELECT request, charged FROM settled`,
);
type WholeEnd = { response: ResponseValues; items: ItemGroups; settlement: HoldSettlement };
/** The ends of a batch (statement-batch.ts): each one's charge, or undefined when its hold was not found (nothing stored). */
const endInBatch = statementBatch<WholeEnd, number | undefined>(async (db, ends) => {
  const items: unknown[][] = [];
  for (const end of ends) for (const [id, role, item] of itemRows(end.items)) items.push([end.response.id, id, role, item]);
  const { rows } = await insertSettledResponses(db, {
    settlements: holdSettlementRows(ends.map((e) => e.settlement)),
    responses: JSON.stringify(ends.map((e) => [...RESPONSE_COLUMNS.map(([, name]) => e.response[name]), e.settlement.request])),
    items: JSON.stringify(items),
  });
  const charged = new Map(rows.map((r) => [r.request, r.charged]));
  return ends.map((e) => charged.get(e.settlement.request));
}, 2);
/**
 * Up to ITEMS_PER_INSERT items in one statement (rows of VALUES, each count compiled once), for a
 * database without round trips (dialect.ts: inProcess), where a JSON list to unpack costs more than
 * the statements it saves; one statement fewer for each item past the first.
 */
const ITEMS_PER_INSERT = 4;
const insertItemValues = Array.from({ length: ITEMS_PER_INSERT }, (_, k) =>
  prepared<Record<string, string | number>>((db, v) =>
    db.insertInto("response_items").values(
      Array.from({ length: k + 1 }, (_, i) => ({
        id: v(`id${i}`) as string,
        response_id: v("response") as string,
        organization_id: v("org") as number,
        role: v(`role${i}`) as "input" | "output",
        item: v(`item${i}`) as string,
      })),
    ),
  ),
);

type ItemGroups = [role: "input" | "output", items: { id: string }[]][];

function responseValues(tx: Db, r: NewResponse): ResponseValues {
  return {
    id: r.id,
    org: r.organizationId,
    status: r.status,
    model: r.model,
    previous: r.previousResponseId,
    conversation: r.conversationId,
    user: r.userId ?? null,
    background: r.background ? 1 : 0,
    body: bodyText(r.body),
    request: r.request === null ? null : JSON.stringify(r.request),
    // A running response is its process's (owners.ts): failed, not left running, should it die.
    worker: r.worker ?? (r.status === "queued" || r.status === "in_progress" ? ownerOf(tx) : null),
    lease: r.leaseUntil,
    at: seconds(),
  };
}

function itemGroups(r: NewResponse): ItemGroups {
  return [
    ["input", r.input],
    ["output", r.output ?? []],
  ];
}

async function insertResponseIn(tx: Db, r: NewResponse): Promise<void> {
  const values = responseValues(tx, r);
  const groups = itemGroups(r);
  const caps = capabilities(tx);
  if (caps.modifyingCte && !caps.inProcess) await insertResponseWithItems(tx, { ...values, rows: JSON.stringify(itemRows(groups)) });
  else {
    await insertResponseRow(tx, values);
    await insertItems(tx, r.id, r.organizationId, groups);
  }
  if (r.conversation?.items.length) await appendConversationItems(tx, r.conversation.id, r.organizationId, r.conversation.items);
}

function itemRows(groups: ItemGroups): string[][] {
  const rows: string[][] = [];
  for (const [role, items] of groups) for (const item of items) rows.push([item.id, role, JSON.stringify(item)]);
  return rows;
}

async function insertItems(db: Db, responseId: string, orgId: number, groups: ItemGroups) {
  const rows = itemRows(groups);
  if (rows.length === 0) return;
  if (capabilities(db).inProcess) {
    for (let at = 0; at < rows.length; at += ITEMS_PER_INSERT) {
      const chunk = rows.slice(at, at + ITEMS_PER_INSERT);
      const values: Record<string, string | number> = { response: responseId, org: orgId };
      chunk.forEach(([id, role, item], i) => {
        values[`id${i}`] = id!;
        values[`role${i}`] = role!;
        values[`item${i}`] = item!;
      });
      await insertItemValues[chunk.length - 1]!(db, values);
    }
    return;
  }
  await insertItemRows(db, { response: responseId, org: orgId, rows: JSON.stringify(rows) });
}

/** Progress of a running response; false when it is no longer running (cancelled meanwhile). */
export async function updateResponse(db: Db, id: string, status: string, body: unknown): Promise<boolean> {
  const r = await db
    .updateTable("responses")
    .set({ status, body: JSON.stringify(body), updated_at: seconds() })
    .where("id", "=", id)
    .where("status", "in", ["queued", "in_progress"])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export interface Finish {
  id: string;
  organizationId: number;
  status: string;
  body: unknown;
  output: { id: string }[];
  /** Append these to the conversation (the turn's input, then its output), in the same transaction. */
  conversation?: { id: string; items: { id: string }[] } | null;
}

/**
 * The end of a response: final body and output items, and the conversation's new items, in the
 * caller's transaction (endTurn). A response already ended (cancelled meanwhile) is left as it is: false.
 */
async function finishResponseIn(tx: Db, f: Finish): Promise<boolean> {
  if (!(await endResponse(tx, f.id, f.status, f.body))) return false;
  await insertItems(tx, f.id, f.organizationId, [["output", f.output]]);
  if (f.conversation && f.conversation.items.length) await appendConversationItems(tx, f.conversation.id, f.organizationId, f.conversation.items);
  return true;
}

/**
 * A turn's end and its settlement in one transaction (shared with concurrent writers:
 * group-commit.ts): the response stored, whole (`insert`) or by finishing its row (`finish`), and
 * the hold settled, so that a response reads as ended only once it is paid for. A row that had
 * already ended (cancelled meanwhile) keeps that end: `settlement` is given its stored body, or
 * null when this turn's end was stored (or nothing is stored: store:false). Returns that body.
 */
export async function endTurn(
  db: Db,
  end: { insert: NewResponse } | { finish: Finish } | null,
  settlement: (endedMeanwhile: ResponseObject | null) => Settlement,
  /** The request log and event go to the log queue after the commit (a client waits for it), not in the transaction. */
  queueLog = false,
): Promise<ResponseObject | null> {
  if (end === null) {
    // Nothing to store (store: false): nothing ended meanwhile. A free call (nothing held) then has
    // nothing to commit before its answer either: its log is queued, as a free Embed call's is.
    const s = settlement(null);
    if (s.held === 0 && queueLog) {
      await chargeOutright(db, { ...s, charge: 0 });
      return null;
    }
    settlement = () => s;
  }
  // A response stored whole with its settlement (a turn a client waits for) is one statement where
  // statements are round trips (own-statement.ts); a conversation's items, or a row to finish, are not.
  const whole = queueLog && end && "insert" in end && !end.insert.conversation?.items.length ? end.insert : null;
  const { meanwhile, requestId, records } = await inOwnStatement(
    db,
    async (own) => {
      if (!whole) return undefined;
      const s = settlement(null);
      if (s.held <= 0 || s.charge > s.held) return undefined;
      const at = nowIso();
      const hold = { org: s.orgId, request: s.requestId, charge: s.charge, reason: s.reason, at };
      const charged = await endInBatch(own, { response: responseValues(own, whole), items: itemGroups(whole), settlement: hold });
      return charged === undefined ? undefined : { meanwhile: null, requestId: s.requestId, records: recordsOf(s, charged, at) };
    },
    async (tx, maybeDone) => {
      let meanwhile: ResponseObject | null = null;
      if (end && "insert" in end) {
        // Run again after a commit that may have landed: the row may be there already.
        if (!(maybeDone && (await hasResponse(tx, end.insert.organizationId, end.insert.id)))) await insertResponseIn(tx, end.insert);
      } else if (end && !(await finishResponseIn(tx, end.finish))) {
        meanwhile = (await responseBody(tx, end.finish.id)) ?? null;
      }
      const s = settlement(meanwhile);
      if (!queueLog) {
        await settleIn(tx, s, maybeDone);
        return { meanwhile, requestId: s.requestId, records: null };
      }
      return { meanwhile, requestId: s.requestId, records: (await settleCreditsIn(tx, s, maybeDone)).records };
    },
  );
  settled(db, requestId);
  if (records) queueRecords(db, records);
  return meanwhile;
}

export async function findResponse(db: Db, orgId: number, id: string): Promise<StoredResponse | undefined> {
  const row = await db.selectFrom("responses").selectAll().where("id", "=", id).where("organization_id", "=", orgId).executeTakeFirst();
  return row && stored(row);
}

/** Whether the organization has this response (its body left unread). */
export async function hasResponse(db: Db, orgId: number, id: string): Promise<boolean> {
  const row = await db.selectFrom("responses").select("id").where("id", "=", id).where("organization_id", "=", orgId).executeTakeFirst();
  return row !== undefined;
}

/** Who a response is and where it stands, for a turn that continues it (its body left unread). */
export async function responseState(db: Db, orgId: number, id: string): Promise<Pick<ResponseRow, "status" | "user_id"> | undefined> {
  return db.selectFrom("responses").select(["status", "user_id"]).where("id", "=", id).where("organization_id", "=", orgId).executeTakeFirst();
}

/** A response's Response object, whoever it belongs to (the service's own background runs). */
export async function responseBody(db: Db, id: string): Promise<ResponseObject | undefined> {
  const row = await db.selectFrom("responses").select("body").where("id", "=", id).executeTakeFirst();
  return row && JSON.parse(row.body);
}

/**
 * Every item of the chain that ends at `id`, oldest response first, each response's input before
 * its output: one recursive query, whatever the depth.
 */
export async function chainItems(db: Db, orgId: number, id: string): Promise<Item[]> {
  const rows = await db
    .withRecursive("chain(id, previous_response_id, depth)", (qb) =>
      qb
        .selectFrom("responses")
        .select(["id", "previous_response_id", sql<number>`0`.as("depth")])
        .where("id", "=", id)
        .where("organization_id", "=", orgId)
        .unionAll((qb2) =>
          qb2
            .selectFrom("responses as r")
            .innerJoin("chain", "chain.previous_response_id", "r.id")
            .select(["r.id", "r.previous_response_id", sql<number>`chain.depth + 1`.as("depth")])
            .where("r.organization_id", "=", orgId),
        ),
    )
    .selectFrom("chain")
    .innerJoin("response_items as i", "i.response_id", "chain.id")
    .select(["i.item"])
    .orderBy("chain.depth", "desc")
    .orderBy("i.seq", "asc")
    .execute();
  return rows.map((r) => JSON.parse(r.item));
}

export async function listInputItems(db: Db, orgId: number, responseId: string, q: PageQuery): Promise<Page<Item> | null> {
  const query = db
    .selectFrom("response_items")
    .select(["item", "seq"])
    .where("response_id", "=", responseId)
    .where("organization_id", "=", orgId)
    .where("role", "=", "input");
  const page = await readPage(query, q, (id) =>
    db.selectFrom("response_items").select("seq").where("response_id", "=", responseId).where("role", "=", "input").where("id", "=", id).executeTakeFirst(),
  );
  return page && { rows: page.rows.map((r) => JSON.parse(r.item)), hasMore: page.hasMore };
}

/** A response's own input items, in their order (a job run by another process starts from them). */
export async function inputItemsOf(db: Db, responseId: string): Promise<Item[]> {
  const rows = await db.selectFrom("response_items").select("item").where("response_id", "=", responseId).where("role", "=", "input").orderBy("seq").execute();
  return rows.map((r) => JSON.parse(r.item));
}

/** An item of any stored response of the organization, for item_reference. */
export async function findResponseItem(db: Db, orgId: number, itemId: string): Promise<Item | undefined> {
  const row = await db
    .selectFrom("response_items")
    .select("item")
    .where("organization_id", "=", orgId)
    .where("id", "=", itemId)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? JSON.parse(row.item) : undefined;
}

export async function deleteResponse(db: Db, orgId: number, id: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const gone = await tx.deleteFrom("responses").where("id", "=", id).where("organization_id", "=", orgId).executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) return false;
    await tx.deleteFrom("response_items").where("response_id", "=", id).execute();
    await tx.deleteFrom("response_events").where("response_id", "=", id).execute();
    return true;
  });
}

/**
 * Ends a response that is still running (queued or in progress) with its final status and body,
 * releasing its lease; false when it had ended already (cancelled, failed or finished meanwhile).
 */
export async function endResponse(db: Db, id: string, status: string, body: unknown): Promise<boolean> {
  return changedRows(await endRunning(db, { id, status, body: bodyText(body), at: seconds() })) === 1;
}
// A streamed turn ends its row with this: compiled once (prepared.ts), as the inserts are.
const endRunning = prepared<{ id: string; status: string; body: string; at: number }>((db, v) =>
  db
    .updateTable("responses")
    .set({ status: v("status"), body: v("body"), updated_at: v("at"), worker: null, lease_until: null })
    .where("id", "=", v("id"))
    .where("status", "in", ["queued", "in_progress"]),
);

/** The sequence number a response's next stored event takes. */
export async function nextSequence(db: Db, responseId: string): Promise<number> {
  const row = await db
    .selectFrom("response_events")
    .select((eb) => eb.fn.max("sequence_number").as("n"))
    .where("response_id", "=", responseId)
    .executeTakeFirst();
  return row?.n == null ? 0 : Number(row.n) + 1;
}

export async function appendEvents(db: Db, responseId: string, events: { sequence_number: number }[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto("response_events")
    .values(events.map((e) => ({ response_id: responseId, sequence_number: e.sequence_number, event: JSON.stringify(e) })))
    .execute();
}

/** Forgets a response's stored events (a job run again from its start writes them anew). */
export async function deleteEvents(db: Db, responseId: string): Promise<void> {
  await db.deleteFrom("response_events").where("response_id", "=", responseId).execute();
}

export async function eventsAfter(db: Db, responseId: string, after: number): Promise<SequencedEvent[]> {
  const rows = await db
    .selectFrom("response_events")
    .select("event")
    .where("response_id", "=", responseId)
    .where("sequence_number", ">", after)
    .orderBy("sequence_number")
    .execute();
  return rows.map((r) => JSON.parse(r.event));
}

/**
 * Claims up to `limit` background jobs whose lease has lapsed (or that nobody holds): they become
 * `worker`'s until `until`, and are returned. One statement; where the database has row locks
 * that others skip (PostgreSQL) the candidates are picked `FOR UPDATE SKIP LOCKED`, so replicas
 * claiming at the same moment take disjoint jobs without waiting on each other. The outer
 * conditions are checked again on the locked rows, so a job is never claimed twice in any case.
 */
export async function claimLapsedResponses(db: Db, worker: string, until: number, now = seconds(), limit = 50): Promise<StoredResponse[]> {
  const skipLocked = capabilities(db).skipLocked;
  const rows = await db
    .updateTable("responses")
    .set({ worker, lease_until: until })
    .where("seq", "in", (eb) =>
      eb
        .selectFrom("responses")
        .select("seq")
        // A literal, not a parameter: the planner then reads the partial index of background jobs (0010).
        .where("background", "=", sql.lit(1))
        .where("status", "in", ["queued", "in_progress"])
        .where((w) => w.or([w("lease_until", "is", null), w("lease_until", "<", now)]))
        .orderBy("seq")
        .limit(limit)
        .$call((q) => (skipLocked ? q.forUpdate().skipLocked() : q)),
    )
    .where("background", "=", sql.lit(1))
    .where("status", "in", ["queued", "in_progress"])
    .where((w) => w.or([w("lease_until", "is", null), w("lease_until", "<", now)]))
    .returningAll()
    .execute();
  return rows.map(stored);
}

/**
 * Keeps a background job's claim alive while its process runs it. False when the job is no longer
 * this worker's to run: cancelled or failed meanwhile (through any replica), deleted, or claimed
 * by another worker after the lease lapsed.
 */
export async function renewLease(db: Db, id: string, worker: string, until: number): Promise<boolean> {
  const r = await db
    .updateTable("responses")
    .set({ lease_until: until })
    .where("id", "=", id)
    .where("worker", "=", worker)
    .where("status", "in", ["queued", "in_progress"])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Whether a response is still queued or in progress (a runner's look for a cancel made elsewhere). */
export async function isRunning(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom("responses").select("status").where("id", "=", id).executeTakeFirst();
  return row !== undefined && (row.status === "queued" || row.status === "in_progress");
}
