// The paid-call steps every surface shares: check and hold the price before the work (one atomic
// UPDATE, so concurrent calls never overspend), 429 with x-should-retry:false when the organization
// cannot pay (retrying would not help), settlement in one transaction afterwards (../db/billing.ts).
import { canAfford, findOrganizationById, holdCredits, type Db, type Organization } from "../db/index.ts";
import { HttpError } from "./errors.ts";

export function outOfCredits(org: Organization, surface: string): HttpError {
  return new HttpError(429, org.suspended ? "billing is suspended for this organization" : `this organization has no credits left for ${surface}`, {
    code: org.suspended ? "billing_suspended" : "insufficient_credits",
    headers: { "x-should-retry": "false" },
  });
}

/** Holds `price` credits for this request, or throws the 429. */
export async function holdPrice(db: Db, org: Organization, price: number, requestId: string, surface: string): Promise<void> {
  if (!canAfford(org, price)) throw outOfCredits(org, surface);
  if (!(await holdCredits(db, org.id, price, requestId))) {
    throw outOfCredits((await findOrganizationById(db, org.id)) ?? org, surface);
  }
}
