// A paid call made with a frontend token minted with max_credits: the price comes out of the
// token's lifetime budget first (429 past it), then the organization's credits are held as for
// any call; when the organization cannot pay, or the call ends uncharged (the provider failed,
// the client went away), the token gets its share back.
import { refundTokenCredits, spendTokenCredits } from "../db/index.ts";
import type { Principal } from "./auth.ts";
import { HttpError } from "./errors.ts";
import type { PaidCall } from "./paid.ts";

export async function holdWithTokenBudget(p: Principal, call: PaidCall): Promise<void> {
  const tokenId = p.kind === "token" && p.maxCredits !== null ? p.tokenId : null;
  const { db } = call.deps;
  if (tokenId !== null && !(await spendTokenCredits(db, tokenId, call.price))) {
    throw new HttpError(429, `this frontend token has spent its max_credits (${(p as { maxCredits: number }).maxCredits}): mint a new one`, {
      code: "token_budget_exhausted",
      headers: { "x-should-retry": "false" },
    });
  }
  try {
    await call.hold();
  } catch (e) {
    if (tokenId !== null) await refundTokenCredits(db, tokenId, call.price);
    throw e;
  }
  if (tokenId !== null) call.onUncharged(() => refundTokenCredits(db, tokenId, call.price));
}
