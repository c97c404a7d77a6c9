// Request logs and reliability events outside of billing (free calls, errors) and the monitoring view.
import type { Kysely, Transaction } from "kysely";
import type { Db } from "./connect.ts";
import { nowIso } from "./clock.ts";
import type { Database, NewReliabilityEvent, NewRequestLog } from "./schema.ts";

/** A library config block a request log refers to by hash (stored once per distinct block). */
export interface LoggedLibrary {
  hash: string;
  config: string;
}

/**
 * Stores the block unless a log already did; call in the transaction that writes the log.
 *
 * With concurrent writers (PostgreSQL) the retention purge, which deletes old blocks no log names,
 * could delete a stored block between a no-op insert here and the log that names it: the
 * settlement would then fail on the foreign key. So a block older than a day is first brought
 * forward to now, which also locks it to the end of the caller's transaction: the purge waits,
 * then finds it young and keeps it (or, had the purge deleted it first, the insert stores it
 * anew). A block used within the day is never the purge's (retention is counted in days), so the
 * common case takes no lock and settlements sharing a library do not queue on its row.
 */
export async function storeLibrary(tx: Kysely<Database> | Transaction<Database>, library: LoggedLibrary): Promise<void> {
  const now = Date.now();
  const created_at = nowIso(new Date(now));
  await tx
    .updateTable("log_libraries")
    .set({ created_at })
    .where("hash", "=", library.hash)
    .where("created_at", "<", nowIso(new Date(now - LIBRARY_REFRESH_MS)))
    .execute();
  await tx
    .insertInto("log_libraries")
    .values({ hash: library.hash, config: library.config, created_at })
    .onConflict((oc) => oc.column("hash").doNothing())
    .execute();
}

/** A stored block older than this is brought forward when a log names it again (see storeLibrary). */
const LIBRARY_REFRESH_MS = 24 * 60 * 60 * 1000;

export async function writeRequestLog(db: Db, log: Omit<NewRequestLog, "created_at">, library: LoggedLibrary | null = null): Promise<void> {
  if (!library) {
    await db.insertInto("request_logs").values({ ...log, created_at: nowIso() }).execute();
    return;
  }
  await db.transaction().execute(async (tx) => {
    await storeLibrary(tx, library);
    await tx.insertInto("request_logs").values({ ...log, library_hash: library.hash, created_at: nowIso() }).execute();
  });
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
