// Request logs keep conversations; they are purged after the retention window, at start and daily.
import type { Db } from "./connect.ts";
import { nowIso } from "./clock.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export async function purgeOldLogs(db: Db, retentionDays: number, now = Date.now()): Promise<number> {
  const cutoff = nowIso(new Date(now - retentionDays * DAY_MS));
  const result = await db.deleteFrom("request_logs").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
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
