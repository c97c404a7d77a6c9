// POST /v1/autofix (and /v1/autofix/chat/completions): spec sections 2.1–2.3, 3, 4.1, 7, 8.
// Order matters: key (401) → body (413/400) → rules (400) → credits (429) → check → sanitizer →
// charge; or, when the fixing model is needed, hold → model → settle.
import { canAfford, chargeOutright, findOrganizationById, settle, writeRequestLog } from "../../../db/index.ts";
import { holdPrice, outOfCredits } from "../../paid.ts";
import { authenticate } from "../../auth.ts";
import { readBody } from "../../body.ts";
import type { Handler, RequestContext } from "../../context.ts";
import { errorResponse, HttpError } from "../../errors.ts";
import { AutofixBody, interpretAutofixRequest } from "./request.ts";
import { AUTOFIX_MODEL, autofixCompletion } from "./response.ts";
import { alreadyValid, checkGeneration, modelAttempt, sanitizerFix, type FixOutcome } from "../../../repair/autofix.ts";
import { acceptedConversation, rejectedExcerpt } from "../../logged-conversation.ts";

const SURFACE = "autofix";

export const autofix: Handler = async (ctx) => {
  const { deps } = ctx;
  const org = await authenticate(deps.db, ctx.req);
  let messages: unknown[] | undefined;
  try {
    const body = await readBody(ctx.req, AutofixBody);
    messages = body.messages;
    const request = interpretAutofixRequest(body);
    const { library, source } = request;
    const price = deps.config.autofixPrice;
    // Checked before anything is parsed (a 429 even for an already-valid generation); held below.
    if (!canAfford(org, price)) throw outOfCredits(org, SURFACE);

    const parseStart = performance.now();
    const checked = checkGeneration(request.generation, library);
    // Server-Timing lets clients and bench/server.ts see the parse share of a request.
    const timing = { "server-timing": `parse;dur=${(performance.now() - parseStart).toFixed(3)}` };
    if (checked.valid) {
      const outcome = alreadyValid(request.generation);
      // Free: nothing to settle, so the log is written after the answer has gone out.
      const logged = messages;
      deps.background.later(`autofix ${ctx.requestId}: log`, () => record(ctx, org.id, logged, { held: 0, charge: 0, status: 200, outcome }));
      return Response.json(autofixCompletion(outcome), { headers: timing });
    }

    const input = { checked, library, source, context: request.context, instructions: request.config.instructions };
    const first = sanitizerFix(input);
    if (first.status === "fixed" || !deps.fixingModel) {
      // The work is done before anything is paid: the charge and its records are one transaction,
      // with no hold (nothing can be lost between them). Concurrent calls may have spent the
      // balance meanwhile: then a 429, as had they come first.
      if (!(await record(ctx, org.id, messages, { held: 0, charge: price, status: 200, outcome: first }))) {
        throw outOfCredits((await findOrganizationById(deps.db, org.id)) ?? org, SURFACE);
      }
      return Response.json(autofixCompletion(first), { headers: timing });
    }

    // The fixing model may take seconds: its price is held first (one atomic UPDATE, so concurrent
    // calls never overspend), and settled when it has answered.
    await holdPrice(deps.db, org, price, ctx.requestId, SURFACE);
    let outcome: FixOutcome;
    try {
      outcome = await modelAttempt(input, first.unfixed_errors, deps.fixingModel);
    } catch (e) {
      deps.log(`autofix ${ctx.requestId} failed: ${(e as Error).message}`);
      await record(ctx, org.id, messages, { held: price, charge: 0, status: 500, outcome: null });
      return errorResponse(500, "the fixing model could not be reached; nothing was charged", { code: "fixing_model_unavailable" });
    }
    await record(ctx, org.id, messages, { held: price, charge: price, status: 200, outcome });
    return Response.json(autofixCompletion(outcome), { headers: timing });
  } catch (e) {
    if (e instanceof HttpError) {
      // Rejected (400/413/429): an excerpt, queued (written after the answer has gone out).
      writeRequestLog(deps.db, { ...logFields(ctx, rejectedExcerpt(messages), e.status, "rejected"), organization_id: org.id, request_id: ctx.requestId, charge: 0 });
    }
    throw e;
  }
};

function logFields(ctx: RequestContext, conversation: string, status: number, outcome: string) {
  return {
    endpoint: ctx.url.pathname.replace(/\/+$/, ""),
    model: AUTOFIX_MODEL,
    status,
    conversation,
    outcome,
    duration_ms: Math.round(performance.now() - ctx.startedAt),
  };
}

/**
 * Charge (or hand back the hold), request log and reliability event, in one transaction. Without a
 * hold the charge is taken outright: false when the organization could not pay it (nothing written).
 */
async function record(
  ctx: RequestContext,
  orgId: number,
  messages: unknown[],
  r: { held: number; charge: number; status: number; outcome: FixOutcome | null },
): Promise<boolean> {
  const outcomeName = r.outcome?.status ?? "error";
  const corrected = r.outcome?.status === "fixed" ? r.outcome.fixed_errors.map((e) => e.code) : [];
  const { conversation, library } = acceptedConversation(messages);
  const log = logFields(ctx, conversation, r.status, outcomeName);
  const settlement = {
    orgId,
    requestId: ctx.requestId,
    charge: r.charge,
    reason: "autofix",
    log,
    library,
    event: { model: AUTOFIX_MODEL, endpoint: log.endpoint, outcome: outcomeName, corrected_codes: JSON.stringify(corrected) },
  };
  if (r.held === 0) return chargeOutright(ctx.deps.db, settlement);
  await settle(ctx.deps.db, { ...settlement, held: r.held });
  return true;
}
