// Request logs and reliability events, written off the request path: a call queues them, and one
// transaction writes everything queued within LOG_FLUSH_MS (each distinct library block stored
// once). Written in the paid transaction, a call's log, event and library block were five of its
// seven statements, and its commit waited for them. The money is not here: a call's ledger row
// commits with its charge, before it answers. What is queued is written before the server stops
// (flushLogs); a process that is killed loses what it queued in its last LOG_FLUSH_MS.
import type { Kysely } from "kysely";
import type { Db } from "./connect.ts";
import { inSharedTransaction } from "./group-commit.ts";
import { nowIso } from "./clock.ts";
import { troubleOf } from "./trouble.ts";
import { writeBatch, writeBatchStatement, writeRecords, type LoggedLibrary, type CallRecords } from "./logs.ts";
import { capabilities } from "./dialect.ts";
import type { Database, NewReliabilityEvent, NewRequestLog } from "./schema.ts";

/** How long a queued record waits for others to share its write. */
export const LOG_FLUSH_MS = 5;
/** Records one write takes at most: a bound on how long it holds the database. */
export const LOG_BATCH = 256;
/** While the database is in trouble, queued records wait this long between tries … */
export const LOG_RETRY_MS = 1000;
/** … and at most this many are kept (past it, a batch that still fails is reported lost, record by record). */
export const LOG_BACKLOG = 50_000;

class LogQueue {
  private queued: CallRecords[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db) {}

  add(records: CallRecords): void {
    this.queued.push(records);
    if (this.queued.length >= LOG_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), LOG_FLUSH_MS);
  }

  /** Writes everything queued so far; resolves when it is stored (or reported lost). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batches: CallRecords[][] = [];
    while (this.queued.length) batches.push(this.queued.splice(0, LOG_BATCH));
    // One write at a time, in order: a flush waits for those before it.
    this.writing = this.writing.then(async () => {
      for (const batch of batches) await this.write(batch);
    });
    return this.writing;
  }

  private async write(batch: CallRecords[]): Promise<void> {
    try {
      const caps = capabilities(this.db);
      // Where a statement is a round trip (PostgreSQL), the batch is one statement, committed by
      // itself: no BEGIN and COMMIT round trips, and no wait for the shared transaction.
      if (caps.modifyingCte && !caps.inProcess) await writeBatchStatement(this.db, batch);
      else await inSharedTransaction(this.db, (tx) => writeAll(tx, batch));
    } catch (e) {
      // The database is in trouble (unreachable, locked, full): nothing is wrong with the records.
      // They wait, queued, for the next flush after a pause, up to a bound on what is kept.
      if (troubleOf(e) && this.queued.length + batch.length <= LOG_BACKLOG) {
        this.queued.unshift(...batch);
        this.timer ??= setTimeout(() => void this.flush(), LOG_RETRY_MS);
        this.timer.unref?.();
        return;
      }
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

// SQLite: row by row, each insert compiled once (prepared.ts): a multi-row INSERT built by kysely
// for each write cost more per row (22 µs) than the prepared statements it replaced. PostgreSQL:
// every log of the batch in one statement of one shape (writeBatch), as each statement is a round trip.
async function writeAll(tx: Kysely<Database>, batch: CallRecords[]): Promise<void> {
  if (!capabilities(tx).inProcess) return writeBatch(tx, batch);
  const stored = new Set<string>();
  for (const records of batch) {
    const hash = records.library?.hash;
    await writeRecords(tx, records, hash !== undefined && stored.has(hash));
    if (hash !== undefined) stored.add(hash);
  }
}

const queues = new WeakMap<Db, LogQueue>();

/** Queues a call's log (with its library block) and event for the next write. */
export function queueRecords(db: Db, records: CallRecords): void {
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
