// Request logs keep conversations; they are purged after the retention window, at start and daily.
import type { Db } from "./connect.ts";
import { nowIso } from "./clock.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export async function purgeOldLogs(db: Db, retentionDays: number, now = Date.now()): Promise<number> {
  const cutoff = nowIso(new Date(now - retentionDays * DAY_MS));
  return db.transaction().execute(async (tx) => {
    const result = await tx.deleteFrom("request_logs").where("created_at", "<", cutoff).executeTakeFirst();
    // A library block goes with the last log that names it (blocks can hold the application's text).
    await tx
      .deleteFrom("log_libraries")
      .where("created_at", "<", cutoff)
      .where("hash", "not in", (eb) =>
        eb.selectFrom("request_logs").select("library_hash").where("library_hash", "is not", null).$narrowType<{ library_hash: string }>(),
      )
      .execute();
    return Number(result.numDeletedRows);
  });
}

/** Purges now and then once a day; the timer is unref'd so it never keeps the process alive. */
export async function startRetention(db: Db, retentionDays: number): Promise<() => void> {
  await purgeOldLogs(db, retentionDays);
  const timer = setInterval(() => {
    purgeOldLogs(db, retentionDays).catch((e) => console.error("log purge failed:", String(e)));
  }, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
