// Whether the database answers and takes writes, for /health and /health/ready: a read within a
// bound, and, when the last write met trouble (a full disk, a read-only database), a write that
// changes nothing, so that the report clears itself once the trouble is gone.
import { sql } from "kysely";
import type { Db } from "./connect.ts";
import { noteWriteTrouble, noteWritten, troubleOf, writeTrouble, type Trouble } from "./trouble.ts";

/** How long the probe waits for the database before it calls it unreachable. */
export const PROBE_TIMEOUT_MS = 2000;

export async function probeDatabase(db: Db, timeoutMs = PROBE_TIMEOUT_MS): Promise<Trouble | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Trouble>((resolve) => (timer = setTimeout(() => resolve("unreachable"), timeoutMs)));
  try {
    return await Promise.race([late, check(db)]);
  } finally {
    clearTimeout(timer);
  }
}

async function check(db: Db): Promise<Trouble | null> {
  try {
    await sql`select 1`.execute(db);
    if (writeTrouble(db) === null) return null;
    // Rewrites one row with its own values: a real write and commit, no change.
    await db.transaction().execute((tx) =>
      tx.updateTable("organizations").set((eb) => ({ suspended: eb.ref("suspended") }))
        .where("id", "=", (eb) => eb.selectFrom("organizations").select((f) => f.fn.min("id").as("m"))).execute());
    noteWritten(db);
    return null;
  } catch (e) {
    const trouble = troubleOf(e) ?? "unreachable";
    if (trouble !== "unreachable") noteWriteTrouble(db, trouble);
    return trouble;
  }
}
