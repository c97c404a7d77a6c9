// A paid call made with a frontend token minted with max_credits: the price comes out of the
// token's lifetime budget first (429 past it), then the organization's credits are held as for
// any call; when the organization cannot pay, the token gets its share back.
import { refundTokenCredits, spendTokenCredits, type Db } from "../db/index.ts";
import type { Principal } from "./auth.ts";
import { HttpError } from "./errors.ts";
import { holdPrice } from "./paid.ts";

export async function holdWithTokenBudget(db: Db, p: Principal, price: number, requestId: string, surface: string): Promise<void> {
  const budgeted = p.kind === "token" && p.maxCredits !== null;
  if (budgeted && !(await spendTokenCredits(db, p.tokenId, price))) {
    throw new HttpError(429, `this frontend token has spent its max_credits (${p.maxCredits}): mint a new one`, {
      code: "token_budget_exhausted",
      headers: { "x-should-retry": "false" },
    });
  }
  try {
    await holdPrice(db, p.org, price, requestId, surface);
  } catch (e) {
    if (budgeted) await refundTokenCredits(db, (p as { tokenId: string }).tokenId, price);
    throw e;
  }
}
