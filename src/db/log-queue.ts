// Request logs and reliability events, written off the request path: a call queues them, and one
// write takes everything queued within LOG_FLUSH_MS, each table in one multi-row INSERT (each
// distinct library block stored once). A statement run through kysely costs more than the rows it
// writes; one log and one event per call were a third of a paid call's writes (and the two rows
// of the library block two more). The money is not here: a call's ledger row commits with its
// charge, before it answers. What is queued is written before the server stops (flushLogs); a
// process that is killed loses what it queued in its last LOG_FLUSH_MS.
import type { Kysely } from "kysely";
import type { Db } from "./connect.ts";
import { inSharedTransaction } from "./group-commit.ts";
import { nowIso } from "./clock.ts";
import { storeLibrary, type LoggedLibrary, type QueuedRecords } from "./logs.ts";
import type { Database, NewReliabilityEvent, NewRequestLog } from "./schema.ts";

/** How long a queued record waits for others to share its write. */
export const LOG_FLUSH_MS = 5;
/** Records one write takes at most (rows per INSERT stay within every database's parameter limit). */
export const LOG_BATCH = 256;

class LogQueue {
  private queued: QueuedRecords[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db) {}

  add(records: QueuedRecords): void {
    this.queued.push(records);
    if (this.queued.length >= LOG_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), LOG_FLUSH_MS);
  }

  /** Writes everything queued so far; resolves when it is stored (or reported lost). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batches: QueuedRecords[][] = [];
    while (this.queued.length) batches.push(this.queued.splice(0, LOG_BATCH));
    // One write at a time, in order: a flush waits for those before it.
    this.writing = this.writing.then(async () => {
      for (const batch of batches) await this.write(batch);
    });
    return this.writing;
  }

  private async write(batch: QueuedRecords[]): Promise<void> {
    try {
      await inSharedTransaction(this.db, (tx) => writeAll(tx, batch));
    } catch {
      // One bad record (a foreign key an organization's deletion broke) must not take the
      // others with it: each is written alone, and one that still fails is reported.
      for (const records of batch) {
        await inSharedTransaction(this.db, (tx) => writeAll(tx, [records])).catch((e) =>
          console.error(`a request log could not be written (${records.log?.request_id ?? "event"}): ${(e as Error).message}`),
        );
      }
    }
  }
}

async function writeAll(tx: Kysely<Database>, batch: QueuedRecords[]): Promise<void> {
  const libraries = new Map<string, LoggedLibrary>();
  for (const { library } of batch) if (library) libraries.set(library.hash, library);
  for (const library of libraries.values()) await storeLibrary(tx, library);
  const logs = batch.flatMap((r) => (r.log ? [{ ...r.log, library_hash: r.library?.hash ?? null }] : []));
  const events = batch.flatMap((r) => (r.event ? [r.event] : []));
  if (logs.length) await tx.insertInto("request_logs").values(logs).execute();
  if (events.length) await tx.insertInto("reliability_events").values(events).execute();
}

const queues = new WeakMap<Db, LogQueue>();

/** Queues a call's log (with its library block) and event for the next write. */
export function queueRecords(db: Db, records: QueuedRecords): void {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new LogQueue(db)));
  queue.add(records);
}

/** A log outside of billing (a free or refused call), queued. */
export function writeRequestLog(db: Db, log: Omit<NewRequestLog, "created_at">, library: LoggedLibrary | null = null): void {
  queueRecords(db, { log: { ...log, created_at: nowIso() }, library, event: null });
}

export function writeReliabilityEvent(db: Db, event: Omit<NewReliabilityEvent, "created_at">): void {
  queueRecords(db, { log: null, library: null, event: { ...event, created_at: nowIso() } });
}

/** Writes what is queued now: before the database closes, and for readers who need it stored. */
export async function flushLogs(db: Db): Promise<void> {
  await queues.get(db)?.flush();
}
