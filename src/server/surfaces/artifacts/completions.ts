// POST /v1/artifact/chat/completions: a slide deck or report generated, or edited by a patch the
// service merges, checked and repaired, stored as the next version of the artifact named by
// metadata.thesys, and answered as a chat completion (JSON or SSE) whose content is the whole
// program. An OpenAI client with base URL {base}/v1/artifact calls it unchanged.
// Order: key (401, app.ts) → body and metadata.thesys (400) → model and key for it (400) → the base
// of an edit (404/409) → credits (429) → model → merge → check and repair → store (409) → settle,
// on the one paid-call path (paid.ts): a call that fails is not charged.
import * as v from "valibot";
import type { Owner } from "../../../db/index.ts";
import type { ChatMessage } from "../../../providers/types.ts";
import type { PromptTurn } from "../../../repair/fix-prompt.ts";
import type { TokenUsage } from "../../../repair/model-fix.ts";
import { readArtifactMetadata, type ArtifactRequest } from "../../../artifacts/metadata.ts";
import type { ArtifactTask } from "../../../artifacts/produce.ts";
import { requireModel, requireScope } from "../../auth.ts";
import { readBody } from "../../body.ts";
import { holdWithTokenBudget } from "../../token-budget.ts";
import type { PaidContext, RequestContext } from "../../context.ts";
import { EmbedBody } from "../embed/request.ts";
import { errorBody, HttpError } from "../../errors.ts";
import type { CallEnd } from "../../paid.ts";
import { resolveProvider } from "../../provider-target.ts";
import { SSE_DONE, SSE_HEADERS, sseFrame } from "../../sse.ts";
import { artifactModel, planEdit, runArtifactJob, type JobOutcome } from "./job.ts";
import { artifactJson } from "./view.ts";

const ArtifactBody = v.object({
  ...v.pick(EmbedBody, [
    "model",
    "messages",
    "stream",
    "stream_options",
    "temperature",
    "top_p",
    "max_tokens",
    "max_completion_tokens",
    "seed",
    "user",
    "n",
    "byok",
  ]).entries,
  // Read by readArtifactMetadata, which names the field at fault.
  metadata: v.optional(v.unknown()),
});
type ArtifactBody = v.InferOutput<typeof ArtifactBody>;

function textOf(content: ChatMessage["content"] | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((p) => (p.type === "text" ? (p as { text: string }).text : "")).join("");
}

/** What the request asks for, with the artifact as it stands and the version an edit is made from. */
interface Plan {
  request: ArtifactRequest;
  task: ArtifactTask;
  instructions: string;
  /** The version the new one is made from: a number for an edit of a stored version, else "latest". */
  base: number | "latest";
}

async function plan(ctx: RequestContext<string>, owner: Owner, body: ArtifactBody, request: ArtifactRequest): Promise<Plan> {
  const messages = body.messages as ChatMessage[];
  const instructions = messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => textOf(m.content))
    .join("\n\n");
  if (!request.isEdit) {
    const turns: PromptTurn[] = messages
      .filter((m) => m.role === "user" || m.role === "assistant")
      .map((m) => ({ role: m.role as "user" | "assistant", content: textOf(m.content) }))
      .filter((t) => t.content.trim() !== "");
    if (!turns.some((t) => t.role === "user")) throw new HttpError(400, "messages must hold a user turn saying what to make", { param: "messages" });
    return { request, task: { kind: "generate", turns }, instructions, base: "latest" };
  }
  // An edit: the assistant turn is the current program, the last user turn the instruction.
  const lastUser = messages.findLastIndex((m) => m.role === "user");
  const instruction = lastUser < 0 ? "" : textOf(messages[lastUser]!.content).trim();
  if (!instruction) throw new HttpError(400, "an edit needs a user turn saying what to change", { param: "messages" });
  const assistant = messages.slice(0, lastUser).findLast((m) => m.role === "assistant");
  const sent = assistant ? textOf(assistant.content) : "";
  const edit = await planEdit(ctx.deps.db, owner, {
    id: request.id,
    sent,
    baseVersion: request.baseVersion,
    fork: request.fork,
    idParam: "metadata.thesys.id",
  });
  return { request, task: { kind: "edit", base: edit.program, instruction }, instructions, base: edit.base };
}

type Done = Extract<JobOutcome, { ok: true }>;

/** The sampling fields the artifact model is called with. */
function params(body: ArtifactBody): Record<string, unknown> {
  return { temperature: body.temperature, top_p: body.top_p, max_tokens: body.max_tokens, max_completion_tokens: body.max_completion_tokens, seed: body.seed };
}

export async function artifactChatCompletions(ctx: PaidContext<string, "key or token">): Promise<Response> {
  const { deps, call } = ctx;
  requireScope(ctx.principal, "artifacts:write");
  const body = await readBody(ctx.req, ArtifactBody);
  call.input = body.messages;
  call.model = body.model;
  const meta = readArtifactMetadata(body.metadata);
  if (!meta.ok) throw new HttpError(400, meta.message, { param: meta.param });
  requireModel(ctx.principal, body.model);
  const provider = await resolveProvider(deps, ctx.org.id, body.model, body.byok);
  // A token's artifacts are its user's; the API key's the organization's.
  const owner: Owner = ctx.principal.kind === "token" ? { organizationId: ctx.org.id, userId: ctx.principal.userId } : { organizationId: ctx.org.id };
  const p = await plan(ctx, owner, body, meta.request);
  await holdWithTokenBudget(ctx.principal, call);
  const end = (e: Omit<CallEnd, "tokens"> & { usage?: TokenUsage | null }) =>
    call.finish({ ...e, tokens: e.usage ? { input: e.usage.prompt_tokens, output: e.usage.completion_tokens } : null });

  // A client that hangs up stops the model: nothing is stored or charged (unless the version was
  // stored already: a stored version is a charged one).
  const gone = new AbortController();
  const signal = AbortSignal.any([ctx.req.signal, gone.signal]);
  // The work, from the model call to the stored version; it ends the call whatever happens.
  const work = async (onText?: (text: string) => void): Promise<Done> => {
    const outcome = await runArtifactJob(deps.db, {
      owner,
      id: p.request.id,
      kind: p.request.kind,
      task: p.task,
      instructions: p.instructions,
      base: p.base,
      fork: p.request.fork,
      userId: body.user ?? null,
      complete: artifactModel(provider, body.model, params(body), signal),
      fixer: deps.fixingModel,
      kindParam: "metadata.thesys.c1_artifact_type",
      onText,
    });
    if (!outcome.ok) {
      const cancelled = signal.aborted;
      await end({
        charged: false,
        status: cancelled ? 499 : outcome.error.status,
        outcome: cancelled ? "cancelled" : outcome.outcome,
        usage: outcome.usage,
        event: outcome.fixFailed ? { outcome: "fix_failed", corrected: [] } : null,
      });
      throw cancelled ? new HttpError(499, "the client closed the request", { code: "client_closed_request" }) : outcome.error;
    }
    const { produced } = outcome;
    await end({ charged: true, status: 200, outcome: "ok", usage: produced.usage, event: { outcome: produced.outcome, corrected: produced.corrected } });
    return outcome;
  };

  const id = `chatcmpl-${crypto.randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  if (body.stream) return streamed(ctx, work, gone, { id, created, model: body.model, includeUsage: body.stream_options?.include_usage === true });
  const done = await work();
  return Response.json({
    id,
    object: "chat.completion",
    created,
    model: body.model,
    choices: [{ index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", content: done.produced.program, refusal: null } }],
    usage: done.produced.usage,
    artifact: artifactSummary(done),
  });
}

function artifactSummary(done: Done) {
  const { artifact, version, produced } = done;
  return {
    ...artifactJson(artifact, { version }),
    outcome: produced.outcome,
    ...(produced.merge
      ? { merge: { replaced: produced.merge.replaced, added: produced.merge.added, deleted: produced.merge.deleted, removed: produced.merge.collected } }
      : {}),
  };
}

/**
 * The SSE answer, live: the role chunk at once, then the program as the model writes it, each line
 * repaired as it ends (an edit: the program being edited, then the patch's statements; a later
 * statement replaces an earlier one of the same name), then, once the version is checked and
 * stored, the statements that make the text read as the stored program, and the finish chunk
 * carrying the artifact (its version and the stored program itself), the usage chunk when asked
 * for, and [DONE]. A failure ends the stream with an error event and no [DONE]: nothing was stored.
 * A hang-up stops the model (nothing stored or charged).
 */
function streamed(
  ctx: PaidContext<string, "key or token">,
  work: (onText: (text: string) => void) => Promise<Done>,
  gone: AbortController,
  o: { id: string; created: number; model: string; includeUsage: boolean },
): Response {
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
    sseFrame(
      null,
      JSON.stringify({
        id: o.id,
        object: "chat.completion.chunk",
        created: o.created,
        model: o.model,
        choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
        ...extra,
      }),
    );
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(ctrl) {
      const send = (frame: Uint8Array) => {
        if (open) ctrl.enqueue(frame);
      };
      send(chunk({ role: "assistant", content: "" }, null));
      const running = work((text) => send(chunk({ content: text }, null))).then(
        (done) => {
          send(chunk({}, "stop", { artifact: { ...artifactSummary(done), content: done.produced.program } }));
          if (o.includeUsage) {
            send(
              sseFrame(
                null,
                JSON.stringify({ id: o.id, object: "chat.completion.chunk", created: o.created, model: o.model, choices: [], usage: done.produced.usage }),
              ),
            );
          }
          send(SSE_DONE);
        },
        async (e) => {
          await ctx.call.fail(e);
          const err = e instanceof HttpError ? e : new HttpError(500, "internal error");
          send(sseFrame(null, JSON.stringify(errorBody(err.status, err.message, err.opts))));
        },
      );
      // The work ends the call itself, even when the client has gone; a stopping server waits for it.
      ctx.deps.background.track(
        running.finally(() => {
          if (!open) return;
          open = false;
          ctrl.close();
        }),
      );
    },
    cancel() {
      open = false;
      gone.abort();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}
