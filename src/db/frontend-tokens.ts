// The lifetime budget of frontend tokens minted with max_credits (frontend_token_spend): written
// at mint time; each paid call a token makes takes its price from the budget in one conditional
// UPDATE (never past max_credits, however many calls race), and a call that ends up charging
// nothing gives it back.
import type { Db } from "./connect.ts";

export async function recordTokenBudget(db: Db, t: { tokenId: string; organizationId: number; maxCredits: number; expiresAt: number }): Promise<void> {
  await db
    .insertInto("frontend_token_spend")
    .values({ token_id: t.tokenId, organization_id: t.organizationId, max_credits: t.maxCredits, expires_at: t.expiresAt })
    .execute();
}

/** Takes `amount` from the token's budget; false when that would pass max_credits (or the token has no row). */
export async function spendTokenCredits(db: Db, tokenId: string, amount: number): Promise<boolean> {
  const r = await db
    .updateTable("frontend_token_spend")
    .set((eb) => ({ spent: eb("spent", "+", amount) }))
    .where("token_id", "=", tokenId)
    .where((eb) => eb(eb("spent", "+", amount), "<=", eb.ref("max_credits")))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives back what a call took and did not charge. */
export async function refundTokenCredits(db: Db, tokenId: string, amount: number): Promise<void> {
  if (amount <= 0) return;
  await db
    .updateTable("frontend_token_spend")
    .set((eb) => ({ spent: eb("spent", "-", amount) }))
    .where("token_id", "=", tokenId)
    .where("spent", ">=", amount)
    .execute();
}

export async function tokenBudget(db: Db, tokenId: string): Promise<{ spent: number; max_credits: number } | undefined> {
  const row = await db.selectFrom("frontend_token_spend").select(["spent", "max_credits"]).where("token_id", "=", tokenId).executeTakeFirst();
  return row && { spent: Number(row.spent), max_credits: Number(row.max_credits) };
}
