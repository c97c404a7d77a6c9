// What outlives a process must name it, so that another one can tell when it is gone:
//   server_leases   one row per running server process, its lease renewed while it runs (and the
//                   host and pid it runs as, so that a restart on the same host knows at once)
//   credit_holds.owner   the process that took the hold: a dead owner's holds are returned
//   token_revocations    an operator's "every frontend token of this user minted before now is dead"
//   health_probes        /health's write probe (a row written and deleted in one transaction)
// Stored responses already have `worker` (their owner) and `lease_until` (0002).
import type { Kysely } from "kysely";
import { columns } from "./columns.ts";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columns(db);
  await db.schema
    .createTable("server_leases")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("host", "text", (c) => c.notNull())
    .addColumn("pid", "integer", (c) => c.notNull())
    .addColumn("lease_until", t.bigint, (c) => c.notNull())
    .addColumn("started_at", t.isoText, (c) => c.notNull())
    .execute();
  await db.schema.alterTable("credit_holds").addColumn("owner", "text").execute();
  await db.schema.createIndex("credit_holds_owner").on("credit_holds").column("owner").execute();
  // Running responses by owner: what is failed when the owner is gone.
  await db.schema.createIndex("responses_worker").on("responses").column("worker").execute();
  await db.schema
    .createTable("token_revocations")
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    .addColumn("user_id", "text", (c) => c.notNull())
    /** Unix seconds: tokens of this user issued before it are dead. */
    .addColumn("revoked_before", t.bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint("token_revocations_pk", ["organization_id", "user_id"])
    .execute();
  await db.schema
    .createTable("health_probes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("filler", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("health_probes").execute();
  await db.schema.dropTable("token_revocations").execute();
  await db.schema.dropIndex("responses_worker").execute();
  await db.schema.dropIndex("credit_holds_owner").execute();
  await db.schema.alterTable("credit_holds").dropColumn("owner").execute();
  await db.schema.dropTable("server_leases").execute();
}
