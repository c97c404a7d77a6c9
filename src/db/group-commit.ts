// Group commit: the write transactions that concurrent requests ask for within one turn of the
// event loop run as one database transaction. A commit costs more than the writes in it (measured
// on SQLite in WAL mode: 48 µs for a settlement's three writes alone, 11 µs each when eight share
// a commit; on PostgreSQL each commit is a WAL flush), so under load this is most of a paid call.
//
// Each job still sees all-or-nothing: should the shared transaction fail (a job threw, a deadlock),
// it is rolled back and every job of the batch runs again in a transaction of its own, so that one
// job's error reaches only that job. Jobs are therefore database work only, safe to run again.
//
// On PostgreSQL too (measured with bench/scale.ts, A/B on one machine: paid Autofix 636–642 →
// 1039–1055 req/s on one replica, 466–490 → 802–845 on two; Embed 907–1005 → 1552–1777): fewer
// commits and round trips. There two replicas' batches that lock the same organizations in opposite
// orders can deadlock; PostgreSQL then aborts one (after deadlock_timeout, 1 s by default) and its
// jobs run again alone, as above.
import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

type Job = {
  work: (tx: Kysely<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/** Jobs one shared transaction takes at most: a bound on how long it holds the database. */
export const GROUP_COMMIT_MAX_JOBS = 256;

class GroupCommit {
  private queue: Job[] = [];
  private running = false;

  constructor(private readonly db: Kysely<Database>) {}

  run<T>(work: (tx: Kysely<Database>) => Promise<T>): Promise<T> {
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
    try {
      results = await this.db.transaction().execute(async (tx) => {
        const out: unknown[] = [];
        for (const job of batch) out.push(await job.work(tx));
        return out;
      });
    } catch {
      for (const job of batch) await this.alone(job);
      return;
    }
    batch.forEach((job, i) => job.resolve(results[i]));
  }

  private async alone(job: Job): Promise<void> {
    try {
      job.resolve(await this.db.transaction().execute((tx) => job.work(tx)));
    } catch (e) {
      job.reject(e);
    }
  }
}

const groups = new WeakMap<Kysely<Database>, GroupCommit>();

/**
 * Runs `work` in a write transaction shared with the other jobs queued in this turn; resolves
 * with its result once that transaction has committed.
 */
export function inSharedTransaction<T>(db: Kysely<Database>, work: (tx: Kysely<Database>) => Promise<T>): Promise<T> {
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new GroupCommit(db)));
  return group.run(work);
}
