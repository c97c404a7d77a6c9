// Writes of one kind that concurrent requests ask for, written by ONE statement (own-statement.ts:
// where statements are round trips, each commits by itself): one round trip and one commit for all
// of them, and a hot row (an organization's balance) locked and written once per batch instead of
// once per request, for that statement only. A batch takes what was asked within one turn of the
// event loop, and, while it runs, the next one gathers what is asked meanwhile (at most `inFlight`
// run at once, each on a pooled connection of its own).
// Reads of one kind batch the same way (keys.ts: the API-key lookups), one round trip for all.
import type { Db } from "./connect.ts";

/** Items one statement takes at most: a bound on its size. */
export const STATEMENT_BATCH_MAX = 256;

type Waiter<R> = { resolve: (value: R) => void; reject: (error: unknown) => void };
type Queue<T, R> = { items: T[]; waiters: Waiter<R>[]; running: number; scheduled: boolean };

/**
 * `run` writes every item of a batch in one statement and answers one result per item, in order.
 * Should it fail, every item of the batch gets that error: nothing of the batch was written (or,
 * for the database's trouble, it may all have been), and each caller goes its own way from there.
 */
export function statementBatch<T, R>(run: (db: Db, items: T[]) => Promise<R[]>, inFlight = 1): (db: Db, item: T) => Promise<R> {
  const queues = new WeakMap<Db, Queue<T, R>>();
  const next = (db: Db, q: Queue<T, R>) => {
    q.scheduled = false;
    while (q.running < inFlight && q.items.length > 0) {
      const items = q.items.splice(0, STATEMENT_BATCH_MAX);
      const waiters = q.waiters.splice(0, STATEMENT_BATCH_MAX);
      q.running++;
      run(db, items)
        .then(
          (results) => waiters.forEach((w, k) => w.resolve(results[k]!)),
          (e) => waiters.forEach((w) => w.reject(e)),
        )
        .finally(() => {
          q.running--;
          next(db, q);
        });
    }
  };
  return (db, item) =>
    new Promise<R>((resolve, reject) => {
      let q = queues.get(db);
      if (!q) queues.set(db, (q = { items: [], waiters: [], running: 0, scheduled: false }));
      q.items.push(item);
      q.waiters.push({ resolve, reject });
      if (q.running < inFlight && !q.scheduled) {
        q.scheduled = true;
        // After the current turn's I/O callbacks: the requests read in this turn join the batch.
        const queue = q;
        setImmediate(() => next(db, queue));
      }
    });
}
