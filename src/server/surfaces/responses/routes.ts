// The Responses API under /v1/embed (docs/responses.md): create (JSON, SSE or
// background), retrieve (also as a replayed stream), delete, cancel, input items, an input-token
// estimate and compaction. Wiring only: the bridge is src/responses, the turn its neighbours in this folder.
import * as v from "valibot";
import { endResponse, deleteResponse, eventsAfter, findResponse, hasResponse, listInputItems, type Db, type Organization } from "../../../db/index.ts";
import { replay } from "../../../responses/events.ts";
import { newId } from "../../../responses/ids.ts";
import { jsonOnce } from "../../../responses/json.ts";
import { CompactBody, CreateBody, InputTokensBody } from "../../../responses/schema.ts";
import type { ResponseObject } from "../../../responses/types.ts";
import { readBody } from "../../body.ts";
import type { AuthedContext, PaidContext } from "../../context.ts";
import { HttpError } from "../../errors.ts";
import { listPage, PageParams } from "../../pages.ts";
import { sseEvents } from "../../sse.ts";
import { requireModel, requireScope } from "../../auth.ts";
import { holdWithTokenBudget } from "../../token-budget.ts";
import { abortLocal, startBackground } from "./background.ts";
import { compactTurn, estimateTokens } from "./compact.ts";
import { prepareTurn } from "./prepare.ts";
import { openFirstRound, runTurn, settleUnopened, storeAtStart, type SequencedEvent } from "./run.ts";

type Ctx<P extends string = string> = AuthedContext<P, "key">;

export async function create(ctx: PaidContext<string, "key or token">): Promise<Response> {
  const { deps, org, call, principal } = ctx;
  requireScope(principal, "responses:create");
  const body = await readBody(ctx.req, CreateBody);
  call.input = body.input;
  call.model = body.model;
  requireModel(principal, body.model);
  // The artifact tool stores decks and reports for the token's user: the scope that writes them.
  if (body.tools?.some((tool) => tool.type === "artifact")) requireScope(principal, "artifacts:write");
  // A frontend token reaches only its user's conversations and responses.
  const t = await prepareTurn(deps, org, body, undefined, { userId: principal.kind === "token" ? principal.userId : null });
  call.input = t.input;
  await holdWithTokenBudget(principal, call);

  if (body.background) {
    const queued = await startBackground(deps, t, call);
    return body.stream ? sseEvents(tail(deps.db, org, queued.id, -1)) : responseJson(queued);
  }
  // A client that hangs up ends the turn, streamed or not: the provider call is aborted and the
  // hold handed back (a background run, above, is the one kind that runs on without its client).
  const ac = new AbortController();
  ctx.req.signal.addEventListener("abort", () => ac.abort(), { once: true });
  // A stream shows its id in its first event, retrievable from then on: its row is stored while the
  // provider call opens (a JSON answer is stored once, at its end).
  const start = body.stream && t.settings.store ? storeAtStart(deps, t, call.requestId) : null;
  let chunks: Awaited<ReturnType<typeof openFirstRound>>;
  try {
    chunks = await openFirstRound(deps, t, ac.signal, ctx.requestId, body.stream !== true);
  } catch (e) {
    await start?.undo();
    throw e;
  }
  if (chunks instanceof HttpError) {
    await start?.undo();
    await settleUnopened(deps, call, chunks.status);
    throw chunks;
  }
  // A row that could not be stored (the database in trouble) is the request's error, answered
  // before the stream starts (503), its provider call closed, its hold handed back.
  await start?.stored.catch(async (e) => {
    ac.abort();
    await t.loop?.close();
    throw e;
  });
  const events = runTurn(deps, t, chunks, { call, signal: ac.signal, streamed: body.stream === true, stored: start?.stored });
  // A client that goes away mid-stream: the provider call is aborted and the turn still runs to
  // its end (stored as cancelled, its hold handed back), else it would hang at its next event.
  if (body.stream)
    return sseEvents(events, () => {
      ac.abort();
      void drain(events);
    });
  return responseJson(await drain(events));
}

/** A Response object as the reply: the text it was stored as, when it was (json.ts). */
function responseJson(response: ResponseObject): Response {
  return new Response(jsonOnce(response), { headers: { "content-type": "application/json;charset=utf-8" } });
}

async function drain<R>(events: AsyncGenerator<unknown, R>): Promise<R> {
  let r = await events.next();
  while (!r.done) r = await events.next();
  return r.value;
}

async function stored(ctx: Ctx<"/:id">): Promise<{ org: Organization; response: ResponseObject; background: boolean }> {
  const { org } = ctx;
  const row = await findResponse(ctx.deps.db, org.id, ctx.params.id);
  if (!row) throw new HttpError(404, `no response ${ctx.params.id}`, { param: "response_id", code: "response_not_found" });
  return { org, response: row.body, background: row.background === 1 };
}

const RetrieveQuery = v.object({
  stream: v.optional(v.picklist(["true", "false"], "stream must be true or false")),
  starting_after: v.optional(v.pipe(v.string(), v.regex(/^-?\d+$/, "starting_after must be an integer"), v.transform(Number))),
});

export async function retrieve(ctx: Ctx<"/:id">): Promise<Response> {
  const { org, response, background } = await stored(ctx);
  const q = v.safeParse(RetrieveQuery, Object.fromEntries([...ctx.url.searchParams].filter(([k]) => k === "stream" || k === "starting_after")));
  if (!q.success) throw new HttpError(400, q.issues[0].message, { param: String(q.issues[0].path?.[0]?.key ?? "") });
  if (q.output.stream !== "true") return Response.json(response);
  const after = q.output.starting_after ?? -1;
  if (background) return sseEvents(tail(ctx.deps.db, org, response.id, after));
  return sseEvents(
    replay(response)
      .map((e, i) => ({ ...e, sequence_number: i }))
      .filter((e) => e.sequence_number > after),
  );
}

/** A background response's stored events past `after`, following the run until its terminal event. */
async function* tail(db: Db, org: Organization, id: string, after: number): AsyncGenerator<SequencedEvent> {
  let last = after;
  for (;;) {
    const events = await eventsAfter(db, id, last);
    for (const e of events) {
      yield e;
      last = e.sequence_number;
      if (TERMINAL.has(e.type)) return;
    }
    if (events.length === 0) {
      if (!(await hasResponse(db, org.id, id))) return; // deleted meanwhile
      await new Promise((resolve) => setTimeout(resolve, TAIL_POLL_MS));
    }
  }
}

const TERMINAL = new Set<SequencedEvent["type"]>(["response.completed", "response.failed", "response.incomplete"]);
/** How often a replay looks for a background run's next events. */
const TAIL_POLL_MS = 50;

export async function remove(ctx: Ctx<"/:id">): Promise<Response> {
  const { org } = ctx;
  const id = ctx.params.id;
  if (!(await deleteResponse(ctx.deps.db, org.id, id))) throw new HttpError(404, `no response ${id}`, { param: "response_id", code: "response_not_found" });
  abortLocal(id);
  return Response.json({ id, object: "response.deleted", deleted: true });
}

export async function cancel(ctx: Ctx<"/:id">): Promise<Response> {
  const { org, response, background } = await stored(ctx);
  if (!background) {
    throw new HttpError(400, "only background responses can be cancelled: this one was not created with background: true", {
      param: "response_id",
      code: "not_background",
    });
  }
  if (response.status !== "queued" && response.status !== "in_progress") return Response.json(response);
  const cancelled: ResponseObject = { ...response, status: "cancelled" };
  if (await endResponse(ctx.deps.db, response.id, "cancelled", cancelled)) {
    abortLocal(response.id);
    return responseJson(cancelled);
  }
  // It ended between the read and the write: answer what it became.
  return Response.json((await findResponse(ctx.deps.db, org.id, response.id))!.body);
}

export async function inputItems(ctx: Ctx<"/:id">): Promise<Response> {
  const { org } = ctx;
  const id = ctx.params.id;
  const q = PageParams.read(ctx.url);
  if (!(await hasResponse(ctx.deps.db, org.id, id))) throw new HttpError(404, `no response ${id}`, { param: "response_id", code: "response_not_found" });
  const page = await listInputItems(ctx.deps.db, org.id, id, q);
  return listPage(page, q.after);
}

export async function inputTokens(ctx: Ctx): Promise<Response> {
  const { org } = ctx;
  const body = await readBody(ctx.req, InputTokensBody);
  const input_tokens = await estimateTokens(ctx.deps, org, body);
  return Response.json({ object: "response.input_tokens", input_tokens });
}

export async function compact(ctx: PaidContext<string>): Promise<Response> {
  const { deps, org, call } = ctx;
  const body = await readBody(ctx.req, CompactBody);
  call.input = body.input;
  call.model = body.model;
  await call.hold();
  let result;
  try {
    result = await compactTurn(deps, org, body);
  } catch (e) {
    await call.finish({ charged: false, status: e instanceof HttpError ? e.status : 502, outcome: "error" });
    throw e;
  }
  await call.finish({ charged: true, status: 200, outcome: "ok", tokens: { input: result.usage.input_tokens, output: result.usage.output_tokens } });
  return Response.json({ id: newId("compaction"), object: "response.compaction", created_at: Math.floor(Date.now() / 1000), ...result });
}
