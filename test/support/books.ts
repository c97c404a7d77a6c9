// The money invariant, read straight from the database: for every organization,
// balance + open holds = sum of the ledger.
import { expect } from "bun:test";
import { findOrganizationByName, type Db } from "../../src/db/index.ts";

export interface Books {
  credits: number;
  holds: number;
  openHolds: number;
  ledger: number;
  balanced: boolean;
}

export async function books(db: Db, orgId: number): Promise<Books> {
  // One statement, so one snapshot: read apart, a hold returned between the reads would show
  // books that never were (its credits not yet back, the hold already gone).
  const row = await db
    .selectFrom("organizations")
    .where("id", "=", orgId)
    .select((eb) => [
      "credits",
      eb
        .selectFrom("credit_holds")
        .where("organization_id", "=", orgId)
        .select((h) => h.fn.sum<number | string>("amount").as("s"))
        .as("held"),
      eb
        .selectFrom("credit_holds")
        .where("organization_id", "=", orgId)
        .select((h) => h.fn.countAll<number | string>().as("n"))
        .as("openHolds"),
      eb
        .selectFrom("credit_ledger")
        .where("organization_id", "=", orgId)
        .select((l) => l.fn.sum<number | string>("delta").as("s"))
        .as("total"),
    ])
    .executeTakeFirstOrThrow();
  const credits = Number(row.credits);
  const held = Number(row.held ?? 0);
  const total = Number(row.total ?? 0);
  return { credits, holds: held, openHolds: Number(row.openHolds ?? 0), ledger: total, balanced: credits + held === total };
}

/** The books of the organization named `name`, asserted balanced, without the flag (to compare whole). */
export async function balancedBooks(db: Db, name: string): Promise<Omit<Books, "balanced">> {
  const { balanced, ...rest } = await books(db, (await findOrganizationByName(db, name))!.id);
  expect(balanced).toBe(true);
  return rest;
}
