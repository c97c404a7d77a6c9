// POST /v1/embed/chat/completions: spec 2.4 and 4.2. Any provider's models behind the chat
// completions wire, plain (passthrough) or with managed generative UI, with the server's or the
// request's own provider key.
// Order: key (401) → body (413/400) → model and key for it (400) → credits (429) → provider → settle.
import { creditAmountProblem, settle, writeRequestLog } from "../../../db/index.ts";
import { complete, openStream } from "../../../providers/call.ts";
import { ProviderError, UnsupportedRequestError, type ChatRequest, type Usage } from "../../../providers/types.ts";
import { authenticate } from "../../auth.ts";
import { readBody } from "../../body.ts";
import type { Handler, RequestContext } from "../../context.ts";
import { checkAndRepair, checkOnly } from "../../managed/check.ts";
import { detectMode, type Mode } from "../../managed/mode.ts";
import { EmbedBody } from "./request.ts";
import { sseResponse } from "./sse-response.ts";
import { errorResponse, HttpError } from "../../errors.ts";
import { holdPrice } from "../../paid.ts";
import { PROVIDER_DEADLINE_MS, providerHttpError, resolveProvider } from "../../provider-target.ts";
import { acceptedConversation, rejectedExcerpt } from "../../logged-conversation.ts";

const ENDPOINT = "/v1/embed/chat/completions";

/** Read per request (tests change it); a value that is not a credit amount is the operator's error. */
function embedPrice(env: Record<string, string | undefined>): number {
  const text = env.TESSERA_EMBED_PRICE?.trim() || "0";
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  const problem = creditAmountProblem(n);
  if (problem) throw new HttpError(500, `the server's TESSERA_EMBED_PRICE ${problem}, got ${JSON.stringify(text)}`, { code: "server_misconfigured" });
  return n;
}

export const embedChatCompletions: Handler = async (ctx) => {
  const { deps } = ctx;
  const env = process.env;
  const org = await authenticate(deps.db, ctx.req);
  let conversation: unknown[] | undefined;
  let model = "unknown";
  let recorded = false; // once settled, a failure is not logged a second time
  try {
    const body = await readBody(ctx.req, EmbedBody);
    conversation = body.messages;
    model = body.model;
    const { adapter, target } = await resolveProvider(org.id, body.model, body.byok, env);

    const mode = await detectMode(body.messages as ChatRequest["messages"]);
    const req = toChatRequest(body, mode);

    const price = embedPrice(env);
    await holdPrice(deps.db, org, price, ctx.requestId, "embed chat completions");

    if (body.stream) {
      let chunks;
      try {
        chunks = await openStream(adapter, req, target, { id: `chatcmpl-${crypto.randomUUID()}`, created: Math.floor(Date.now() / 1000) }, AbortSignal.timeout(PROVIDER_DEADLINE_MS));
      } catch (e) {
        recorded = true;
        await record(ctx, org.id, { conversation: conversation!, model, held: price, charge: 0, status: statusOf(e), outcome: outcomeOf(e) });
        throw e;
      }
      return sseResponse(chunks, {
        includeUsage: body.stream_options?.include_usage === true,
        keepContent: mode.kind === "managed",
        onEnd: async (end) => {
          const ok = !end.error && !end.cancelled;
          const outcome = end.error ? "upstream_error" : end.cancelled ? "cancelled" : "ok";
          const event = mode.kind === "managed" && ok
            ? { outcome: checkOnly(end.content, mode.library), corrected: [] as string[] }
            : null;
          // Tracked, so that a stopping server waits for the settlement of a stream that just ended.
          await deps.background.track(
            record(ctx, org.id, { conversation: conversation!, model, held: price, charge: ok ? price : 0, status: 200, outcome, usage: end.usage, event })
              .catch((err) => deps.log(`embed ${ctx.requestId}: could not record: ${(err as Error).message}`)),
          );
        },
      });
    }

    let completion;
    try {
      completion = await complete(adapter, req, target, AbortSignal.timeout(PROVIDER_DEADLINE_MS));
    } catch (e) {
      recorded = true;
      await record(ctx, org.id, { conversation: conversation!, model, held: price, charge: 0, status: statusOf(e), outcome: outcomeOf(e) });
      throw e;
    }
    let event: { outcome: string; corrected: string[] } | null = null;
    const message = completion.choices[0]?.message;
    if (mode.kind === "managed" && message && typeof message.content === "string" && !message.tool_calls?.length) {
      const checked = checkAndRepair(message.content, mode.library);
      message.content = checked.content;
      event = { outcome: checked.outcome, corrected: checked.corrected };
    }
    // The answer goes out first: the log write is off the response path (gateway latency).
    deps.background.later(`embed ${ctx.requestId}: record`, () =>
      record(ctx, org.id, { conversation: conversation!, model, held: price, charge: price, status: 200, outcome: "ok", usage: completion.usage ?? null, event }));
    return Response.json(completion);
  } catch (e) {
    if (e instanceof ProviderError) {
      deps.log(`embed ${ctx.requestId}: ${e.message}`);
      return providerHttpError(e)!.toResponse();
    }
    if (e instanceof UnsupportedRequestError) {
      if (!recorded) log(ctx, org.id, conversation, model, 400, "rejected");
      return errorResponse(400, e.message, { param: e.param });
    }
    if (e instanceof HttpError && !recorded) log(ctx, org.id, conversation, model, e.status, "rejected");
    throw e;
  }
};

function toChatRequest(body: EmbedBody, mode: Mode): ChatRequest {
  const { byok: _byok, n: _n, ...rest } = body;
  const req: Record<string, unknown> = { ...rest, messages: mode.messages };
  // null means "not set" on the wire; adapters should not see it.
  for (const k of Object.keys(req)) if (req[k] === null || req[k] === undefined) delete req[k];
  return req as unknown as ChatRequest;
}

function statusOf(e: unknown): number {
  return e instanceof ProviderError || e instanceof HttpError || e instanceof UnsupportedRequestError ? e.status : 500;
}

function outcomeOf(e: unknown): string {
  return e instanceof ProviderError ? "upstream_error" : e instanceof UnsupportedRequestError ? "rejected" : "error";
}


async function record(
  ctx: RequestContext, orgId: number,
  r: { conversation: unknown[]; model: string; held: number; charge: number; status: number; outcome: string; usage?: Usage | null; event?: { outcome: string; corrected: string[] } | null },
): Promise<void> {
  const { conversation, library } = acceptedConversation(r.conversation);
  await settle(ctx.deps.db, {
    orgId, requestId: ctx.requestId, held: r.held, charge: r.charge, reason: "embed", library,
    log: {
      endpoint: ENDPOINT, model: r.model, status: r.status, conversation,
      outcome: r.outcome, duration_ms: Math.round(performance.now() - ctx.startedAt),
      input_tokens: r.usage?.prompt_tokens ?? null, output_tokens: r.usage?.completion_tokens ?? null,
    },
    event: r.event ? { model: r.model, endpoint: ENDPOINT, outcome: r.event.outcome, corrected_codes: JSON.stringify(r.event.corrected) } : undefined,
  });
}

/** A rejected request: an excerpt of what was sent, no more, queued (written after the answer has gone out). */
function log(ctx: RequestContext, orgId: number, messages: unknown, model: string, status: number, outcome: string): void {
  const row = {
    request_id: ctx.requestId, organization_id: orgId, endpoint: ENDPOINT, model, status, conversation: rejectedExcerpt(messages), outcome, charge: 0,
    duration_ms: Math.round(performance.now() - ctx.startedAt),
  };
  writeRequestLog(ctx.deps.db, row);
}
