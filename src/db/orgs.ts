// Organizations and their credit balance; every balance movement is ledgered in the same transaction.
import type { Db } from "./connect.ts";
import { nowIso } from "./clock.ts";
import { assertCreditAmount, MAX_CREDITS } from "./credits.ts";
import type { Organization } from "./schema.ts";

export async function createOrganization(db: Db, name: string, credits = 0): Promise<Organization> {
  assertCreditAmount(credits, "starting credits");
  if (credits < 0) throw new RangeError(`starting credits must not be negative, got ${credits}`);
  return db.transaction().execute(async (tx) => {
    const org = await tx.insertInto("organizations").values({ name, credits, suspended: 0, created_at: nowIso() }).returningAll().executeTakeFirstOrThrow();
    if (credits !== 0) {
      await tx
        .insertInto("credit_ledger")
        .values({ organization_id: org.id, delta: credits, reason: "initial credits", request_id: null, created_at: nowIso() })
        .execute();
    }
    return org;
  });
}

export async function findOrganizationByName(db: Db, name: string): Promise<Organization | undefined> {
  return db.selectFrom("organizations").selectAll().where("name", "=", name).executeTakeFirst();
}

export async function findOrganizationById(db: Db, id: number): Promise<Organization | undefined> {
  return db.selectFrom("organizations").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * Adds (or with a negative amount removes) credits; the balance never goes below zero nor above
 * MAX_CREDITS (`ok: false`: too few credits to remove, or too many to add). `delta` must be a
 * whole number within ±MAX_CREDITS (a RangeError otherwise).
 */
export async function adjustCredits(
  db: Db,
  orgId: number,
  delta: number,
  reason: string,
): Promise<{ ok: true; credits: number } | { ok: false; credits: number }> {
  assertCreditAmount(delta, "a credit change");
  return db.transaction().execute(async (tx) => {
    const updated = await tx
      .updateTable("organizations")
      .set((eb) => ({ credits: eb("credits", "+", delta) }))
      .where("id", "=", orgId)
      .where("credits", ">=", delta < 0 ? -delta : 0)
      .$if(delta > 0, (q) => q.where("credits", "<=", MAX_CREDITS - delta))
      .returning("credits")
      .executeTakeFirst();
    if (!updated) {
      const org = await tx.selectFrom("organizations").select("credits").where("id", "=", orgId).executeTakeFirstOrThrow();
      return { ok: false as const, credits: org.credits };
    }
    await tx.insertInto("credit_ledger").values({ organization_id: orgId, delta, reason, request_id: null, created_at: nowIso() }).execute();
    return { ok: true as const, credits: updated.credits };
  });
}

export async function setSuspended(db: Db, orgId: number, suspended: boolean): Promise<void> {
  await db
    .updateTable("organizations")
    .set({ suspended: suspended ? 1 : 0 })
    .where("id", "=", orgId)
    .execute();
}
