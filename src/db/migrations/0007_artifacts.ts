// Artifacts (slide decks and reports) and their versions. An artifact's id is the application's
// own (metadata.thesys.id), unique within its organization; `latest_version` is what a
// conditional UPDATE compares an edit's base version with, so two edits of one version never
// both become the next one unless they ask to fork.
import type { Kysely } from "kysely";
import { columns } from "./columns.ts";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columns(db);
  await db.schema
    .createTable("artifacts")
    .addColumn("seq", ...t.identity)
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id"))
    // The application's user (a frontend token's, or given with the API key); null: the organization's.
    .addColumn("user_id", "text")
    // "slides" or "report"
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("name", "text")
    .addColumn("conversation_id", "text")
    .addColumn("latest_version", "integer", (c) => c.notNull())
    .addColumn("created_at", t.bigint, (c) => c.notNull())
    .addColumn("updated_at", t.bigint, (c) => c.notNull())
    .addUniqueConstraint("artifacts_org_id", ["organization_id", "id"])
    .execute();

  await db.schema
    .createTable("artifact_versions")
    .addColumn("seq", ...t.bigIdentity)
    .addColumn("artifact_seq", "integer", (c) => c.notNull().references("artifacts.seq").onDelete("cascade"))
    .addColumn("version", "integer", (c) => c.notNull())
    // The version this one was made from (null: a first generation, or content written whole).
    .addColumn("base_version", "integer")
    // "generate", "edit" or "write"
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("created_at", t.bigint, (c) => c.notNull())
    .addUniqueConstraint("artifact_versions_version", ["artifact_seq", "version"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("artifact_versions").execute();
  await db.schema.dropTable("artifacts").execute();
}
