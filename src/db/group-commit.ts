// Group commit: the write transactions that concurrent requests ask for within one turn of the
// event loop run as one database transaction. A commit costs more than the writes in it (measured
// on SQLite in WAL mode: 48 µs for a settlement's three writes alone, 11 µs each when eight share
// a commit; on PostgreSQL each commit is a WAL flush), so under load this is most of a paid call.
//
// Each job still sees all-or-nothing: should the shared transaction fail (a job threw, a deadlock),
// it is rolled back and every job of the batch runs again in a transaction of its own, so that one
// job's error reaches only that job. Jobs are therefore database work only, safe to run again.
// A job's own transaction cut by the database (a restart, a deadlock) runs again after a pause,
// a few times (RETRY_DELAYS_MS), before its caller gets the error.
//
// On PostgreSQL too (measured with bench/scale.ts, A/B on one machine: paid Autofix 636–642 →
// 1039–1055 req/s on one replica, 466–490 → 802–845 on two; Embed 907–1005 → 1552–1777): fewer
// commits and round trips. There two replicas' batches that lock the same organizations in opposite
// orders can deadlock; PostgreSQL then aborts one (after deadlock_timeout, 1 s by default) and its
// jobs run again alone, as above.
import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";
import { isRetriable } from "./trouble.ts";

/**
 * A job's work. `maybeDone` is true when it runs again after a transaction of which every write
 * was made and only the commit failed (the connection died in it): that commit may have landed,
 * so work that must not happen twice (a charge) first looks for what it would write.
 */
export type Work<T> = (tx: Kysely<Database>, maybeDone: boolean) => Promise<T>;

/**
 * Waits before each new try of a transaction the database cut (a restart, a lost connection, a
 * deadlock): about 2.6 s in all, the time a PostgreSQL restart takes, before the caller gets the error.
 */
export const RETRY_DELAYS_MS = [100, 300, 700, 1500];

type Job = {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/** Jobs one shared transaction takes at most: a bound on how long it holds the database. */
export const GROUP_COMMIT_MAX_JOBS = 256;

class GroupCommit {
  private queue: Job[] = [];
  private running = false;

  constructor(private readonly db: Kysely<Database>) {}

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running) {
        this.running = true;
        // After the current turn's I/O callbacks: the requests read in this turn join the batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, GROUP_COMMIT_MAX_JOBS);
      if (batch.length === 1) await this.alone(batch[0]!);
      else await this.together(batch);
    }
    this.running = false;
  }

  private async together(batch: Job[]): Promise<void> {
    let results: unknown[];
    let worked = false;
    try {
      results = await this.db.transaction().execute(async (tx) => {
        const out: unknown[] = [];
        for (const job of batch) out.push(await job.work(tx, false));
        worked = true;
        return out;
      });
    } catch {
      for (const job of batch) await this.alone(job, worked);
      return;
    }
    batch.forEach((job, i) => job.resolve(results[i]));
  }

  private async alone(job: Job, maybeDone = false): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let worked = false;
      try {
        const value = await this.db.transaction().execute(async (tx) => {
          const out = await job.work(tx, maybeDone);
          worked = true;
          return out;
        });
        job.resolve(value);
        return;
      } catch (e) {
        maybeDone ||= worked;
        if (!isRetriable(e) || attempt >= RETRY_DELAYS_MS.length) {
          job.reject(e);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
      }
    }
  }
}

const groups = new WeakMap<Kysely<Database>, GroupCommit>();

/**
 * Runs `work` in a write transaction shared with the other jobs queued in this turn; resolves
 * with its result once that transaction has committed.
 */
export function inSharedTransaction<T>(db: Kysely<Database>, work: Work<T>): Promise<T> {
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new GroupCommit(db)));
  return group.run(work);
}
