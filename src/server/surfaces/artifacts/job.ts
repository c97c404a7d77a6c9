// One artifact generation or edit, from the model call to the stored version: what Artifact Chat
// Completions runs for a request, and what an artifact tool call of a Responses turn runs. The
// caller settles the paid call from the outcome.
import {
  findArtifact,
  findArtifactVersion,
  findArtifactVersionByContent,
  saveArtifactVersion,
  type ArtifactRow,
  type Db,
  type Owner,
} from "../../../db/index.ts";
import { frame } from "../../../lang/index.ts";
import { complete, openStream } from "../../../providers/call.ts";
import { ProviderError, type ChatRequest } from "../../../providers/types.ts";
import type { CompleteFn, Completion, TokenUsage } from "../../../repair/model-fix.ts";
import type { PromptTurn } from "../../../repair/fix-prompt.ts";
import { artifactLibrary, type ArtifactKind } from "../../../artifacts/kinds.ts";
import { liveArtifact } from "../../../artifacts/live.ts";
import { produceArtifact, type ArtifactTask, type Produced } from "../../../artifacts/produce.ts";
import { programTitle } from "../../../artifacts/title.ts";
import { HttpError } from "../../errors.ts";
import { PROVIDER_DEADLINE_MS, providerHttpError, type ProviderCall } from "../../provider-target.ts";
import { saveRefusal } from "./view.ts";

export interface ArtifactJob {
  owner: Owner;
  id: string;
  kind: ArtifactKind;
  task: ArtifactTask;
  /** The application's own instructions, shown after the library's. */
  instructions: string;
  /** The version the new one is made from (see planEdit), or "latest". */
  base: number | "latest";
  fork: boolean;
  /** For an artifact this job creates: its user and conversation. */
  userId?: string | null;
  conversationId?: string | null;
  complete: ArtifactModel;
  fixer: CompleteFn | null;
  /** The field that named the kind, for a kind mismatch's 400. */
  kindParam: string | null;
  /**
   * Shown live: the program as the model writes it, repaired as it goes (src/artifacts/live.ts),
   * and, once the version is stored, what makes everything shown read as the stored program.
   */
  onText?: (text: string) => void;
}

/** The artifact model: a whole answer, or, given `onText`, one streamed, its text passed on as it arrives. */
export type ArtifactModel = (messages: PromptTurn[], onText?: (delta: string) => void) => Promise<Completion>;

export type JobOutcome =
  | { ok: true; produced: Extract<Produced, { ok: true }>; artifact: ArtifactRow; version: number }
  | { ok: false; error: HttpError; outcome: string; usage: TokenUsage | null; fixFailed: boolean };

/**
 * Where an edit starts: the version it is made from — the one named, else the stored version
 * whose program was sent, else (a program the application changed itself) the latest — and the
 * program the patch is merged into (the one sent, else that version's). Throws the 404 when there
 * is nothing to edit, and the 409 when that version is no longer the latest and no fork is asked.
 */
export async function planEdit(
  db: Db,
  owner: Owner,
  e: { id: string; sent: string; baseVersion: number | null; fork: boolean; idParam: string },
): Promise<{ base: number | "latest"; program: string }> {
  const sent = e.sent ? frame(e.sent).program.trim() : "";
  const row = await findArtifact(db, owner, e.id);
  if (!row) {
    if (!sent) throw new HttpError(404, `no artifact ${e.id}, and no program to edit`, { code: "artifact_not_found", param: e.idParam });
    return { base: "latest", program: sent };
  }
  const base = e.baseVersion ?? (sent ? ((await findArtifactVersionByContent(db, row, sent)) ?? row.latest_version) : row.latest_version);
  if (base > row.latest_version) throw saveRefusal({ ok: false, reason: "no_version", latest: row.latest_version }, e.id, null);
  if (base !== row.latest_version && !e.fork) throw saveRefusal({ ok: false, reason: "conflict", latest: row.latest_version }, e.id, null);
  return { base, program: sent || (await findArtifactVersion(db, row, base))!.content };
}

const NO_USAGE: TokenUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/** The artifact model: the request's model through its provider; `signal` aborts it (a client gone). */
export function artifactModel(provider: ProviderCall, model: string, params: Record<string, unknown> = {}, signal?: AbortSignal): ArtifactModel {
  const noProgram = () => new ProviderError(`${provider.provider} answered without a program`, 502, null);
  return async (messages, onText) => {
    const req: Record<string, unknown> = { ...params, model, messages };
    for (const k of Object.keys(req)) if (req[k] === null || req[k] === undefined) delete req[k];
    const deadline = AbortSignal.timeout(PROVIDER_DEADLINE_MS);
    const until = signal ? AbortSignal.any([signal, deadline]) : deadline;
    if (!onText) {
      const answer = await complete(provider.adapter, req as unknown as ChatRequest, provider.target, until);
      const content = answer.choices[0]?.message.content;
      if (typeof content !== "string" || content.trim() === "") throw noProgram();
      return { content, usage: answer.usage ?? NO_USAGE };
    }
    const streamed = { ...req, stream: true, stream_options: { include_usage: true } } as unknown as ChatRequest;
    const chunks = await openStream(
      provider.adapter,
      streamed,
      provider.target,
      { id: `chatcmpl-${crypto.randomUUID()}`, created: Math.floor(Date.now() / 1000) },
      until,
    );
    let content = "";
    let usage: TokenUsage | null = null;
    for await (const chunk of chunks) {
      if (chunk.usage) usage = chunk.usage;
      const text = chunk.choices?.[0]?.delta?.content;
      if (typeof text === "string" && text !== "") {
        content += text;
        onText(text);
      }
    }
    if (content.trim() === "") throw noProgram();
    return { content, usage: usage ?? NO_USAGE };
  };
}

export async function runArtifactJob(db: Db, job: ArtifactJob): Promise<JobOutcome> {
  const lib = artifactLibrary(job.kind);
  const { onText } = job;
  const live = onText ? liveArtifact(lib, job.task.kind === "edit" ? frame(job.task.base).program : null) : null;
  const show = (text: string) => {
    if (text) onText!(text);
  };
  if (live) show(live.start());
  let produced: Produced;
  try {
    produced = await produceArtifact({
      lib,
      task: job.task,
      instructions: job.instructions,
      complete: live ? (messages) => job.complete(messages, (delta) => show(live.push(delta))) : (messages) => job.complete(messages),
      fixer: job.fixer,
    });
  } catch (e) {
    const error =
      providerHttpError(e) ?? new HttpError(502, "the fixing model could not be reached; nothing was stored or charged", { code: "fixing_model_unavailable" });
    return { ok: false, error, outcome: e instanceof ProviderError ? "upstream_error" : "error", usage: null, fixFailed: false };
  }
  if (!produced.ok) {
    const detail = produced.errors.length
      ? `: ${produced.errors
          .slice(0, 5)
          .map((e) => e.message)
          .join("; ")}`
      : "";
    const error = new HttpError(502, `${produced.message}${detail}; nothing was stored or charged`, {
      code: produced.reason === "too_large" ? "artifact_too_large" : "artifact_invalid",
    });
    return { ok: false, error, outcome: "fix_failed", usage: produced.usage, fixFailed: true };
  }
  const saved = await saveArtifactVersion(db, job.owner, {
    id: job.id,
    kind: job.kind,
    name: programTitle(produced.program),
    content: produced.program,
    source: job.task.kind === "edit" ? "edit" : "generate",
    base: job.base,
    fork: job.fork,
    userId: job.userId ?? null,
    conversationId: job.conversationId ?? null,
  });
  if (!saved.ok) return { ok: false, error: saveRefusal(saved, job.id, job.kindParam), outcome: "rejected", usage: produced.usage, fixFailed: false };
  if (live) show(live.finish(produced.program));
  return { ok: true, produced, artifact: saved.artifact, version: saved.version };
}
