// Background responses: the row is written first (queued, with the checked request and a lease),
// the answer goes back at once, and this process runs the turn, storing progress after every
// finished item and the events as they come, so GET and ?stream=true work from any process that
// reads the database. Cancel is a database write the runner sees at its next item (and, in this
// process, an abort at once). A server that dies mid-run leaves a lapsed lease: swept as failed.
import {
  appendEvents, endResponse, insertResponse, lapsedBackgroundResponses, renewLease, updateResponse, type Db,
} from "../../db/index.ts";
import { responseObject } from "../../responses/object.ts";
import type { ResponseObject } from "../../responses/types.ts";
import type { AppDeps } from "../context.ts";
import type { PreparedTurn } from "./prepare.ts";
import { openTurn, runTurn, type SequencedEvent } from "./run.ts";

/** This process, as a holder of job leases. */
export const WORKER_ID = crypto.randomUUID();
/**
 * How long a claim on a running job holds without renewal (TESSERA_LEASE_SECONDS): renewed three
 * times per period, so it outlives a missed renewal or two, and a dead process's jobs are failed
 * about one period after it died.
 */
export const DEFAULT_LEASE_SECONDS = 30;
/** Events reach the database at least this often while a run streams (a replay's lag). */
const FLUSH_MS = 100;

const running = new Map<string, AbortController>();

const lease = (deps: AppDeps) => deps.config.leaseSeconds ?? DEFAULT_LEASE_SECONDS;

const seconds = () => Math.floor(Date.now() / 1000);

/** Writes the queued row and starts the run; returns the queued Response. */
export async function startBackground(deps: AppDeps, t: PreparedTurn, o: { requestId: string; startedAt: number; held: number }): Promise<ResponseObject> {
  const queued = responseObject(t.settings, { status: "queued", output: [] });
  await insertResponse(deps.db, {
    id: t.settings.id, organizationId: t.org.id, status: "queued", model: t.settings.model,
    previousResponseId: t.settings.previous_response_id, conversationId: t.conversationId, background: true,
    body: queued, request: t.body, worker: WORKER_ID, leaseUntil: seconds() + lease(deps), input: t.input,
  });
  // Tracked, so that a stopping server waits for the run's last writes (after failOwnRuns ended it).
  void deps.background.track(runBackground(deps, t, o).catch((e) => deps.log(`background ${t.settings.id}: ${e instanceof Error ? e.stack : String(e)}`)));
  return queued;
}

async function runBackground(deps: AppDeps, t: PreparedTurn, o: { requestId: string; startedAt: number; held: number }): Promise<void> {
  const { db } = deps;
  const id = t.settings.id;
  const ac = new AbortController();
  running.set(id, ac);
  const period = lease(deps);
  const renew = setInterval(() => void renewLease(db, id, WORKER_ID, seconds() + period).catch(() => {}), (period * 1000) / 3);
  let pending: SequencedEvent[] = [];
  let flushedAt = Date.now();
  const flush = async () => {
    const batch = pending;
    pending = [];
    flushedAt = Date.now();
    await appendEvents(db, id, batch);
  };
  try {
    // A turn that cannot open is stored as a failed response, with the reason.
    const chunks = await openTurn(t, ac.signal);
    const events = runTurn(deps, t, chunks, {
      ...o, signal: ac.signal,
      background: { onItemDone: async (snapshot) => { await flush(); return updateResponse(db, id, "in_progress", snapshot); } },
    });
    for await (const e of events) {
      pending.push(e);
      if (e.type === "response.output_item.added" || Date.now() - flushedAt >= FLUSH_MS) await flush();
    }
    await flush();
  } finally {
    clearInterval(renew);
    running.delete(id);
  }
}

/** Stops this process's run of a response at once (other processes see the cancel at their next item). */
export function abortLocal(id: string): void {
  running.get(id)?.abort();
}

/** Background responses whose process is gone: failed, saying why, instead of in progress forever. */
export async function sweepLapsed(db: Db, log: (line: string) => void): Promise<number> {
  let n = 0;
  for (const row of await lapsedBackgroundResponses(db)) {
    if (running.has(row.id)) continue;
    const body = JSON.parse(row.body) as ResponseObject;
    const failed: ResponseObject = {
      ...body, status: "failed",
      error: { code: "server_error", message: "the server running this background response stopped before it finished; nothing was charged" },
    };
    if (await endResponse(db, row.id, "failed", failed)) {
      // Replays end as every stream does: with its terminal event.
      const terminal = { type: "response.failed", response: failed, sequence_number: await nextSequence(db, row.id) };
      await appendEvents(db, row.id, [terminal]);
      n++;
    }
  }
  if (n) log(`background: ${n} interrupted response(s) marked failed`);
  return n;
}

async function nextSequence(db: Db, id: string): Promise<number> {
  const row = await db.selectFrom("response_events").select((eb) => eb.fn.max("sequence_number").as("n")).where("response_id", "=", id).executeTakeFirst();
  return row?.n == null ? 0 : Number(row.n) + 1;
}

/** Sweeps now and then every lease period; the timer never keeps the process alive. */
export async function startSweeper(db: Db, log: (line: string) => void, leaseSeconds: number): Promise<() => void> {
  await sweepLapsed(db, log);
  const timer = setInterval(() => void sweepLapsed(db, log).catch((e) => log(`background sweep failed: ${String(e)}`)), leaseSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** On a clean stop: this process's runs are failed now (no one else would finish them). */
export async function failOwnRuns(db: Db): Promise<void> {
  for (const [id, ac] of running) {
    const row = await db.selectFrom("responses").select("body").where("id", "=", id).executeTakeFirst();
    if (row) {
      const body = JSON.parse(row.body) as ResponseObject;
      await endResponse(db, id, "failed", { ...body, status: "failed", error: { code: "server_error", message: "the server stopped before this background response finished; nothing was charged" } });
    }
    // After the write: the run then finds its response ended and only hands back the credits.
    ac.abort();
  }
}
