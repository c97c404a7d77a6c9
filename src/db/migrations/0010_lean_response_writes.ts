// A stored turn writes its response row and items once, and on SQLite a commit costs about the
// pages it writes (one log frame each). A turn wrote nine: the two tables, their four indexes,
// the status and worker indexes, and sqlite_sequence (AUTOINCREMENT). Now fewer:
//   - responses_status (background, status) held every response, though only background jobs are
//     read by it (the claim sweep): now responses_background, partial, background jobs only.
//   - responses_worker held every response, most with no worker (a response that has ended): now
//     partial, running ones only (a dead owner's are found by `worker = ?`, which implies it).
//   - SQLite: responses, response_items and conversation_items keep plain rowids for `seq`, not
//     AUTOINCREMENT. A new row still takes a seq above every row there (the largest plus one);
//     only a seq whose row was deleted may be taken again, and no reader keeps one: cursors name
//     an item by its id, orders compare the rows that exist. PostgreSQL's identity needs no table.
// On SQLite the three tables are copied into their new shape (rows and seq kept), in one transaction.
import { sql, type Kysely } from "kysely";
import { capabilities } from "../dialect.ts";

export async function up(db: Kysely<unknown>): Promise<void> {
  await inOneTransaction(db, async (tx) => {
    if (capabilities(db).autoincrement) await rebuild(tx, sql`integer primary key`);
    else {
      await sql`DROP INDEX responses_status`.execute(tx);
      await sql`DROP INDEX responses_worker`.execute(tx);
    }
    await sql`CREATE INDEX responses_background ON responses (status) WHERE background = 1`.execute(tx);
    await sql`CREATE INDEX responses_worker ON responses (worker) WHERE worker IS NOT NULL`.execute(tx);
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await inOneTransaction(db, async (tx) => {
    if (capabilities(db).autoincrement) await rebuild(tx, sql`integer primary key autoincrement`);
    else {
      await sql`DROP INDEX responses_background`.execute(tx);
      await sql`DROP INDEX responses_worker`.execute(tx);
    }
    await sql`CREATE INDEX responses_status ON responses (background, status)`.execute(tx);
    await sql`CREATE INDEX responses_worker ON responses (worker)`.execute(tx);
  });
}

/** PostgreSQL's migrations already run in one transaction (transactional DDL); SQLite's are given one here. */
async function inOneTransaction(db: Kysely<unknown>, work: (tx: Kysely<unknown>) => Promise<void>): Promise<void> {
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}

/**
 * SQLite cannot change a column's key in place: each table is copied into its new shape (the
 * columns in their order, 0002 and 0006) and its indexes made again; the partial ones are the caller's.
 */
async function rebuild(tx: Kysely<unknown>, seq: ReturnType<typeof sql>): Promise<void> {
  await sql`CREATE TABLE responses_new (
    seq ${seq},
    id text not null unique,
    organization_id integer not null references organizations (id),
    status text not null,
    model text not null,
    previous_response_id text,
    conversation_id text,
    background integer default 0 not null,
    body text not null,
    request text,
    worker text,
    lease_until integer,
    created_at integer not null,
    updated_at integer not null,
    user_id text
  )`.execute(tx);
  await sql`INSERT INTO responses_new SELECT seq, id, organization_id, status, model, previous_response_id, conversation_id, background,
    body, request, worker, lease_until, created_at, updated_at, user_id FROM responses ORDER BY seq`.execute(tx);
  await sql`DROP TABLE responses`.execute(tx);
  await sql`ALTER TABLE responses_new RENAME TO responses`.execute(tx);

  await sql`CREATE TABLE response_items_new (
    seq ${seq},
    id text not null,
    response_id text not null,
    organization_id integer not null,
    role text not null,
    item text not null
  )`.execute(tx);
  await sql`INSERT INTO response_items_new SELECT seq, id, response_id, organization_id, role, item FROM response_items ORDER BY seq`.execute(tx);
  await sql`DROP TABLE response_items`.execute(tx);
  await sql`ALTER TABLE response_items_new RENAME TO response_items`.execute(tx);
  await sql`CREATE INDEX response_items_resp ON response_items (response_id, seq)`.execute(tx);
  await sql`CREATE INDEX response_items_id ON response_items (organization_id, id)`.execute(tx);

  await sql`CREATE TABLE conversation_items_new (
    seq ${seq},
    id text not null unique,
    conversation_id text not null,
    organization_id integer not null,
    item text not null,
    created_at integer not null
  )`.execute(tx);
  await sql`INSERT INTO conversation_items_new SELECT seq, id, conversation_id, organization_id, item, created_at FROM conversation_items ORDER BY seq`.execute(
    tx,
  );
  await sql`DROP TABLE conversation_items`.execute(tx);
  await sql`ALTER TABLE conversation_items_new RENAME TO conversation_items`.execute(tx);
  await sql`CREATE INDEX conversation_items_conv ON conversation_items (conversation_id, seq)`.execute(tx);
}
