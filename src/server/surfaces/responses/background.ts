// Background responses: the row is written first (queued, with the checked request and a lease),
// the answer goes back at once, and this process runs the turn, storing progress after every
// finished item and the events as they come, so GET and ?stream=true work from any process that
// reads the database. Cancel is a database write, made through any replica: the runner sees it at
// its next item or its next look (every CANCEL_POLL_MS), and in the process that took the cancel
// the run is aborted at once. A server that dies leaves a lapsed lease: the job is claimed by
// whichever replica sweeps first (FOR UPDATE SKIP LOCKED on PostgreSQL). One that never started
// (still queued) is run by that replica from its stored request; one that was running is failed,
// saying why (its stream was half told).
import {
  appendEvents,
  claimLapsedResponses,
  deleteEvents,
  endResponse,
  findOrganizationById,
  insertResponse,
  inputItemsOf,
  isRunning,
  renewLease,
  updateResponse,
  nextSequence,
  responseBody,
  type Db,
  type StoredResponse,
} from "../../../db/index.ts";
import { responseObject } from "../../../responses/object.ts";
import type { CreateBody } from "../../../responses/schema.ts";
import type { ResponseObject } from "../../../responses/types.ts";
import type { AppDeps } from "../../context.ts";
import { PaidCall } from "../../paid.ts";
import { prepareTurn, type PreparedTurn } from "./prepare.ts";
import { TURN } from "./price.ts";
import { ENDPOINT, openFirstRound, runTurn, type SequencedEvent } from "./run.ts";
import { bodyWithoutCredentials } from "../../../responses/object.ts";

/** This process, as a holder of job leases. */
const WORKER_ID = crypto.randomUUID();
/**
 * How long a claim on a running job holds without renewal (TESSERA_LEASE_SECONDS): renewed three
 * times per period, so it outlives a missed renewal or two, and a dead process's jobs are failed
 * about one period after it died.
 */
export const DEFAULT_LEASE_SECONDS = 30;
/** Events reach the database at least this often while a run streams (a replay's lag). */
const FLUSH_MS = 100;
/** How often a run looks for a cancel made through another replica, between its items. */
const CANCEL_POLL_MS = 1000;

const running = new Map<string, AbortController>();

const lease = (deps: AppDeps) => deps.config.leaseSeconds;

const seconds = () => Math.floor(Date.now() / 1000);

/** What a background job's row keeps (`responses.request`) so that any replica can run it. */
interface StoredJob {
  /** The create request as checked at the edge, without MCP credentials (never stored: a resumed job runs without them). */
  body: CreateBody;
  /** The request that created it: its credit hold and its log are under this id. */
  requestId: string;
  held: number;
  /** The application's user, when a frontend token created it. */
  userId?: string | null;
}

/** Writes the queued row and starts the run; returns the queued Response. */
export async function startBackground(deps: AppDeps, t: PreparedTurn, call: PaidCall): Promise<ResponseObject> {
  const queued = responseObject(t.settings, { status: "queued", output: [] });
  await insertResponse(deps.db, {
    id: t.settings.id,
    organizationId: t.org.id,
    status: "queued",
    model: t.settings.model,
    previousResponseId: t.settings.previous_response_id,
    conversationId: t.conversationId,
    userId: t.userId,
    background: true,
    body: queued,
    request: { body: bodyWithoutCredentials(t.body), requestId: call.requestId, held: call.held, userId: t.userId } satisfies StoredJob,
    worker: WORKER_ID,
    leaseUntil: seconds() + lease(deps),
    input: t.input,
  });
  // Tracked, so that a stopping server waits for the run's last writes (after failOwnRuns ended it).
  void deps.background.track(runBackground(deps, t, call).catch((e) => deps.log(`background ${t.settings.id}: ${e instanceof Error ? e.stack : String(e)}`)));
  return queued;
}

async function runBackground(deps: AppDeps, t: PreparedTurn, call: PaidCall): Promise<void> {
  const { db } = deps;
  const id = t.settings.id;
  const ac = new AbortController();
  running.set(id, ac);
  const period = lease(deps);
  // The run stops when its job is no longer its own: cancelled, failed or deleted through any
  // replica, or (after a stall longer than the lease) claimed by another replica's sweeper.
  const stopUnlessOurs = (ours: boolean) => {
    if (!ours) ac.abort();
  };
  const renew = setInterval(() => void renewLease(db, id, WORKER_ID, seconds() + period).then(stopUnlessOurs, () => {}), (period * 1000) / 3);
  const look = setInterval(() => void isRunning(db, id).then(stopUnlessOurs, () => {}), CANCEL_POLL_MS);
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
    const chunks = await openFirstRound(deps, t, ac.signal, call.requestId);
    const events = runTurn(deps, t, chunks, {
      call,
      signal: ac.signal,
      streamed: true,
      background: {
        onItemDone: async (snapshot) => {
          await flush();
          return updateResponse(db, id, "in_progress", snapshot);
        },
      },
    });
    for await (const e of events) {
      pending.push(e);
      if (e.type === "response.output_item.added" || Date.now() - flushedAt >= FLUSH_MS) await flush();
    }
    await flush();
  } finally {
    clearInterval(renew);
    clearInterval(look);
    running.delete(id);
  }
}

/** Stops this process's run of a response at once (other processes see the cancel at their next item). */
export function abortLocal(id: string): void {
  running.get(id)?.abort();
}

/**
 * Background responses whose process is gone: claimed by this process (so no other replica
 * sweeps the same one), then failed, saying why, instead of in progress forever.
 */
async function sweepLapsed(db: Db, log: (line: string) => void, leaseSeconds = DEFAULT_LEASE_SECONDS, deps?: AppDeps): Promise<number> {
  let n = 0;
  let resumed = 0;
  // This process's own run after a stall: the claim just renewed its lease; it goes on.
  for (const row of await claimLapsedResponses(db, WORKER_ID, seconds() + leaseSeconds)) {
    if (running.has(row.id)) continue;
    if (row.status === "queued" && deps && (await resumeQueued(deps, row).catch(() => false))) {
      resumed++;
      continue;
    }
    const failed: ResponseObject = {
      ...row.body,
      status: "failed",
      error: { code: "server_error", message: "the server running this background response stopped before it finished; nothing was charged" },
    };
    if (await endResponse(db, row.id, "failed", failed)) {
      // Replays end as every stream does: with its terminal event.
      const terminal: SequencedEvent = { type: "response.failed", response: failed, sequence_number: await nextSequence(db, row.id) };
      await appendEvents(db, row.id, [terminal]);
      n++;
    }
  }
  if (n) log(`background: ${n} interrupted response(s) marked failed`);
  if (resumed) log(`background: ${resumed} queued response(s) of a stopped server taken over`);
  return n;
}

/**
 * Runs a job another process queued and never started, from its stored request: the same id,
 * input items and credit hold. False when it cannot be run any more (an older row without a
 * stored job, an organization gone, a request this server cannot prepare): the caller fails it.
 */
async function resumeQueued(deps: AppDeps, row: StoredResponse): Promise<boolean> {
  const job = row.request as Partial<StoredJob> | null;
  if (!job?.body || typeof job.requestId !== "string") return false;
  const org = await findOrganizationById(deps.db, row.organization_id);
  if (!org) return false;
  const prepared = await prepareTurn(deps, org, job.body, undefined, { userId: job.userId ?? null });
  const t: PreparedTurn = {
    ...prepared,
    settings: { ...prepared.settings, id: row.id, created_at: row.created_at },
    input: await inputItemsOf(deps.db, row.id),
  };
  // The stopped process may have stored its first events (response.created) before it marked the
  // row in progress: this run tells the stream from its start again, under the same numbers.
  await deleteEvents(deps.db, row.id);
  const call = PaidCall.resumed(deps, org, TURN, ENDPOINT, job.requestId, job.held ?? 0);
  call.model = t.settings.model;
  call.input = t.input;
  void runBackground(deps, t, call).catch((e) => deps.log(`background ${row.id}: ${e instanceof Error ? e.stack : String(e)}`));
  return true;
}

/** Sweeps now and then every lease period; the timer never keeps the process alive. */
export async function startSweeper(db: Db, log: (line: string) => void, leaseSeconds: number, deps?: AppDeps): Promise<() => void> {
  await sweepLapsed(db, log, leaseSeconds, deps);
  const timer = setInterval(
    () => void sweepLapsed(db, log, leaseSeconds, deps).catch((e) => log(`background sweep failed: ${String(e)}`)),
    leaseSeconds * 1000,
  );
  timer.unref();
  return () => clearInterval(timer);
}

/** On a clean stop: this process's runs are failed now (no one else would finish them). */
export async function failOwnRuns(db: Db): Promise<void> {
  for (const [id, ac] of running) {
    const body = await responseBody(db, id);
    if (body) {
      await endResponse(db, id, "failed", {
        ...body,
        status: "failed",
        error: { code: "server_error", message: "the server stopped before this background response finished; nothing was charged" },
      });
    }
    // After the write: the run then finds its response ended and only hands back the credits.
    ac.abort();
  }
}
