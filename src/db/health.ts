// Whether the database answers and takes writes, for /health and /health/ready: a read and a
// write that leaves nothing behind, within a bound.
import { sql } from "kysely";
import type { Db } from "./connect.ts";
import { capabilities } from "./dialect.ts";
import { troubleOf, type Trouble } from "./trouble.ts";

/** How long the probe waits for the database before it calls it unreachable. */
export const PROBE_TIMEOUT_MS = 2000;
/** Bytes the probe writes: more than a page, so that a database that cannot grow says so. */
const PROBE_BYTES = 16 * 1024;

export async function probeDatabase(db: Db, timeoutMs = PROBE_TIMEOUT_MS): Promise<Trouble | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A SQLite file that does not answer in time is waiting for another process's lock.
  const slow: Trouble = capabilities(db).label === "sqlite" ? "busy" : "unreachable";
  const late = new Promise<Trouble>((resolve) => (timer = setTimeout(() => resolve(slow), timeoutMs)));
  try {
    return await Promise.race([late, check(db)]);
  } finally {
    clearTimeout(timer);
  }
}

async function check(db: Db): Promise<Trouble | null> {
  try {
    await sql`select 1`.execute(db);
    // A row of a few pages written and deleted in one committed transaction: the file must be able
    // to grow and the log to take a commit, or this fails as the next paid call would.
    const id = crypto.randomUUID();
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto("health_probes")
        .values({ id, filler: "x".repeat(PROBE_BYTES) })
        .execute();
      await tx.deleteFrom("health_probes").where("id", "=", id).execute();
    });
    return null;
  } catch (e) {
    return troubleOf(e) ?? "unreachable";
  }
}
