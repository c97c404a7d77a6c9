// Server processes as owners of what outlives a request's memory: credit holds and stored
// responses still running. Each server registers under a lease (server_leases) that it renews
// while it runs; a hold records its owner (credit_holds.owner), a running response its worker
// (responses.worker). An owner is dead once its lease has lapsed, or at once when it ran on this
// host under a process id that no longer runs (a restart after kill -9 needs no wait; on SQLite,
// one host, that is at start-up). A dead owner's running responses become `failed`, saying the
// server stopped, and its holds go back with a ledger row each; its lease row is then deleted.
// The one-hour hold sweep (billing.ts) stays as the backstop for holds without an owner.
import { hostname } from "node:os";
import type { Kysely } from "kysely";
import type { Db } from "./connect.ts";
import { nowIso } from "./clock.ts";
import { returnHold } from "./billing.ts";
import type { Database } from "./schema.ts";

const seconds = () => Math.floor(Date.now() / 1000);

// Keyed by the dialect adapter, as capabilities are: a transaction shares its database's adapter.
const owners = new WeakMap<object, string>();

/** The server process this database handle writes for (null outside a server: the CLI, a test's handle). */
export function ownerOf(db: Kysely<Database>): string | null {
  return owners.get(db.getExecutor().adapter) ?? null;
}

/** Registers this process as an owner, its lease running `leaseSeconds`; returns its id. */
export async function registerOwner(db: Db, leaseSeconds: number): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto("server_leases")
    .values({ id, host: hostname(), pid: process.pid, lease_until: seconds() + leaseSeconds, started_at: nowIso() })
    .execute();
  owners.set(db.getExecutor().adapter, id);
  return id;
}

/** Keeps the lease alive; a lease row swept meanwhile (a stall past the lease) is written again. */
export async function renewOwner(db: Db, id: string, leaseSeconds: number): Promise<void> {
  const until = seconds() + leaseSeconds;
  const r = await db.updateTable("server_leases").set({ lease_until: until }).where("id", "=", id).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) {
    await db.insertInto("server_leases").values({ id, host: hostname(), pid: process.pid, lease_until: until, started_at: nowIso() }).execute();
  }
}

/** Whether a process with this id runs on this machine (a process of another user counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The failed body of a response whose server stopped: its stored body, failed, saying why. */
function failedBody(body: string): string {
  const response = JSON.parse(body) as Record<string, unknown>;
  return JSON.stringify({
    ...response,
    status: "failed",
    error: { code: "server_error", message: "the server running this response stopped before it finished; nothing was charged" },
  });
}

/**
 * Ends what dead owners left: their running (not background: those have their own leases)
 * responses failed, their holds returned, their lease rows deleted. `self` is never dead.
 * Returns how many responses were failed and holds returned.
 */
export async function releaseDeadOwners(db: Db, self: string | null): Promise<{ owners: number; responses: number; holds: number }> {
  const now = seconds();
  const here = hostname();
  const leases = await db.selectFrom("server_leases").selectAll().execute();
  // A process id that runs is not proof of life (ids are reused, and servers in one test process
  // share one): only a lapsed lease is. One that no longer runs is proof of death.
  const dead = leases.filter((l) => l.id !== self && (l.lease_until < now || (l.host === here && !running(l.pid))));
  let responses = 0;
  let holds = 0;
  for (const owner of dead) {
    const done = await releaseOwner(db, owner.id, "its server stopped");
    responses += done.responses;
    holds += done.holds;
  }
  return { owners: dead.length, responses, holds };
}

/** Fails an owner's running responses, returns its holds and deletes its lease (a clean stop does this for itself). */
export async function releaseOwner(db: Db, id: string, why: string): Promise<{ responses: number; holds: number }> {
  let responses = 0;
  const rows = await db
    .selectFrom("responses")
    .select(["id", "body"])
    .where("worker", "=", id)
    .where("background", "=", 0)
    .where("status", "in", ["queued", "in_progress"])
    .execute();
  for (const row of rows) {
    const r = await db
      .updateTable("responses")
      .set({ status: "failed", body: failedBody(row.body), updated_at: seconds(), worker: null, lease_until: null })
      .where("id", "=", row.id)
      .where("status", "in", ["queued", "in_progress"])
      .executeTakeFirst();
    responses += Number(r.numUpdatedRows);
  }
  let holds = 0;
  for (const hold of await db.selectFrom("credit_holds").selectAll().where("owner", "=", id).orderBy("id").execute()) {
    if (await returnHold(db, hold, why)) holds++;
  }
  await db.deleteFrom("server_leases").where("id", "=", id).execute();
  return { responses, holds };
}

/**
 * Registers this process, releases what dead owners left (now: a restart after kill -9 returns
 * their holds at once), then renews the lease three times a period and looks for dead owners
 * once a period. The timers never keep the process alive. `stop` releases this process's own
 * leftovers (a clean stop) and deletes its lease.
 */
export async function startOwnerLease(db: Db, leaseSeconds: number, log: (line: string) => void): Promise<{ id: string; stop(): Promise<void> }> {
  const id = await registerOwner(db, leaseSeconds);
  const sweep = async () => {
    const r = await releaseDeadOwners(db, id);
    if (r.responses || r.holds)
      log(`released what ${r.owners} stopped server(s) left: ${r.responses} running response(s) failed, ${r.holds} credit hold(s) returned`);
  };
  await sweep();
  const renew = setInterval(
    () => void renewOwner(db, id, leaseSeconds).catch((e) => log(`server lease not renewed: ${(e as Error).message}`)),
    (leaseSeconds * 1000) / 3,
  );
  const look = setInterval(() => void sweep().catch((e) => log(`sweep of stopped servers failed: ${(e as Error).message}`)), leaseSeconds * 1000);
  renew.unref();
  look.unref();
  return {
    id,
    async stop() {
      clearInterval(renew);
      clearInterval(look);
      await releaseOwner(db, id, "the server stopped before the request ended");
    },
  };
}
