// `metadata.thesys` of an Artifact Chat Completions request: a JSON string
// {"id", "c1_artifact_type": "slides" | "report", "is_edit"?}, plus Tessera's own optional
// `base_version` (the version an edit was made from) and `fork` (keep the edit even when that
// version is no longer the latest). Every problem names the field to fix.
import { isArtifactKind, type ArtifactKind } from "./kinds.ts";

export interface ArtifactRequest {
  id: string;
  kind: ArtifactKind;
  isEdit: boolean;
  baseVersion: number | null;
  fork: boolean;
}

export type MetadataCheck = { ok: true; request: ArtifactRequest } | { ok: false; param: string; message: string };

/** Artifact ids: what a URL path segment and the stored-artifact routes can carry. */
export const ARTIFACT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

const fail = (param: string, message: string): MetadataCheck => ({ ok: false, param, message });

export function readArtifactMetadata(metadata: unknown): MetadataCheck {
  if (metadata === undefined || metadata === null)
    return fail("metadata.thesys", 'metadata.thesys is required: a JSON string {"id", "c1_artifact_type": "slides" | "report", "is_edit"?}');
  if (typeof metadata !== "object" || Array.isArray(metadata)) return fail("metadata", "metadata must be an object of strings");
  const raw = (metadata as Record<string, unknown>).thesys;
  if (raw === undefined || raw === null)
    return fail("metadata.thesys", 'metadata.thesys is required: a JSON string {"id", "c1_artifact_type": "slides" | "report", "is_edit"?}');
  if (typeof raw !== "string") return fail("metadata.thesys", "metadata.thesys must be a string holding JSON (metadata values are strings)");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fail("metadata.thesys", "metadata.thesys is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return fail("metadata.thesys", "metadata.thesys must be a JSON object");
  const t = parsed as Record<string, unknown>;
  if (t.id === undefined || t.id === null || t.id === "") return fail("metadata.thesys.id", "metadata.thesys.id is required: the artifact's id");
  if (typeof t.id !== "string" || !ARTIFACT_ID.test(t.id)) {
    return fail("metadata.thesys.id", "metadata.thesys.id must be 1-128 letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit");
  }
  if (t.c1_artifact_type === undefined || t.c1_artifact_type === null)
    return fail("metadata.thesys.c1_artifact_type", 'metadata.thesys.c1_artifact_type is required: "slides" or "report"');
  if (!isArtifactKind(t.c1_artifact_type)) {
    return fail("metadata.thesys.c1_artifact_type", `metadata.thesys.c1_artifact_type must be "slides" or "report", got ${JSON.stringify(t.c1_artifact_type)}`);
  }
  if (t.is_edit !== undefined && t.is_edit !== null && typeof t.is_edit !== "boolean")
    return fail("metadata.thesys.is_edit", "metadata.thesys.is_edit must be true or false");
  const base = t.base_version;
  if (base !== undefined && base !== null && !(typeof base === "number" && Number.isSafeInteger(base) && base >= 1)) {
    return fail("metadata.thesys.base_version", "metadata.thesys.base_version must be a whole number >= 1");
  }
  if (t.fork !== undefined && t.fork !== null && typeof t.fork !== "boolean") return fail("metadata.thesys.fork", "metadata.thesys.fork must be true or false");
  return {
    ok: true,
    request: { id: t.id, kind: t.c1_artifact_type, isEdit: t.is_edit === true, baseVersion: typeof base === "number" ? base : null, fork: t.fork === true },
  };
}
