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
  const org = await db.selectFrom("organizations").select("credits").where("id", "=", orgId).executeTakeFirstOrThrow();
  const holds = await db.selectFrom("credit_holds").select("amount").where("organization_id", "=", orgId).execute();
  const ledger = await db.selectFrom("credit_ledger").select("delta").where("organization_id", "=", orgId).execute();
  const held = holds.reduce((n, h) => n + h.amount, 0);
  const total = ledger.reduce((n, l) => n + l.delta, 0);
  return { credits: org.credits, holds: held, openHolds: holds.length, ledger: total, balanced: org.credits + held === total };
}

/** The books of the organization named `name`, asserted balanced, without the flag (to compare whole). */
export async function balancedBooks(db: Db, name: string): Promise<Omit<Books, "balanced">> {
  const { balanced, ...rest } = await books(db, (await findOrganizationByName(db, name))!.id);
  expect(balanced).toBe(true);
  return rest;
}
