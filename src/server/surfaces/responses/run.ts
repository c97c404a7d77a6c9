// One turn of the Responses API, from the opened provider stream to the stored, billed Response:
// response.created, the item events of the bridge (src/responses/events.ts), then exactly one
// terminal event, each with its sequence number. SSE, WebSocket, background runs and plain JSON
// answers all consume the same generator, so every transport carries the same events.
import { deleteResponse, endResponse, endTurn, handBackLater, insertResponse, updateResponse } from "../../../db/index.ts";
import { completeAsChunk, openStream } from "../../../providers/call.ts";
import { isContextOverflow, ProviderError, type ChatCompletionChunk, type ChatRequest } from "../../../providers/types.ts";
import { copyJson } from "../../../responses/json.ts";
import { EventBridge, endStatus, TERMINAL_EVENT } from "../../../responses/events.ts";
import { withFreshId } from "../../../responses/ids.ts";
import { withoutOldestTurns } from "../../../responses/truncate.ts";
import { responseObject } from "../../../responses/object.ts";
import type { ResponseEvent, SequencedEvent } from "../../../responses/stream-events.ts";
import type { Item, OutputItem, ResponseObject } from "../../../responses/types.ts";
import type { AppDeps } from "../../context.ts";
import { repairedChunks } from "../../../repair/stream-chunks.ts";
import { HttpError } from "../../errors.ts";
import type { CallEnd, PaidCall } from "../../paid.ts";
import { PROVIDER_DEADLINE_MS, providerHttpError } from "../../provider-target.ts";
import type { PreparedTurn } from "./prepare.ts";
import { ToolLoop } from "./tool-loop.ts";

export const ENDPOINT = "/v1/embed/responses";

export type { SequencedEvent };

export interface TurnOptions {
  /** The paid call this turn answers: its hold is settled at the end (charged when it completes, else handed back). */
  call: PaidCall;
  /** Aborts the provider call: the client went away, or the response was cancelled. */
  signal: AbortSignal;
  /**
   * The response's id is seen before its end (a stream shows it in response.created): stored as it
   * starts. A plain JSON answer is stored once, when it has ended (one transaction fewer), and its
   * events, read by nobody, start at the output's (no response.created or in_progress).
   */
  streamed: boolean;
  /** Background runs: the row exists already (queued); progress is stored after every finished item. */
  background?: { onItemDone(response: ResponseObject): Promise<boolean> };
  /** A streamed turn's row, stored while its provider call was being opened (storeAtStart). */
  stored?: Promise<void>;
}

/** What a turn stores as its row, whenever it is written. */
function rowOf(t: PreparedTurn) {
  return {
    id: t.settings.id,
    organizationId: t.org.id,
    model: t.settings.model,
    previousResponseId: t.settings.previous_response_id,
    conversationId: t.conversationId,
    userId: t.userId,
    background: false,
    request: null,
    worker: null,
    leaseUntil: null,
    input: t.input,
  };
}

/**
 * A streamed, stored turn's row (in progress, with its input items), written while its provider
 * call opens rather than after: the call's wait hides the write (runTurn waits for it before
 * response.created). `undo` removes it again, for a turn whose provider call was refused: such a
 * request leaves nothing stored.
 */
export function storeAtStart(deps: AppDeps, t: PreparedTurn, requestId: string): { stored: Promise<void>; undo(): Promise<void> } {
  const body = responseObject(t.settings, { status: "in_progress", output: [] });
  const stored = insertResponse(deps.db, { ...rowOf(t), status: "in_progress", body });
  // Its failure is met where it is awaited (runTurn, or undo); not an unhandled rejection meanwhile.
  stored.catch(() => {});
  const remove = (db: AppDeps["db"]) => deleteResponse(db, t.org.id, t.settings.id);
  return {
    stored,
    undo: async () => {
      const inserted = await stored.then(
        () => true,
        () => false,
      );
      // The database in trouble: removed once it takes writes again (with the hold, if still held).
      if (inserted) await remove(deps.db).catch(() => handBackLater(deps.db, requestId, deps.log, remove));
    },
  };
}

export async function openTurn(
  t: PreparedTurn,
  signal: AbortSignal,
  first: ChatRequest = t.chat,
  whole = false,
): Promise<AsyncIterable<ChatCompletionChunk> | HttpError> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(PROVIDER_DEADLINE_MS)]);
  const ids = { id: `chatcmpl-${t.settings.id}`, created: t.settings.created_at };
  let chat = first;
  for (;;) {
    try {
      if (whole) return once(await completeAsChunk(t.provider!.adapter, chat, t.provider!.target, ids, deadline));
      return await openStream(t.provider!.adapter, chat, t.provider!.target, ids, deadline);
    } catch (e) {
      // truncation "auto": a conversation longer than the model's window goes again without its
      // older turns, halved each time, until it fits or only the turn being answered is left.
      const shorter = t.settings.truncation === "auto" && isContextOverflow(e) ? withoutOldestTurns(chat.messages) : null;
      if (shorter) {
        chat = { ...chat, messages: shorter };
        continue;
      }
      const http = providerHttpError(e);
      if (http) return http;
      throw e;
    }
  }
}

async function* once<T>(item: T): AsyncGenerator<T> {
  yield item;
}

/**
 * The first model call of a turn, as openTurn, with the hosted tools started before it (their tool
 * lists fetched: an HttpError when a server cannot list them). Null when calls approved in the
 * input run first: the turn then opens its first model call itself, after them.
 *
 * `whole`: the turn is answered only at its end (a JSON answer). A turn of one model call that
 * no stream repair reads (no hosted tools, no managed UI) then asks for the whole answer, not a
 * stream: the same answer, read in one piece rather than chunk by chunk through the SSE reader.
 */
export async function openFirstRound(
  deps: AppDeps,
  t: PreparedTurn,
  signal: AbortSignal,
  requestId: string,
  whole = false,
): Promise<AsyncIterable<ChatCompletionChunk> | HttpError | null> {
  if (!t.hosted) return openTurn(t, signal, t.chat, whole && !t.library);
  const loop = new ToolLoop(deps, t, { requestId }, signal);
  t.loop = loop;
  try {
    await loop.start();
    if (loop.hasResumed) return null;
    return await openTurn(t, signal, await loop.nextChat([]));
  } catch (e) {
    await loop.close();
    if (e instanceof HttpError) return e;
    throw e;
  }
}

export async function* runTurn(
  deps: AppDeps,
  t: PreparedTurn,
  chunks: AsyncIterable<ChatCompletionChunk> | HttpError | null,
  o: TurnOptions,
): AsyncGenerator<SequencedEvent, ResponseObject> {
  const { db } = deps;
  const store = t.settings.store;
  let seq = 0;
  const sequenced = (e: ResponseEvent): SequencedEvent => ({ ...e, sequence_number: seq++ });
  let managed: CallEnd["event"] = null;
  // Managed UI: the text is repaired line by line as it streams (src/repair/stream-chunks.ts), so the
  // deltas a client reads add up to the stored answer; the repair's outcome is read at the end.
  // Each model call of the turn is repaired as it streams (a hosted-tool turn makes several).
  let repaired: ReturnType<typeof repairedChunks> | null = null;
  const bridge = new EventBridge({
    finalizeText: t.library
      ? (text) => {
          const result = repaired?.result();
          if (result) managed = { outcome: result.outcome, corrected: result.corrected };
          return text;
        }
      : undefined,
    isHosted: t.loop?.isHosted,
    annotate: t.loop?.annotate,
  });
  const loop = t.loop ?? null;
  const snapshot = (status: ResponseObject["status"], extra: Partial<Parameters<typeof responseObject>[1]> = {}) =>
    responseObject(t.settings, { status, output: copyJson(bridge.output), usage: bridge.usage, ...extra });

  const row = rowOf(t);
  const storedAtStart = store && o.streamed && !o.background;
  // A JSON answer's events are read by nobody: its opening snapshots are not made.
  if (o.streamed) {
    const first = snapshot(o.background ? "queued" : "in_progress");
    if (storedAtStart) await (o.stored ?? insertResponse(db, { ...row, status: "in_progress", body: first }));
    yield sequenced({ type: "response.created", response: first });
    yield sequenced({ type: "response.in_progress", response: snapshot("in_progress") });
  }
  if (o.background) await updateResponse(db, t.settings.id, "in_progress", snapshot("in_progress"));

  let final: ResponseObject;
  // Background runs store progress after every finished item (and stop there when cancelled).
  const afterEvent = async (e: ResponseEvent) => {
    if (e.type === "response.output_item.done" && o.background && !(await o.background.onItemDone(snapshot("in_progress")))) {
      throw new Cancelled();
    }
  };
  try {
    if (loop) {
      for (const e of loop.startEvents(bridge)) {
        yield sequenced(e);
        await afterEvent(e);
      }
      const resumed = loop.run(bridge, loop.takeResumed());
      for (let r = await resumed.next(); !r.done; r = await resumed.next()) {
        yield sequenced(r.value);
        await afterEvent(r.value);
      }
    }
    let source = chunks;
    let ended: ReturnType<typeof endStatus>;
    // One model call per round; hosted calls between rounds (tool-loop.ts).
    for (;;) {
      if (source === null) source = await openTurn(t, o.signal, await loop!.nextChat(copyJson(bridge.output)));
      if (source instanceof HttpError) throw source;
      if (t.library) repaired = repairedChunks(source, t.library);
      for await (const chunk of repaired?.chunks ?? source) {
        for (const e of bridge.push(chunk)) {
          yield sequenced(e);
          await afterEvent(e);
        }
      }
      ended = endStatus(bridge.finish);
      for (const e of bridge.end(ended.status)) {
        yield sequenced(e);
        await afterEvent(e);
      }
      const calls = loop && ended.status === "completed" ? bridge.hostedCalls() : [];
      if (calls.length === 0) break;
      const runs = loop!.run(bridge, loop!.runsFor(calls));
      let r = await runs.next();
      for (; !r.done; r = await runs.next()) {
        yield sequenced(r.value);
        await afterEvent(r.value);
      }
      // A call awaiting approval, or one for the application, ends the turn; so does the last round.
      if (r.value.pause || bridge.appCalls > 0 || loop!.lastRound) break;
      bridge.nextRound();
      source = null;
    }
    final = snapshot(ended.status, { incompleteReason: ended.reason, completedAt: ended.status === "completed" ? Math.floor(Date.now() / 1000) : null });
  } catch (e) {
    if (e instanceof Cancelled || o.signal.aborted) {
      final = snapshot("cancelled");
    } else {
      const known = e instanceof ProviderError || e instanceof HttpError;
      const message = known ? (e as Error).message : "the answer could not be completed";
      if (!known) deps.log(`responses ${o.call.requestId}: ${e instanceof Error ? e.stack : String(e)}`);
      final = snapshot("failed", { error: { code: "server_error", message } });
    }
  }

  await loop?.close();
  // The end is stored and paid for in one transaction: a response never reads as ended unsettled.
  let end: Parameters<typeof endTurn>[1] = null;
  if (store) {
    const ok = final.status === "completed" || final.status === "incomplete";
    // A failed or cancelled turn appends nothing to its conversation.
    const appended = ok && t.conversationId ? { id: t.conversationId, items: [...t.input.map(withFreshId), ...final.output] } : null;
    end =
      storedAtStart || o.background
        ? { finish: { id: t.settings.id, organizationId: t.org.id, status: final.status, body: final, output: final.output, conversation: appended } }
        : { insert: { ...row, status: final.status, body: final, output: final.output, conversation: appended } };
  }
  // Ended meanwhile (cancelled through any server, or failed by a stopping one): that end stands.
  let meanwhile: ResponseObject | null;
  try {
    meanwhile = await endTurn(
      db,
      end,
      (stored) => {
        const { status, usage } = stored ?? final;
        const charged = status === "completed" || status === "incomplete";
        return o.call.settlement({
          charged,
          status: charged ? 200 : status === "cancelled" ? 499 : 502,
          outcome: status,
          tokens: { input: usage?.input_tokens ?? null, output: usage?.output_tokens ?? null },
          event: managed,
        });
        // A client waits for this commit: its log goes to the log queue, as Embed's does. A
        // background run's, which nobody waits for, commits with it.
      },
      !o.background,
    );
  } catch (e) {
    // The end could not be stored nor paid for (the database is in trouble): not a success. The
    // hold goes back and a stored row is marked failed once the database takes writes again; a
    // stream ends with response.failed, a JSON answer with the error (503 for the database's trouble).
    deps.log(`responses ${o.call.requestId}: the turn's end could not be recorded: ${(e as Error).message}`);
    const failed = snapshot("failed", {
      error: { code: "server_error", message: "the answer could not be recorded (the database is unavailable); nothing was charged" },
    });
    handBackLater(db, o.call.requestId, deps.log, storedAtStart || o.background ? (d) => endResponse(d, t.settings.id, "failed", failed) : undefined);
    if (!o.streamed) throw e;
    yield sequenced({ type: "response.failed", response: failed });
    return failed;
  }
  if (meanwhile) final = meanwhile;
  yield sequenced({ type: TERMINAL_EVENT[final.status] ?? "response.failed", response: final });
  return final;
}

class Cancelled extends Error {}

/** A turn that ends before its stream opened (the provider refused): nothing charged, logged. */
export async function settleUnopened(deps: AppDeps, call: PaidCall, status: number): Promise<void> {
  await call
    .finish({ charged: false, status, outcome: "upstream_error" })
    .catch((err) => deps.log(`responses ${call.requestId}: could not record: ${(err as Error).message}`));
}

/** The items a store:false continuation on the same socket starts from. */
export function contextAfter(t: PreparedTurn, final: ResponseObject): Item[] {
  return [...t.context, ...(final.output as OutputItem[])];
}
