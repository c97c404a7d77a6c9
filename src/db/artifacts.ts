// Artifacts and their versions. Every generation, edit or written content is a new version; an
// edit names the version it was made from, and becomes the next version only while that one is
// still the latest (one conditional UPDATE: of two concurrent edits of one version exactly one
// wins, on SQLite and PostgreSQL alike) unless it asks to fork, when it is stored as the next
// version whatever came in between (its base_version says what it was made from).
import { sql, type Selectable } from "kysely";
import type { Db } from "./connect.ts";
import { readPage, type Page } from "./page.ts";
import type { ArtifactsTable, ArtifactVersionsTable } from "./schema.ts";
import type { Owner } from "./conversations.ts";

export type ArtifactRow = Selectable<ArtifactsTable>;
export type ArtifactVersionRow = Selectable<ArtifactVersionsTable>;
export type ArtifactVersionSummary = Omit<ArtifactVersionRow, "content" | "seq" | "artifact_seq">;

const seconds = () => Math.floor(Date.now() / 1000);

/** The artifact `id` as the owner may see it: the organization's, and for a user only theirs. */
export async function findArtifact(db: Db, owner: Owner, id: string): Promise<ArtifactRow | undefined> {
  let q = db.selectFrom("artifacts").selectAll().where("organization_id", "=", owner.organizationId).where("id", "=", id);
  if (owner.userId != null) q = q.where("user_id", "=", owner.userId);
  return q.executeTakeFirst();
}

/** One version of an artifact (the latest when `version` is not given). */
export async function findArtifactVersion(db: Db, row: ArtifactRow, version?: number): Promise<ArtifactVersionRow | undefined> {
  return db
    .selectFrom("artifact_versions")
    .selectAll()
    .where("artifact_seq", "=", row.seq)
    .where("version", "=", version ?? row.latest_version)
    .executeTakeFirst();
}

/** The newest version whose program is exactly `content`, if any. */
export async function findArtifactVersionByContent(db: Db, row: ArtifactRow, content: string): Promise<number | undefined> {
  const found = await db
    .selectFrom("artifact_versions")
    .select("version")
    .where("artifact_seq", "=", row.seq)
    .where("content", "=", content)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  return found?.version;
}

/** Every version, oldest first, without their content. */
export async function listArtifactVersions(db: Db, row: ArtifactRow): Promise<ArtifactVersionSummary[]> {
  return db
    .selectFrom("artifact_versions")
    .select(["version", "base_version", "source", "created_at"])
    .where("artifact_seq", "=", row.seq)
    .orderBy("version")
    .execute();
}

export interface ArtifactQuery {
  /** Part of the name, any case. */
  name?: string;
  kinds?: string[];
  after?: string;
  limit: number;
}

/** The owner's artifacts, newest first; null when `after` names none of them. */
export async function listArtifacts(db: Db, owner: Owner, q: ArtifactQuery): Promise<Page<ArtifactRow> | null> {
  let query = db.selectFrom("artifacts").selectAll().where("organization_id", "=", owner.organizationId);
  if (owner.userId != null) query = query.where("user_id", "=", owner.userId);
  if (q.kinds?.length) query = query.where("kind", "in", q.kinds);
  if (q.name) {
    const pattern = `%${q.name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<boolean>`lower(${sql.ref("name")}) like ${pattern} escape '\\'`);
  }
  return readPage(query, { ...q, order: "desc" }, (id) => findArtifact(db, owner, id));
}

export async function deleteArtifact(db: Db, owner: Owner, id: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const row = await findArtifact(tx, owner, id);
    if (!row) return false;
    await tx.deleteFrom("artifact_versions").where("artifact_seq", "=", row.seq).execute();
    await tx.deleteFrom("artifacts").where("seq", "=", row.seq).execute();
    return true;
  });
}

export interface NewVersion {
  id: string;
  kind: string;
  /** The deck's or report's title, when the program has one. */
  name: string | null;
  content: string;
  source: "generate" | "edit" | "write";
  /**
   * What the version was made from: a version number (an edit: 409 unless it is still the
   * latest, or `fork`), or "latest" (a new generation or content written whole: on top of
   * whatever is latest, no conflict possible).
   */
  base: number | "latest";
  fork?: boolean;
  /** The user the artifact belongs to when this version creates it. */
  userId?: string | null;
  conversationId?: string | null;
}

export type SaveOutcome =
  | { ok: true; artifact: ArtifactRow; version: number }
  /** The base is no longer the latest version (and no fork was asked for). */
  | { ok: false; reason: "conflict"; latest: number }
  /** The artifact exists with the other kind. */
  | { ok: false; reason: "kind"; kind: string }
  /** The base version does not exist. */
  | { ok: false; reason: "no_version"; latest: number }
  /** The id is taken by an artifact the owner cannot see (another user's). */
  | { ok: false; reason: "taken" };

/** Stores a version: creates the artifact with version 1, or adds the next version. */
export async function saveArtifactVersion(db: Db, owner: Owner, v: NewVersion): Promise<SaveOutcome> {
  return db.transaction().execute(async (tx) => {
    const now = seconds();
    let row = await tx.selectFrom("artifacts").selectAll().where("organization_id", "=", owner.organizationId).where("id", "=", v.id).executeTakeFirst();
    if (!row) {
      // Concurrent first versions of one id: the unique key lets one insert; the other adds to it.
      row = await tx
        .insertInto("artifacts")
        .values({
          id: v.id,
          organization_id: owner.organizationId,
          user_id: owner.userId ?? v.userId ?? null,
          kind: v.kind,
          name: v.name,
          conversation_id: v.conversationId ?? null,
          latest_version: 1,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(["organization_id", "id"]).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (row) {
        if (typeof v.base === "number") return { ok: false, reason: "no_version", latest: 0 };
        await tx
          .insertInto("artifact_versions")
          .values({ artifact_seq: row.seq, version: 1, base_version: null, source: v.source, content: v.content, created_at: now })
          .execute();
        return { ok: true, artifact: row, version: 1 };
      }
      row = await tx.selectFrom("artifacts").selectAll().where("organization_id", "=", owner.organizationId).where("id", "=", v.id).executeTakeFirstOrThrow();
    }
    if (owner.userId != null && row.user_id !== owner.userId) return { ok: false, reason: "taken" };
    if (row.kind !== v.kind) return { ok: false, reason: "kind", kind: row.kind };
    if (typeof v.base === "number" && (v.base < 1 || v.base > row.latest_version)) return { ok: false, reason: "no_version", latest: row.latest_version };
    let update = tx
      .updateTable("artifacts")
      .set((eb) => ({ latest_version: eb("latest_version", "+", 1), updated_at: now, ...(v.name !== null ? { name: v.name } : {}) }))
      .where("seq", "=", row.seq);
    // The compare and the increment are one statement: a concurrent edit of the same base waits
    // for this row's lock (PostgreSQL) or the write lock (SQLite), then finds the number moved on.
    if (typeof v.base === "number" && !v.fork) update = update.where("latest_version", "=", v.base);
    const bumped = await update.returningAll().executeTakeFirst();
    if (!bumped) {
      const latest = await tx.selectFrom("artifacts").select("latest_version").where("seq", "=", row.seq).executeTakeFirstOrThrow();
      return { ok: false, reason: "conflict", latest: latest.latest_version };
    }
    const base = typeof v.base === "number" ? v.base : bumped.latest_version - 1;
    await tx
      .insertInto("artifact_versions")
      .values({ artifact_seq: row.seq, version: bumped.latest_version, base_version: base, source: v.source, content: v.content, created_at: now })
      .execute();
    return { ok: true, artifact: bumped, version: bumped.latest_version };
  });
}
