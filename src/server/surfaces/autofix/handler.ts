// POST /v1/autofix (and /v1/autofix/chat/completions): spec sections 2.1–2.3, 3, 4.1, 7, 8.
// Order matters: key (401, app.ts) → body (413/400) → rules (400) → credits (429) → check →
// sanitizer → charge; or, when the fixing model is needed, hold → model → settle.
import { alreadyValid, checkGeneration, modelAttempt, sanitizerFix, type FixOutcome } from "../../../repair/autofix.ts";
import { readBody } from "../../body.ts";
import type { PaidContext } from "../../context.ts";
import { errorResponse } from "../../errors.ts";
import type { CallEnd } from "../../paid.ts";
import { AutofixBody, interpretAutofixRequest } from "./request.ts";
import { autofixCompletion } from "./response.ts";

export async function autofix(ctx: PaidContext<string>): Promise<Response> {
  const { deps, call } = ctx;
  const body = await readBody(ctx.req, AutofixBody);
  call.input = body.messages;
  const request = interpretAutofixRequest(body);
  const { library, source } = request;
  // Checked before anything is parsed (a 429 even for an already-valid generation); held below.
  call.checkAffordable();

  const parseStart = performance.now();
  const checked = checkGeneration(request.generation, library);
  // Server-Timing lets clients and bench/server.ts see the parse share of a request.
  const timing = { "server-timing": `parse;dur=${(performance.now() - parseStart).toFixed(3)}` };
  if (checked.valid) {
    const outcome = alreadyValid(request.generation);
    // Free: nothing to settle, so the log is written after the answer has gone out.
    call.finishLater(ended(outcome, false));
    return Response.json(autofixCompletion(outcome), { headers: timing });
  }

  const input = { checked, library, source, context: request.context, instructions: request.config.instructions };
  const first = sanitizerFix(input);
  if (first.status === "fixed" || !deps.fixingModel) {
    // The work is done before anything is paid: the charge and its records are one transaction,
    // with no hold (nothing can be lost between them). Concurrent calls may have spent the
    // balance meanwhile: then a 429, as had they come first.
    if (!(await call.finish(ended(first, true)))) throw await call.outOfCredits();
    return Response.json(autofixCompletion(first), { headers: timing });
  }

  // The fixing model may take seconds: its price is held first, and settled when it has answered.
  await call.hold();
  let outcome: FixOutcome;
  const fixingModel = deps.fixingModel;
  try {
    // A client that hangs up meanwhile is not charged: the call ends (its hold back) at once, and
    // the fixing model's own call is aborted with it.
    const signal = ctx.req.signal;
    outcome = await modelAttempt(input, first.unfixed_errors, (messages) => unlessGone(fixingModel(messages, signal), signal));
  } catch (e) {
    if (e instanceof ClientGone) {
      await call.finish({ charged: false, status: 499, outcome: "cancelled" });
      return errorResponse(499, "the client closed the request", { code: "client_closed_request" });
    }
    deps.log(`autofix ${ctx.requestId} failed: ${(e as Error).message}`);
    await call.finish({ charged: false, status: 500, outcome: "error", event: { outcome: "error", corrected: [] } });
    return errorResponse(500, "the fixing model could not be reached; nothing was charged", { code: "fixing_model_unavailable" });
  }
  await call.finish(ended(outcome, true));
  return Response.json(autofixCompletion(outcome), { headers: timing });
}

class ClientGone extends Error {}

/** `work`, or a ClientGone as soon as the client has closed the request. */
function unlessGone<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ClientGone());
  return new Promise<T>((resolve, reject) => {
    const gone = () => reject(new ClientGone());
    signal.addEventListener("abort", gone, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", gone));
  });
}

/** An answered call: its outcome and the codes it corrected go to reliability monitoring. */
function ended(outcome: FixOutcome, charged: boolean): CallEnd {
  const corrected = outcome.status === "fixed" ? outcome.fixed_errors.map((e) => e.code) : [];
  return { charged, status: 200, outcome: outcome.status, event: { outcome: outcome.status, corrected } };
}
