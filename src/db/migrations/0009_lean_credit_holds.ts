// credit_holds keeps only the holds of calls still running (a settled hold is deleted), so it stays
// as small as the calls in flight: its sweeps (by age once a minute, by a dead owner's id) read all
// of it at no cost, while the indexes on created_at and owner cost every hold and every settlement
// two more index pages in its commit. On SQLite a commit's cost and its tail grow with the pages it
// writes (measured in bun 1.4, WAL, a checkpoint every 100 ms beside: a hold's transaction p50
// 48 → 35 µs, its p99 0.5–2.7 ms → 0.2–0.5 ms). The request_id index stays: it keeps a hold unique.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("credit_holds_created").execute();
  await db.schema.dropIndex("credit_holds_owner").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("credit_holds_created").on("credit_holds").column("created_at").execute();
  await db.schema.createIndex("credit_holds_owner").on("credit_holds").column("owner").execute();
}
