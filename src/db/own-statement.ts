// A paid call's writes on a database server (PostgreSQL): each one statement, run by itself on a
// pooled connection, outside any transaction. A single statement is atomic alone (its WITH parts
// included), so it needs no BEGIN and COMMIT round trips, it holds the row locks it takes (an
// organization's balance, on a hold) for that statement only, and the pool runs several at once.
// A shared transaction (group-commit.ts) is one at a time per process: measured at 32 requests in
// flight, its connection sat idle in transaction waiting for this process's next statement, which
// waited behind every other request's work on the event loop, and with two replicas each batch held
// the one organization row the other's holds needed until it committed.
//
// SQLite, where a statement costs no round trip and a commit more than the writes in it, keeps the
// shared transaction; so does anything that is not one statement here (the fallback).
import type { Db } from "./connect.ts";
import { capabilities } from "./dialect.ts";
import { inSharedTransaction, type Work } from "./group-commit.ts";
import { isRetriable } from "./trouble.ts";

/**
 * Runs `statement` alone where statements are round trips to a server; it answers undefined when
 * its one statement could not do the whole write (it then wrote nothing), and `fallback` runs in
 * a shared transaction, as it does everywhere else. So does a statement that failed: it may have
 * been a batch's (statement-batch.ts), failed by another job's write, and the fallback gives this
 * job's own answer or error. A statement cut by the database's trouble may have committed:
 * `fallback` then runs with `maybeDone` (it looks for what it would write first).
 */
export async function inOwnStatement<T>(db: Db, statement: (db: Db) => Promise<T | undefined>, fallback: Work<T>): Promise<T> {
  const caps = capabilities(db);
  let cut = false;
  if (!caps.inProcess && caps.modifyingCte) {
    try {
      const done = await statement(db);
      if (done !== undefined) return done;
    } catch (e) {
      cut = isRetriable(e);
    }
  }
  return inSharedTransaction(db, (tx, maybeDone) => fallback(tx, maybeDone || cut));
}
