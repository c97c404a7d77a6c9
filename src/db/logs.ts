// Request logs and reliability events outside of billing (free calls, errors) and the monitoring view.
import type { Db } from "./connect.ts";
import { nowIso } from "./clock.ts";
import type { NewReliabilityEvent, NewRequestLog } from "./schema.ts";

export async function writeRequestLog(db: Db, log: Omit<NewRequestLog, "created_at">): Promise<void> {
  await db.insertInto("request_logs").values({ ...log, created_at: nowIso() }).execute();
}

export async function writeReliabilityEvent(db: Db, event: Omit<NewReliabilityEvent, "created_at">): Promise<void> {
  await db.insertInto("reliability_events").values({ ...event, created_at: nowIso() }).execute();
}

export interface ModelReliability {
  model: string;
  requests: number;
  outcomes: Record<string, number>;
  corrections: { total: number; byCode: Record<string, number> };
}

/** Per model: request count, outcome counts and corrected error codes, for one organization. */
export async function reliabilitySummary(db: Db, orgId: number): Promise<ModelReliability[]> {
  const rows = await db
    .selectFrom("reliability_events")
    .select(["model", "outcome", "corrected_codes"])
    .where("organization_id", "=", orgId)
    .orderBy("model")
    .execute();
  const byModel = new Map<string, ModelReliability>();
  for (const row of rows) {
    let entry = byModel.get(row.model);
    if (!entry) {
      entry = { model: row.model, requests: 0, outcomes: {}, corrections: { total: 0, byCode: {} } };
      byModel.set(row.model, entry);
    }
    entry.requests++;
    entry.outcomes[row.outcome] = (entry.outcomes[row.outcome] ?? 0) + 1;
    const codes = JSON.parse(row.corrected_codes) as string[];
    if (codes.length > 0) entry.corrections.total++;
    for (const code of codes) entry.corrections.byCode[code] = (entry.corrections.byCode[code] ?? 0) + 1;
  }
  return [...byModel.values()];
}
