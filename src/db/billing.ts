// Credits for paid calls. Shared by every paid route (Autofix now, Embed Chat Completions later).
//
// A paid call first *holds* its price with one atomic UPDATE (so 50 concurrent calls against 10
// credits can never overspend), then *settles* in one transaction that writes the ledger row, the
// request log and the reliability event together, handing the hold back when nothing is charged.
import type { Db } from "./connect.ts";
import { nowIso } from "./clock.ts";
import type { NewReliabilityEvent, NewRequestLog, Organization } from "./schema.ts";

/** Whether the organization may start a paid call at this price right now. */
export function canAfford(org: Pick<Organization, "credits" | "suspended">, price: number): boolean {
  return org.suspended === 0 && org.credits >= price;
}

/**
 * Takes `amount` credits if the organization has them and is not suspended. The check and the
 * decrement are a single statement, so SQLite serializes concurrent holds.
 */
export async function holdCredits(db: Db, orgId: number, amount: number, _requestId?: string): Promise<boolean> {
  if (amount <= 0) return true;
  const result = await db
    .updateTable("organizations")
    .set((eb) => ({ credits: eb("credits", "-", amount) }))
    .where("id", "=", orgId)
    .where("credits", ">=", amount)
    .where("suspended", "=", 0)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export interface Settlement {
  orgId: number;
  requestId: string;
  /** Credits taken earlier by holdCredits (0 when none). */
  held: number;
  /** Credits actually charged; must be <= held. The rest goes back. */
  charge: number;
  reason: string;
  log: Omit<NewRequestLog, "organization_id" | "request_id" | "charge" | "created_at">;
  event?: Omit<NewReliabilityEvent, "organization_id" | "created_at">;
}

/** Writes charge, refund, request log and reliability event in one transaction. */
export async function settle(db: Db, s: Settlement): Promise<void> {
  const created_at = nowIso();
  await db.transaction().execute(async (tx) => {
    const refund = s.held - s.charge;
    if (refund > 0) {
      await tx
        .updateTable("organizations")
        .set((eb) => ({ credits: eb("credits", "+", refund) }))
        .where("id", "=", s.orgId)
        .execute();
    }
    if (s.charge > 0) {
      await tx
        .insertInto("credit_ledger")
        .values({ organization_id: s.orgId, delta: -s.charge, reason: s.reason, request_id: s.requestId, created_at })
        .execute();
    }
    await tx
      .insertInto("request_logs")
      .values({ ...s.log, organization_id: s.orgId, request_id: s.requestId, charge: s.charge, created_at })
      .execute();
    if (s.event) {
      await tx.insertInto("reliability_events").values({ ...s.event, organization_id: s.orgId, created_at }).execute();
    }
  });
}
