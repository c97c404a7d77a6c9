// The money invariant, read straight from the database: for every organization,
// balance + open holds = sum of the ledger.
import type { Db } from "../../src/db/index.ts";

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
