// WebSocket mode on /v1/embed/responses: `response.create` frames in, one JSON event per frame out,
// turns one after another on a socket, which stays open after a failed turn. store:false answers
// can be continued on the same socket (a per-connection cache, bounded); on any other socket, or
// after a failed continuation evicted it, the previous response is not found.
import type { SocketConnection, SocketHandler, Upgrader } from "../../../runtime/index.ts";
import * as v from "valibot";
import type { Organization } from "../../../db/index.ts";
import { CreateEntries, withItems, type CreateBody } from "../../../responses/schema.ts";
import { authenticate } from "../../auth.ts";
import { checkBody, MAX_BODY_BYTES, parseJson } from "../../body.ts";
import type { AppDeps } from "../../context.ts";
import { errorBody, errorResponse, HttpError } from "../../errors.ts";
import { PaidCall, paidWork } from "../../paid.ts";
import { TURN } from "./price.ts";
import { prepareTurn, type PreparedTurn, type TurnCache } from "./prepare.ts";
import { contextAfter, ENDPOINT, openFirstRound, runTurn, settleUnopened } from "./run.ts";

/** Responses a socket remembers for continuation; the oldest goes first. */
const CACHE_LIMIT = 64;

interface SocketData {
  org: Organization;
  cache: TurnCache;
  turns: Promise<void>;
  abort: AbortController;
}

const CreateFrame = withItems(
  v.object({
    ...CreateEntries,
    type: v.literal("response.create", 'frames must be {"type":"response.create", …}'),
    stream: v.optional(v.unknown()),
    background: v.optional(v.nullable(v.literal(false, "background is not available in WebSocket mode"))),
  }),
);

/** The upgrade of an authenticated request; anything else answers as HTTP. */
export async function upgradeSocket(req: Request, server: Upgrader<SocketData>, deps: AppDeps): Promise<Response | undefined> {
  let org: Organization;
  try {
    org = await authenticate(deps.db, deps.keys, req);
  } catch (e) {
    if (e instanceof HttpError) return e.toResponse();
    throw e;
  }
  const data: SocketData = { org, cache: new Map(), turns: Promise.resolve(), abort: new AbortController() };
  return server.upgrade(req, { data }) ? undefined : errorResponse(400, "a WebSocket upgrade was expected");
}

export function isSocketUpgrade(req: Request): boolean {
  return req.headers.get("upgrade")?.toLowerCase() === "websocket" && new URL(req.url).pathname.replace(/\/+$/, "") === ENDPOINT;
}

export function socketHandler(deps: AppDeps): SocketHandler<SocketData> {
  return {
    message(ws, message) {
      const text = typeof message === "string" ? message : new TextDecoder().decode(message);
      ws.data.turns = ws.data.turns.then(() => turn(deps, ws, text)).catch((e) => deps.log(`responses socket: ${e instanceof Error ? e.stack : String(e)}`));
    },
    close(ws) {
      ws.data.abort.abort();
    },
    // A frame is a request body: the same cap.
    maxPayloadLength: MAX_BODY_BYTES,
  };
}

async function turn(deps: AppDeps, ws: SocketConnection<SocketData>, text: string): Promise<void> {
  const { org, cache } = ws.data;
  // Each frame is a request of its own: its own id, hold, settlement and log.
  const call = new PaidCall(deps, org, TURN, ENDPOINT, crypto.randomUUID(), performance.now());
  let previous: string | null = null;
  try {
    await paidWork(call, async () => {
      const json = parseJson(text);
      if ((json as { type?: unknown } | null)?.type !== "response.create") {
        throw new HttpError(400, 'frames must be {"type":"response.create", …}: no other frame type is taken', { param: "type" });
      }
      const { type: _type, stream: _stream, ...body } = checkBody(json, CreateFrame);
      call.input = body.input;
      call.model = body.model;
      previous = body.previous_response_id ?? null;
      const t = await prepareTurn(deps, org, body as CreateBody, cache);
      call.input = t.input;
      await call.hold();
      const chunks = await openFirstRound(deps, t, ws.data.abort.signal, call.requestId);
      if (chunks instanceof HttpError) {
        await settleUnopened(deps, call, chunks.status);
        throw chunks;
      }
      await answer(ws, t, runTurn(deps, t, chunks, { call, signal: ws.data.abort.signal, streamed: true }), previous);
    });
  } catch (e) {
    if (previous) cache.delete(previous);
    const err = e instanceof HttpError ? e : new HttpError(500, "internal error");
    if (!(e instanceof HttpError)) deps.log(`responses socket ${call.requestId}: ${e instanceof Error ? e.stack : String(e)}`);
    const body = errorBody(err.status, err.message, err.opts);
    ws.send(JSON.stringify({ type: "error", status: err.status, sequence_number: 0, error: { ...body.error, code: body.error.code ?? body.error.type } }));
  }
}

/** The turn's events, one per frame; an answered turn is remembered for store:false continuations. */
async function answer(ws: SocketConnection<SocketData>, t: PreparedTurn, events: ReturnType<typeof runTurn>, previous: string | null): Promise<void> {
  const { cache } = ws.data;
  let r = await events.next();
  while (!r.done) {
    ws.send(JSON.stringify(r.value));
    r = await events.next();
  }
  const final = r.value;
  if (final.status === "completed" || final.status === "incomplete") {
    cache.set(final.id, contextAfter(t, final));
    if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  } else if (previous) cache.delete(previous);
}
