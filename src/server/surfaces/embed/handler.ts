// POST /v1/embed/chat/completions: spec 2.4 and 4.2. Any provider's models behind the chat
// completions wire, plain (passthrough) or with managed generative UI, with the server's or the
// request's own provider key.
// Order: key or token (401, app.ts; a token needs chat:create, 403) → body (413/400) → model (a token's
// list, 403) and key for it (400) → credits (the token's budget, then the organization's: 429) → provider → settle.
import { complete, openStream } from "../../../providers/call.ts";
import { ProviderError, UnsupportedRequestError, type ChatRequest } from "../../../providers/types.ts";
import { readBody } from "../../body.ts";
import type { PaidContext } from "../../context.ts";
import { HttpError } from "../../errors.ts";
import { requireModel, requireScope } from "../../auth.ts";
import { checkAndRepair } from "../../managed/check.ts";
import { repairedChunks } from "../../../repair/stream-chunks.ts";
import { holdWithTokenBudget } from "../../token-budget.ts";
import { detectMode, type Mode } from "../../managed/mode.ts";
import type { CallEnd } from "../../paid.ts";
import { PROVIDER_DEADLINE_MS, providerHttpError, resolveProvider } from "../../provider-target.ts";
import { EmbedBody } from "./request.ts";
import { sseResponse } from "./sse-response.ts";

export async function embedChatCompletions(ctx: PaidContext<string, "key or token">): Promise<Response> {
  const { deps, call } = ctx;
  requireScope(ctx.principal, "chat:create");
  const body = await readBody(ctx.req, EmbedBody);
  call.input = body.messages;
  call.model = body.model;
  requireModel(ctx.principal, body.model);
  const { adapter, target } = await resolveProvider(deps, ctx.org.id, body.model, body.byok);

  const mode = await detectMode(body.messages as ChatRequest["messages"]);
  const req = toChatRequest(body, mode);
  await holdWithTokenBudget(ctx.principal, call);

  if (body.stream) {
    let chunks;
    try {
      chunks = await openStream(adapter, req, target, { id: `chatcmpl-${crypto.randomUUID()}`, created: Math.floor(Date.now() / 1000) }, untilGone(ctx));
    } catch (e) {
      throw await failed(ctx, e);
    }
    // Managed UI: each line goes out repaired as it ends (src/repair/stream-chunks.ts).
    const repaired = mode.kind === "managed" ? repairedChunks(chunks, mode.library) : null;
    return sseResponse(repaired?.chunks ?? chunks, {
      includeUsage: body.stream_options?.include_usage === true,
      onEnd: async (end) => {
        const ok = !end.error && !end.cancelled;
        const outcome = end.error ? "upstream_error" : end.cancelled ? "cancelled" : "ok";
        const result = ok ? repaired?.result() : null;
        const event = result ? { outcome: result.outcome, corrected: result.corrected } : null;
        // Settled before [DONE] (tracked, so that a stopping server waits for it): a charge that
        // cannot be recorded ends the stream with an error event instead (sse-response.ts).
        await deps.background.track(call.finish({ charged: ok, status: 200, outcome, tokens: tokens(end.usage), event }));
      },
      onEndFailed: (err) => deps.log(`embed ${ctx.requestId}: could not record: ${(err as Error).message}`),
    });
  }

  let completion;
  try {
    completion = await complete(adapter, req, target, untilGone(ctx));
  } catch (e) {
    throw await failed(ctx, e);
  }
  let event: CallEnd["event"] = null;
  const message = completion.choices[0]?.message;
  if (mode.kind === "managed" && message && typeof message.content === "string" && !message.tool_calls?.length) {
    const checked = checkAndRepair(message.content, mode.library);
    message.content = checked.content;
    event = { outcome: checked.outcome, corrected: checked.corrected };
  }
  // Settled before the answer goes out: an answer whose charge could not be recorded is not sent
  // as a success (app.ts answers 503 for the database's trouble; the hold goes back once it can).
  await call.finish({ charged: true, status: 200, outcome: "ok", tokens: tokens(completion.usage), event });
  return Response.json(completion);
}

/**
 * The provider call's signal: aborted when the client hangs up (the call is not charged: nobody
 * gets the answer) and at the deadline. A stream's hang-up after its start is sse-response.ts's.
 */
function untilGone(ctx: PaidContext<string, "key or token">): AbortSignal {
  return AbortSignal.any([ctx.req.signal, AbortSignal.timeout(PROVIDER_DEADLINE_MS)]);
}

/** The provider failed or refused before answering: the hold goes back, logged; the error as HTTP. */
async function failed(ctx: PaidContext<string, "key or token">, e: unknown): Promise<unknown> {
  if (ctx.req.signal.aborted) {
    // The client left: not the provider's failure, and no one reads the answer.
    await ctx.call.finish({ charged: false, status: 499, outcome: "cancelled" });
    return new HttpError(499, "the client closed the request", { code: "client_closed_request" });
  }
  // A request the provider's wire cannot carry: refused as the body's fault, naming the field.
  const http = e instanceof UnsupportedRequestError ? new HttpError(400, e.message, { param: e.param }) : providerHttpError(e);
  const status = e instanceof ProviderError || e instanceof HttpError || e instanceof UnsupportedRequestError ? e.status : 500;
  const outcome = e instanceof ProviderError ? "upstream_error" : e instanceof UnsupportedRequestError ? "rejected" : "error";
  await ctx.call.finish({ charged: false, status, outcome });
  if (e instanceof ProviderError) ctx.deps.log(`embed ${ctx.requestId}: ${e.message}`);
  return http ?? e;
}

function tokens(usage: { prompt_tokens?: number; completion_tokens?: number } | null | undefined): CallEnd["tokens"] {
  return { input: usage?.prompt_tokens ?? null, output: usage?.completion_tokens ?? null };
}

function toChatRequest(body: EmbedBody, mode: Mode): ChatRequest {
  const { byok: _byok, n: _n, ...rest } = body;
  const req: Record<string, unknown> = { ...rest, messages: mode.messages };
  // null means "not set" on the wire; adapters should not see it.
  for (const k of Object.keys(req)) if (req[k] === null || req[k] === undefined) delete req[k];
  return req as unknown as ChatRequest;
}
