// The stored artifacts under /v1/artifacts, as the @openuidev/thesys front end calls them: list,
// retrieve (latest or ?version=), write content (a new version, checked and repaired like any
// generation), the version list, delete. The API key reaches its organization's artifacts; a
// frontend token only its user's (any other id is a 404), and needs artifacts:read / :write.
import * as v from "valibot";
import {
  deleteArtifact,
  findArtifact,
  findArtifactVersion,
  listArtifacts,
  listArtifactVersions,
  saveArtifactVersion,
  type Db,
  type Owner,
} from "../../../db/index.ts";
import { ARTIFACT_KINDS, artifactLibrary, isArtifactKind, type ArtifactKind } from "../../../artifacts/kinds.ts";
import { ARTIFACT_ID } from "../../../artifacts/metadata.ts";
import { checkArtifact, MAX_ARTIFACT_CHARS } from "../../../artifacts/produce.ts";
import { programTitle } from "../../../artifacts/title.ts";
import { frame } from "../../../lang/index.ts";
import { requireScope } from "../../auth.ts";
import { readBody } from "../../body.ts";
import type { AuthedContext } from "../../context.ts";
import { HttpError } from "../../errors.ts";
import { artifactJson, saveRefusal } from "./view.ts";

const MAX_LIMIT = 100;

type Ctx = AuthedContext<string, "key or token">;
type IdCtx = AuthedContext<"/v1/artifacts/:id", "key or token">;

function access(ctx: Ctx, scope: "artifacts:read" | "artifacts:write"): { db: Db; owner: Owner } {
  const { principal } = ctx;
  // A token carries the artifact scopes only where tokens can be minted with them.
  requireScope(principal, scope);
  const owner: Owner = principal.kind === "token" ? { organizationId: principal.org.id, userId: principal.userId } : { organizationId: principal.org.id };
  return { db: ctx.deps.db, owner };
}

function notFound(id: string): HttpError {
  return new HttpError(404, `no artifact ${id}`, { code: "artifact_not_found" });
}

function positive(value: string | null, param: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === null) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new HttpError(400, `${param} must be a whole number from 1 to ${max}`, { param });
  return n;
}

export async function list(ctx: Ctx): Promise<Response> {
  const { db, owner } = access(ctx, "artifacts:read");
  const q = ctx.url.searchParams;
  const kinds = q
    .getAll("kind")
    .flatMap((k) => k.split(","))
    .map((k) => k.trim())
    .filter(Boolean);
  // The thesys front end names decks "presentation" in places: the same kind.
  const wanted = kinds.map((k) => (k === "presentation" ? "slides" : k));
  const bad = wanted.find((k) => !isArtifactKind(k));
  if (bad !== undefined) throw new HttpError(400, `kind must be ${ARTIFACT_KINDS.join(" or ")}, got ${JSON.stringify(bad)}`, { param: "kind" });
  const limit = positive(q.get("limit"), "limit", MAX_LIMIT) ?? 20;
  const page = await listArtifacts(db, owner, { name: q.get("name")?.trim() || undefined, kinds: wanted, after: q.get("after") || undefined, limit });
  if (!page) throw new HttpError(400, `after names no artifact of yours: ${q.get("after")}`, { param: "after" });
  const data = page.rows.map((row) => artifactJson(row));
  return Response.json({ object: "list", data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.hasMore });
}

export async function retrieve(ctx: IdCtx): Promise<Response> {
  const { db, owner } = access(ctx, "artifacts:read");
  const row = await findArtifact(db, owner, ctx.params.id);
  if (!row) throw notFound(ctx.params.id);
  const version = positive(ctx.url.searchParams.get("version"), "version");
  const found = await findArtifactVersion(db, row, version);
  if (!found) throw saveRefusal({ ok: false, reason: "no_version", latest: row.latest_version }, row.id, null);
  return Response.json(artifactJson(row, { version: found.version, content: found.content }));
}

export async function versions(ctx: IdCtx): Promise<Response> {
  const { db, owner } = access(ctx, "artifacts:read");
  const row = await findArtifact(db, owner, ctx.params.id);
  if (!row) throw notFound(ctx.params.id);
  const data = (await listArtifactVersions(db, row)).map((r) => ({ object: "artifact.version", ...r }));
  return Response.json({ object: "list", data, first_id: null, last_id: null, has_more: false });
}

export async function remove(ctx: IdCtx): Promise<Response> {
  const { db, owner } = access(ctx, "artifacts:write");
  if (!(await deleteArtifact(db, owner, ctx.params.id))) throw notFound(ctx.params.id);
  return Response.json({ id: ctx.params.id, object: "artifact.deleted", deleted: true });
}

const WriteBody = v.object({
  // The thesys front end JSON-stringifies objects it writes (an envelope {artifact_id, type, content}).
  content: v.pipe(
    v.union([v.string(), v.record(v.string(), v.unknown())], "content must be a program (a string)"),
    v.transform((c) => (typeof c === "string" ? c : JSON.stringify(c))),
  ),
  /** The version this content was made from: 409 unless it is the latest (or `fork`). */
  base_version: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  fork: v.optional(v.nullable(v.boolean())),
  /** The kind, for an artifact this write creates. */
  kind: v.optional(v.nullable(v.string())),
});

/** The program in written content: a bare or fenced program, or an envelope holding one. */
function programOf(content: string): string {
  const trimmed = content.trim();
  if (trimmed.startsWith("{")) {
    try {
      const env = JSON.parse(trimmed) as Record<string, unknown>;
      const inner = env.content ?? env.artifact_content;
      if (typeof inner === "string") return frame(inner).program.trim();
    } catch {
      // Not JSON: read as a program (the check says what is wrong with it).
    }
  }
  return frame(trimmed).program.trim();
}

export async function write(ctx: IdCtx): Promise<Response> {
  const { db, owner } = access(ctx, "artifacts:write");
  const id = ctx.params.id;
  const body = await readBody(ctx.req, WriteBody);
  const row = await findArtifact(db, owner, id);
  let kind: ArtifactKind;
  if (row) kind = row.kind as ArtifactKind;
  else {
    if (!ARTIFACT_ID.test(id)) throw new HttpError(400, "an artifact id is 1-128 letters, digits, `.`, `_`, `:` or `-`", { param: "id" });
    if (!isArtifactKind(body.kind))
      throw new HttpError(404, `no artifact ${id}: to create it, give its kind ("slides" or "report")`, { code: "artifact_not_found", param: "kind" });
    kind = body.kind;
  }
  const program = programOf(body.content);
  if (program === "") throw new HttpError(400, "content holds no program", { param: "content" });
  if (program.length > MAX_ARTIFACT_CHARS)
    throw new HttpError(400, `content is ${program.length} characters, over the limit of ${MAX_ARTIFACT_CHARS}`, { param: "content" });
  // Checked like a generation; repaired by the sanitizer only (no model is paid for a write).
  const checked = await checkArtifact(artifactLibrary(kind), program, { context: [], instructions: "", fixer: null });
  if (!checked.ok) {
    throw new HttpError(
      400,
      `content is not a valid ${kind === "slides" ? "slide deck" : "report"}: ${checked.errors
        .slice(0, 5)
        .map((e) => e.message)
        .join("; ")}`,
      { param: "content", code: "artifact_invalid" },
    );
  }
  const saved = await saveArtifactVersion(db, owner, {
    id,
    kind,
    name: programTitle(checked.program),
    content: checked.program,
    source: "write",
    base: body.base_version ?? "latest",
    fork: body.fork === true,
  });
  if (!saved.ok) throw saveRefusal(saved, id, "kind");
  return Response.json({ ...artifactJson(saved.artifact, { version: saved.version, content: checked.program }), outcome: checked.outcome });
}
