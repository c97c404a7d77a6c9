// What the artifact routes answer with, and the HTTP answer of each way storing a version fails.
import type { ArtifactRow, SaveOutcome } from "../../../db/index.ts";
import { HttpError } from "../../errors.ts";

/** An artifact as the routes show it (times in epoch seconds, as @openuidev/thesys reads them). */
export function artifactJson(row: ArtifactRow, extra: { content?: string; version?: number } = {}) {
  return {
    id: row.id,
    object: "artifact",
    name: row.name,
    kind: row.kind,
    conversation_id: row.conversation_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: extra.version ?? row.latest_version,
    latest_version: row.latest_version,
    ...(extra.content !== undefined ? { content: extra.content } : {}),
  };
}

/** The HttpError for a version that could not be stored; `kindParam`: the field that named the kind. */
export function saveRefusal(outcome: Exclude<SaveOutcome, { ok: true }>, id: string, kindParam: string | null): HttpError {
  switch (outcome.reason) {
    case "conflict":
      return new HttpError(
        409,
        `artifact ${id} has moved on to version ${outcome.latest} since the version this edit was made from: edit the latest version, or set fork to keep this edit as a new version anyway`,
        {
          code: "artifact_conflict",
          headers: { "x-should-retry": "false" },
        },
      );
    case "kind":
      return new HttpError(400, `artifact ${id} is a ${outcome.kind === "slides" ? "slide deck" : "report"} (${outcome.kind}): its kind cannot change`, {
        param: kindParam,
        code: "artifact_kind_mismatch",
      });
    case "no_version":
      return new HttpError(
        404,
        outcome.latest === 0 ? `artifact ${id} has no versions yet` : `artifact ${id} has no such version: its versions are 1 to ${outcome.latest}`,
        { code: "version_not_found" },
      );
    case "taken":
      return new HttpError(409, `the id ${id} is taken by another user's artifact`, { code: "artifact_id_taken" });
  }
}
