// Credits for paid calls. Shared by every paid route (Autofix, Embed Chat Completions).
//
// A paid call first *holds* its price: one transaction takes the credits with an atomic conditional
// UPDATE (so 50 concurrent calls against 10 credits can never overspend) and writes a credit_holds
// row. It then *settles* in one transaction that deletes the hold, writes the ledger row, the request
// log and the reliability event together, handing back what was not charged. A hold whose request
// never settles (the process died, or stopped before the call ended) is returned with a ledger row
// of delta 0 that names the request: at start-up and periodically once it is older than any request
// can run (the backstop), at shutdown for the calls of the stopping process, and as soon as the
// process that took it is known to be gone (owners.ts). At every moment:
//
//   organizations.credits + sum(credit_holds.amount) = sum(credit_ledger.delta)   (per organization)
import { sql, type Kysely, type RawBuilder } from "kysely";
import type { Db } from "./connect.ts";
import { nowIso } from "./clock.ts";
import { capabilities } from "./dialect.ts";
import { changedRows, prepared } from "./prepared.ts";
import { inSharedTransaction } from "./group-commit.ts";
import { inOwnStatement } from "./own-statement.ts";
import { statementBatch } from "./statement-batch.ts";
import { ownerOf } from "./owners.ts";
import { writeRecords, type LoggedLibrary, type CallRecords } from "./logs.ts";
import { queueRecords } from "./log-queue.ts";
import type { CreditHold, Database, NewReliabilityEvent, NewRequestLog, Organization } from "./schema.ts";

/**
 * How old an unsettled hold must be before the sweep returns it. Longer than any paid request
 * runs: an Autofix call holds its price for the checks plus at most the fixing model's 60 s
 * timeout (FIXING_MODEL_TIMEOUT_MS); a provider call (Embed, Responses) is cut at PROVIDER_DEADLINE_MS (30 min). An hour
 * leaves a wide margin over both. Should a request still settle after its hold was returned, settle()
 * takes the charge from the balance afresh (or charges nothing when the balance cannot pay it).
 */
export const HOLD_EXPIRY_MS = 60 * 60 * 1000;
/** How often a running server looks for expired holds. */
export const HOLD_SWEEP_INTERVAL_MS = 60 * 1000;

/** Holds taken through each database handle and not yet settled: what a stopping server returns. */
const openHolds = new WeakMap<Db, Set<string>>();

function openHoldSet(db: Db): Set<string> {
  let set = openHolds.get(db);
  if (!set) openHolds.set(db, (set = new Set()));
  return set;
}

/** Whether the organization may start a paid call at this price right now. */
export function canAfford(org: Pick<Organization, "credits" | "suspended">, price: number): boolean {
  return org.suspended === 0 && org.credits >= price;
}

// The paid path's writes, compiled once (prepared.ts).
const takeCredits = prepared<{ org: number; amount: number }>((db, v) =>
  db
    .updateTable("organizations")
    .set((eb) => ({ credits: eb("credits", "-", v("amount")) }))
    .where("id", "=", v("org"))
    .where("credits", ">=", v("amount"))
    .where("suspended", "=", 0),
);
const giveCredits = prepared<{ org: number; amount: number }>((db, v) =>
  db
    .updateTable("organizations")
    .set((eb) => ({ credits: eb("credits", "+", v("amount")) }))
    .where("id", "=", v("org")),
);
const insertHold = prepared<{ org: number; request: string; amount: number; at: string; owner: string | null }>((db, v) =>
  db.insertInto("credit_holds").values({ organization_id: v("org"), request_id: v("request"), amount: v("amount"), created_at: v("at"), owner: v("owner") }),
);
/** The decrement and the hold row as one statement, where the database runs an UPDATE inside WITH (PostgreSQL). */
const takeIntoHold = prepared<{ org: number; request: string; amount: number; at: string; owner: string | null }>((db, v) =>
  db
    .with("taken", (qb) =>
      qb
        .updateTable("organizations")
        .set((eb) => ({ credits: eb("credits", "-", v("amount")) }))
        .where("id", "=", v("org"))
        .where("credits", ">=", v("amount"))
        .where("suspended", "=", 0)
        .returning("id"),
    )
    .insertInto("credit_holds")
    .columns(["organization_id", "request_id", "amount", "created_at", "owner"])
    .expression((eb) =>
      eb
        .selectFrom("taken")
        .select([
          "taken.id",
          eb.cast<string>(eb.val(v("request")), "text").as("request_id"),
          eb.cast<number>(eb.val(v("amount")), "bigint").as("amount"),
          eb.cast<string>(eb.val(v("at")), "text").as("created_at"),
          eb.cast<string | null>(eb.val(v("owner")), "text").as("owner"),
        ]),
    ),
);
/**
 * The holds of a batch (statement-batch.ts) in one statement, where the database runs an UPDATE
 * inside WITH (PostgreSQL): each organization's total taken by one conditional UPDATE (all of its
 * holds in the batch, or none), and the hold rows of those taken. `rows` is JSON [[org, request,
 * amount, at, owner], …]; answers the requests held. One that is not (its organization could not
 * pay the whole batch) is tried alone (holdCredits).
 */
const takeIntoHolds = prepared<{ rows: string }, { request_id: string }>(
  (db, v) => sql`
  WITH j AS (
    SELECT CAST(c0 AS integer) AS org, c1 AS request, CAST(c2 AS bigint) AS amount, c3 AS at, c4 AS owner, n
    FROM ${capabilities(db).jsonTuples(v("rows"), 5)} AS rows
  ), taken AS (
    UPDATE organizations SET credits = credits - t.total
    FROM (SELECT org, CAST(sum(amount) AS bigint) AS total FROM j GROUP BY org) AS t
    WHERE organizations.id = t.org AND organizations.credits >= t.total AND organizations.suspended = 0
    RETURNING organizations.id
  )
  INSERT INTO credit_holds (organization_id, request_id, amount, created_at, owner)
  SELECT j.org, j.request, j.amount, j.at, j.owner FROM j JOIN taken ON taken.id = j.org ORDER BY j.n
  RETURNING request_id`,
);
type HoldValues = { org: number; request: string; amount: number; at: string; owner: string | null };
const holdInBatch = statementBatch<HoldValues, boolean>(async (db, holds) => {
  const rows = JSON.stringify(holds.map((h) => [h.org, h.request, h.amount, h.at, h.owner]));
  const held = new Set((await takeIntoHolds(db, { rows })).rows.map((r) => r.request_id));
  return holds.map((h) => held.has(h.request));
});
/** A hold to settle, as a row of a settlement statement (holdSettlementParts). */
export type HoldSettlement = { org: number; request: string; charge: number; reason: string; at: string };
/** `rows` of holdSettlementParts. */
export function holdSettlementRows(settlements: HoldSettlement[]): string {
  return JSON.stringify(settlements.map((s) => [s.org, s.request, s.charge, s.reason, s.at]));
}
/**
 * The WITH parts that settle holds, many in one statement where the database runs writes inside
 * WITH (PostgreSQL). `rows` (holdSettlementRows) are JSON [[org, request, charge, reason, at], …].
 * `h` deletes the holds, `settled` yields each one found (request, amount, charged: its charge, at
 * most what it held), `back` gives back what they held beyond their charges, one UPDATE per
 * organization, `charged` writes the ledger rows. A hold not found writes nothing.
 */
export function holdSettlementParts(db: Kysely<Database>, rows: unknown): RawBuilder<unknown> {
  return sql`sq AS (
    SELECT CAST(c0 AS integer) AS org, c1 AS request, CAST(c2 AS bigint) AS charge, c3 AS reason, c4 AS at, n
    FROM ${capabilities(db).jsonTuples(rows, 5)} AS rows
  ), h AS (
    DELETE FROM credit_holds USING sq WHERE credit_holds.request_id = sq.request AND credit_holds.organization_id = sq.org
    RETURNING credit_holds.request_id, credit_holds.amount
  ), settled AS (
    SELECT sq.*, h.amount, LEAST(sq.charge, h.amount) AS charged FROM sq JOIN h ON h.request_id = sq.request
  ), back AS (
    UPDATE organizations SET credits = credits + b.refund
    FROM (SELECT org, CAST(sum(amount - charged) AS bigint) AS refund FROM settled GROUP BY org) AS b
    WHERE organizations.id = b.org AND b.refund > 0
  ), charged AS (
    INSERT INTO credit_ledger (organization_id, delta, reason, request_id, created_at)
    SELECT org, -charged, reason, request, at FROM settled WHERE charged > 0 ORDER BY n
  )`;
}
/** Holds settled in one statement (holdSettlementParts): each hold found, with what it charged. */
const settleHolds = prepared<{ rows: string }, { request: string; charged: number }>(
  (db, v) => sql`
  WITH ${holdSettlementParts(db, v("rows"))}
  SELECT request, charged FROM settled`,
);
/** The settlements of a batch (statement-batch.ts): each one's charge, or undefined when its hold was not found. */
const settleInBatch = statementBatch<HoldSettlement, number | undefined>(async (db, settlements) => {
  const charged = new Map((await settleHolds(db, { rows: holdSettlementRows(settlements) })).rows.map((r) => [r.request, r.charged]));
  return settlements.map((s) => charged.get(s.request));
}, 2);
const deleteHold = prepared<{ org: number; request: string }, { amount: number }>((db, v) =>
  db.deleteFrom("credit_holds").where("request_id", "=", v("request")).where("organization_id", "=", v("org")).returning("amount"),
);
const holdOf = prepared<{ request: string }, { id: number }>((db, v) => db.selectFrom("credit_holds").select("id").where("request_id", "=", v("request")));
const chargeOf = prepared<{ org: number; request: string; reason: string }, { delta: number }>((db, v) =>
  db
    .selectFrom("credit_ledger")
    .select("delta")
    .where("organization_id", "=", v("org"))
    .where("request_id", "=", v("request"))
    .where("reason", "=", v("reason")),
);
const insertLedger = prepared<{ org: number; delta: number; reason: string; request: string; at: string }>((db, v) =>
  db.insertInto("credit_ledger").values({ organization_id: v("org"), delta: v("delta"), reason: v("reason"), request_id: v("request"), created_at: v("at") }),
);

/**
 * Takes `amount` credits for request `requestId` if the organization has them and is not
 * suspended. The check and the decrement are a single statement (the database serializes
 * concurrent holds), and the hold row is written in the same transaction.
 */
export async function holdCredits(db: Db, orgId: number, amount: number, requestId: string): Promise<boolean> {
  if (amount <= 0) return true;
  // The process that takes it owns it: should that process die, its holds go back (owners.ts).
  const values = { org: orgId, request: requestId, amount, at: nowIso(), owner: ownerOf(db) };
  const oneStatement = capabilities(db).modifyingCte;
  const held = await inOwnStatement(
    db,
    // With the other holds of this turn, in one statement; one whose organization could not pay
    // them all is tried alone (below), which answers exactly.
    async (own) => (await holdInBatch(own, values)) || undefined,
    async (tx, maybeDone) => {
      // Run again after a commit that may have landed: the hold is there, or it was not taken.
      if (maybeDone && (await holdOf(tx, values)).rows.length > 0) return true;
      if (oneStatement) return changedRows(await takeIntoHold(tx, values)) === 1;
      if (changedRows(await takeCredits(tx, values)) !== 1) return false;
      await insertHold(tx, values);
      return true;
    },
  );
  if (held) openHoldSet(db).add(requestId);
  return held;
}

export interface Settlement {
  orgId: number;
  requestId: string;
  /** Credits taken earlier by holdCredits for this requestId (0 when none). */
  held: number;
  /** Credits actually charged; must be <= held. The rest goes back. */
  charge: number;
  reason: string;
  log: Omit<NewRequestLog, "organization_id" | "request_id" | "charge" | "created_at" | "library_hash">;
  /** The request's library config block, stored once and named by the log (see logged-conversation.ts). */
  library?: LoggedLibrary | null;
  event?: Omit<NewReliabilityEvent, "organization_id" | "created_at">;
}

/**
 * Deletes the hold, writes charge, refund, request log and reliability event in one transaction.
 * Returns what was charged: the settlement's charge, or, when the hold had already been returned
 * (an expired hold), the charge taken afresh from the balance if it still covers it, else 0.
 */
export async function settle(db: Db, s: Settlement): Promise<number> {
  const at = nowIso();
  const charged = await inOwnStatement(
    db,
    // The usual case, a hold to settle, in one statement; without one (returned meanwhile) it wrote nothing.
    async (own) =>
      s.held > 0 && s.charge <= s.held ? settleInBatch(own, { org: s.orgId, request: s.requestId, charge: s.charge, reason: s.reason, at }) : undefined,
    async (tx, maybeDone) => (await settleCredits(tx, s, at, maybeDone)).charge,
  );
  settled(db, s.requestId);
  queueRecords(db, recordsOf(s, charged, at));
  return charged;
}

/**
 * settle()'s writes, its log and event included, in the caller's transaction (for writes that must
 * commit with them); call settled() after the commit. `maybeDone`: see group-commit.ts's Work.
 */
export async function settleIn(tx: Db, s: Settlement, maybeDone = false): Promise<number> {
  const { charge, records } = await settleCreditsIn(tx, s, maybeDone);
  if (records) await writeRecords(tx, records);
  return charge;
}

/**
 * settleIn() without the log and event: they are returned (null when a commit that may have
 * landed had settled it), for the log queue once the caller's transaction has committed
 * (queueRecords), as settle() queues its own: a call that answers only after that commit does not
 * wait for them too.
 */
export async function settleCreditsIn(tx: Db, s: Settlement, maybeDone = false): Promise<{ charge: number; records: CallRecords | null }> {
  const at = nowIso();
  const { charge, already } = await settleCredits(tx, s, at, maybeDone);
  return { charge, records: already ? null : recordsOf(s, charge, at) };
}

/**
 * The hold deleted (what it held beyond the charge given back) and the ledger row; returns the
 * charge. Idempotent by request id when `maybeDone`: a settlement whose commit may have landed
 * finds its hold gone and returns the charge its ledger row says (`already`), writing nothing.
 */
async function settleCredits(tx: Db, s: Settlement, at: string, maybeDone = false): Promise<{ charge: number; already: boolean }> {
  if (s.charge > s.held) throw new Error(`settle: charge ${s.charge} is more than the ${s.held} held`);
  let charge = s.charge;
  if (s.held > 0) {
    let hold: { amount: number } | undefined;
    if (capabilities(tx).modifyingCte) {
      // One round trip: the hold, the credits it gives back and the ledger row (below, else).
      const [done] = (await settleHolds(tx, { rows: holdSettlementRows([{ org: s.orgId, request: s.requestId, charge, reason: s.reason, at }]) })).rows;
      if (done) return { charge: done.charged, already: false };
    } else [hold] = (await deleteHold(tx, { org: s.orgId, request: s.requestId })).rows;
    if (hold) {
      charge = Math.min(charge, hold.amount);
      const refund = hold.amount - charge;
      if (refund > 0) await giveCredits(tx, { org: s.orgId, amount: refund });
    } else if (maybeDone) {
      const [row] = (await chargeOf(tx, { org: s.orgId, request: s.requestId, reason: s.reason })).rows;
      return { charge: row ? -row.delta : 0, already: true };
    } else if (charge > 0 && changedRows(await takeCredits(tx, { org: s.orgId, amount: charge })) !== 1) {
      // The hold was returned before this request ended and the balance cannot pay it now.
      charge = 0;
    }
  }
  if (charge > 0) await insertLedger(tx, { org: s.orgId, delta: -charge, reason: s.reason, request: s.requestId, at });
  return { charge, already: false };
}

/** The request's hold is no longer this process's to return at shutdown. */
export function settled(db: Db, requestId: string): void {
  openHolds.get(db)?.delete(requestId);
}

/**
 * A paid call whose work is already done when it is paid for (no hold: nothing can be lost
 * between the check and the charge): takes the charge and writes its ledger row in one
 * transaction, then queues the request log and reliability event (log-queue.ts). False, with
 * nothing written, when the organization cannot pay (suspended, or concurrent calls spent the
 * balance): the caller answers 429.
 */
export async function chargeOutright(db: Db, s: Omit<Settlement, "held">): Promise<boolean> {
  const at = nowIso();
  const paid =
    s.charge <= 0 ||
    (await inSharedTransaction(db, async (tx, maybeDone) => {
      if (maybeDone && (await chargeOf(tx, { org: s.orgId, request: s.requestId, reason: s.reason })).rows.length > 0) return true;
      if (changedRows(await takeCredits(tx, { org: s.orgId, amount: s.charge })) !== 1) return false;
      await insertLedger(tx, { org: s.orgId, delta: -s.charge, reason: s.reason, request: s.requestId, at });
      return true;
    }));
  if (paid) queueRecords(db, recordsOf(s, s.charge, at));
  return paid;
}

/** What a settled call leaves besides its ledger row: its log (and library) and its event. */
export function recordsOf(s: Omit<Settlement, "held">, charge: number, at: string): CallRecords {
  return {
    log: { ...s.log, organization_id: s.orgId, request_id: s.requestId, charge, created_at: at },
    library: s.library ?? null,
    event: s.event ? { ...s.event, organization_id: s.orgId, created_at: at } : null,
  };
}

/**
 * Gives one hold back to its organization, with a ledger row (delta 0: the credits were never
 * charged) that names the request and why. False when the hold was already settled or returned.
 */
export async function returnHold(db: Db, hold: CreditHold, why: string): Promise<boolean> {
  const returned = await db.transaction().execute(async (tx) => {
    // By request id too: on SQLite a hold's id is a rowid, which a later hold may take again.
    const deleted = await tx.deleteFrom("credit_holds").where("id", "=", hold.id).where("request_id", "=", hold.request_id).executeTakeFirst();
    if (deleted.numDeletedRows !== 1n) return false;
    await tx
      .updateTable("organizations")
      .set((eb) => ({ credits: eb("credits", "+", hold.amount) }))
      .where("id", "=", hold.organization_id)
      .execute();
    await tx
      .insertInto("credit_ledger")
      .values({
        organization_id: hold.organization_id,
        delta: 0,
        reason: `hold of ${hold.amount} returned: ${why}`,
        request_id: hold.request_id,
        created_at: nowIso(),
      })
      .execute();
    return true;
  });
  openHolds.get(db)?.delete(hold.request_id);
  return returned;
}

/** How often a hold whose settlement failed is tried again (handBackLater). */
export const HAND_BACK_RETRY_MS = 2000;

/**
 * A call whose settlement could not be recorded (the database was in trouble) was not answered as
 * a success: its hold goes back, uncharged, as soon as the database takes the write (with
 * `alsoWrite`, e.g. its stored response marked failed).
 */
export function handBackLater(db: Db, requestId: string, log: (line: string) => void, alsoWrite?: (db: Db) => Promise<unknown>): void {
  const attempt = async () => {
    try {
      await alsoWrite?.(db);
      const hold = await db.selectFrom("credit_holds").selectAll().where("request_id", "=", requestId).executeTakeFirst();
      if (hold) await returnHold(db, hold, "its settlement could not be recorded");
      else settled(db, requestId);
    } catch (e) {
      log(`hold of ${requestId} not returned yet (${(e as Error).message}); trying again`);
      setTimeout(() => void attempt(), HAND_BACK_RETRY_MS).unref();
    }
  };
  void attempt();
}

/** Returns every hold older than `olderThanMs`; how many were returned. */
export async function returnExpiredHolds(db: Db, olderThanMs = HOLD_EXPIRY_MS, now = Date.now()): Promise<number> {
  const cutoff = nowIso(new Date(now - olderThanMs));
  const stale = await db.selectFrom("credit_holds").selectAll().where("created_at", "<", cutoff).orderBy("id").execute();
  let returned = 0;
  for (const hold of stale) {
    if (await returnHold(db, hold, `request not settled within ${Math.round(olderThanMs / 1000)} s`)) returned++;
  }
  return returned;
}

/**
 * Returns the holds this database handle took and never settled (requests still running when a
 * server stops); how many were returned.
 */
export async function returnOpenHolds(db: Db, why: string): Promise<number> {
  const ids = [...(openHolds.get(db) ?? [])];
  if (ids.length === 0) return 0;
  const holds = await db.selectFrom("credit_holds").selectAll().where("request_id", "in", ids).orderBy("id").execute();
  let returned = 0;
  for (const hold of holds) if (await returnHold(db, hold, why)) returned++;
  openHolds.get(db)?.clear();
  return returned;
}

/** Returns expired holds now, then every HOLD_SWEEP_INTERVAL_MS; the timer never keeps the process alive. */
export async function startHoldSweep(db: Db, log: (line: string) => void): Promise<() => void> {
  const sweep = async () => {
    const n = await returnExpiredHolds(db);
    if (n > 0) log(`returned ${n} expired credit hold${n === 1 ? "" : "s"}`);
  };
  await sweep();
  const timer = setInterval(() => {
    sweep().catch((e) => log(`credit hold sweep failed: ${String(e)}`));
  }, HOLD_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
