// Request logs and reliability events outside of billing (free calls, errors) and the monitoring view.
import { sql, type Kysely, type Transaction } from "kysely";
import type { Db } from "./connect.ts";
import { nowIso } from "./clock.ts";
import { capabilities } from "./dialect.ts";
import { prepared } from "./prepared.ts";
import type { Database, NewReliabilityEvent, NewRequestLog } from "./schema.ts";

/** A library config block a request log refers to by hash (stored once per distinct block). */
export interface LoggedLibrary {
  hash: string;
  config: string;
}

/**
 * Stores the block unless a log already did; call in the transaction that writes the log.
 *
 * With concurrent writers (PostgreSQL) the retention purge, which deletes old blocks no log names,
 * could delete a stored block between a no-op insert here and the log that names it: the
 * settlement would then fail on the foreign key. So a block older than a day is first brought
 * forward to now, which also locks it to the end of the caller's transaction: the purge waits,
 * then finds it young and keeps it (or, had the purge deleted it first, the insert stores it
 * anew). A block used within the day is never the purge's (retention is counted in days), so the
 * common case takes no lock and settlements sharing a library do not queue on its row.
 */
export async function storeLibrary(tx: Kysely<Database> | Transaction<Database>, library: LoggedLibrary): Promise<void> {
  const now = Date.now();
  const at = nowIso(new Date(now));
  await refreshLibrary(tx, { hash: library.hash, at, staleBefore: nowIso(new Date(now - LIBRARY_REFRESH_MS)) });
  await insertLibrary(tx, { hash: library.hash, config: library.config, at });
}

/** A stored block older than this is brought forward when a log names it again (see storeLibrary). */
const LIBRARY_REFRESH_MS = 24 * 60 * 60 * 1000;

// Written with every logged request: compiled once (prepared.ts).
const refreshLibrary = prepared<{ hash: string; at: string; staleBefore: string }>((db, v) =>
  db
    .updateTable("log_libraries")
    .set({ created_at: v("at") })
    .where("hash", "=", v("hash"))
    .where("created_at", "<", v("staleBefore")),
);
const insertLibrary = prepared<{ hash: string; config: string; at: string }>((db, v) =>
  db
    .insertInto("log_libraries")
    .values({ hash: v("hash"), config: v("config"), created_at: v("at") })
    .onConflict((oc) => oc.column("hash").doNothing()),
);
type LogRow = Required<NewRequestLog>;
const insertLogRow = prepared<Omit<LogRow, "id">>((db, v) =>
  db.insertInto("request_logs").values({
    request_id: v("request_id"),
    organization_id: v("organization_id"),
    endpoint: v("endpoint"),
    model: v("model"),
    status: v("status"),
    conversation: v("conversation"),
    library_hash: v("library_hash"),
    outcome: v("outcome"),
    charge: v("charge"),
    duration_ms: v("duration_ms"),
    input_tokens: v("input_tokens"),
    output_tokens: v("output_tokens"),
    created_at: v("created_at"),
  }),
);
/**
 * Many logs as one statement whatever their number, for a database a statement is a round trip to
 * (dialect.ts: inProcess false): `rows` is JSON [[request_id, organization_id, …], …] in LOG_COLUMNS' order.
 */
const LOG_COLUMNS = [
  ["request_id", "text"],
  ["organization_id", "integer"],
  ["endpoint", "text"],
  ["model", "text"],
  ["status", "integer"],
  ["conversation", "text"],
  ["library_hash", "text"],
  ["outcome", "text"],
  ["charge", "bigint"],
  ["duration_ms", "integer"],
  ["input_tokens", "integer"],
  ["output_tokens", "integer"],
  ["created_at", "text"],
] as const satisfies readonly [keyof LogRow, string][];
const insertLogRows = prepared<{ rows: string }>(
  (db, v) => sql`
  INSERT INTO request_logs (${sql.join(LOG_COLUMNS.map(([name]) => sql.ref(name)))})
  SELECT ${sql.join(LOG_COLUMNS.map(([, type], i) => sql`CAST(${sql.ref(`c${i}`)} AS ${sql.raw(type)})`))}
  FROM ${capabilities(db).jsonTuples(v("rows"), LOG_COLUMNS.length)} AS logs ORDER BY n`,
);
const insertEventRow = prepared<Omit<Required<NewReliabilityEvent>, "id">>((db, v) =>
  db.insertInto("reliability_events").values({
    organization_id: v("organization_id"),
    model: v("model"),
    endpoint: v("endpoint"),
    outcome: v("outcome"),
    corrected_codes: v("corrected_codes"),
    created_at: v("created_at"),
  }),
);

/** What a call leaves besides its ledger row. */
export interface CallRecords {
  log: NewRequestLog | null;
  library: LoggedLibrary | null;
  event: NewReliabilityEvent | null;
}

/**
 * A call's log (with its library block, unless stored already: `libraryStored`, by this
 * transaction) and event, in the caller's transaction.
 */
export async function writeRecords(tx: Kysely<Database>, records: CallRecords, libraryStored = false): Promise<void> {
  if (records.library && !libraryStored) await storeLibrary(tx, records.library);
  if (records.log) {
    await insertLogRow(tx, {
      ...records.log,
      library_hash: records.library?.hash ?? null,
      input_tokens: records.log.input_tokens ?? null,
      output_tokens: records.log.output_tokens ?? null,
    });
  }
  if (records.event) await insertEventRow(tx, records.event);
}

/** A log as a row of insertLogRows (LOG_COLUMNS' order). */
function logRow(log: NewRequestLog, library: LoggedLibrary | null): unknown[] {
  const row: Omit<LogRow, "id"> = {
    ...log,
    library_hash: library?.hash ?? null,
    input_tokens: log.input_tokens ?? null,
    output_tokens: log.output_tokens ?? null,
    charge: log.charge ?? 0,
  };
  return LOG_COLUMNS.map(([name]) => row[name] ?? null);
}

/** What writeRecords writes, for a batch of calls: libraries (each once), then every log in one statement, then events. */
export async function writeBatch(tx: Kysely<Database>, batch: CallRecords[]): Promise<void> {
  const stored = new Set<string>();
  const logs: unknown[][] = [];
  for (const { library, log } of batch) {
    if (library && !stored.has(library.hash)) {
      await storeLibrary(tx, library);
      stored.add(library.hash);
    }
    if (log) logs.push(logRow(log, library));
  }
  if (logs.length) await insertLogRows(tx, { rows: JSON.stringify(logs) });
  for (const { event } of batch) if (event) await insertEventRow(tx, event);
}

const EVENT_COLUMNS = [
  ["organization_id", "integer"],
  ["model", "text"],
  ["endpoint", "text"],
  ["outcome", "text"],
  ["corrected_codes", "text"],
  ["created_at", "text"],
] as const satisfies readonly [keyof NewReliabilityEvent, string][];
/**
 * writeBatch's writes as ONE statement, for a database that runs writes inside WITH (PostgreSQL):
 * no BEGIN and COMMIT round trips of its own, atomic and committed by itself. `libraries` is JSON
 * [[hash, config], …] (each once; brought forward and locked as storeLibrary does), `logs` and
 * `events` JSON rows in LOG_COLUMNS' and EVENT_COLUMNS' order.
 */
const insertBatch = prepared<{ libraries: string; logs: string; events: string; at: string; staleBefore: string }>(
  (db, v) => sql`
  WITH lib AS (
    SELECT c0 AS hash, c1 AS config FROM ${capabilities(db).jsonTuples(v("libraries"), 2)} AS libraries
  ), refreshed AS (
    UPDATE log_libraries SET created_at = CAST(${v("at")} AS text) FROM lib
    WHERE log_libraries.hash = lib.hash AND log_libraries.created_at < CAST(${v("staleBefore")} AS text)
  ), stored AS (
    INSERT INTO log_libraries (hash, config, created_at) SELECT hash, config, CAST(${v("at")} AS text) FROM lib
    ON CONFLICT (hash) DO NOTHING
  ), logs AS (
    INSERT INTO request_logs (${sql.join(LOG_COLUMNS.map(([name]) => sql.ref(name)))})
    SELECT ${sql.join(LOG_COLUMNS.map(([, type], i) => sql`CAST(${sql.ref(`c${i}`)} AS ${sql.raw(type)})`))}
    FROM ${capabilities(db).jsonTuples(v("logs"), LOG_COLUMNS.length)} AS logs ORDER BY n
  )
  INSERT INTO reliability_events (${sql.join(EVENT_COLUMNS.map(([name]) => sql.ref(name)))})
  SELECT ${sql.join(EVENT_COLUMNS.map(([, type], i) => sql`CAST(${sql.ref(`c${i}`)} AS ${sql.raw(type)})`))}
  FROM ${capabilities(db).jsonTuples(v("events"), EVENT_COLUMNS.length)} AS events ORDER BY n`,
);

/** What writeBatch writes, as one statement outside any transaction (insertBatch; PostgreSQL). */
export async function writeBatchStatement(db: Db, batch: CallRecords[]): Promise<void> {
  const libraries = new Map<string, string>();
  const logs: unknown[][] = [];
  const events: unknown[][] = [];
  for (const { library, log, event } of batch) {
    if (library) libraries.set(library.hash, library.config);
    if (log) logs.push(logRow(log, library));
    if (event) events.push(EVENT_COLUMNS.map(([name]) => event[name] ?? (name === "corrected_codes" ? "[]" : null)));
  }
  const now = Date.now();
  await insertBatch(db, {
    libraries: JSON.stringify([...libraries]),
    logs: JSON.stringify(logs),
    events: JSON.stringify(events),
    at: nowIso(new Date(now)),
    staleBefore: nowIso(new Date(now - LIBRARY_REFRESH_MS)),
  });
}

export interface ModelReliability {
  model: string;
  requests: number;
  outcomes: Record<string, number>;
  corrections: { total: number; byCode: Record<string, number> };
}

/** Per model: request count, outcome counts and corrected error codes, for one organization. */
export async function reliabilitySummary(db: Db, orgId: number): Promise<ModelReliability[]> {
  const rows = await db
    .selectFrom("reliability_events")
    .select(["model", "outcome", "corrected_codes"])
    .where("organization_id", "=", orgId)
    .orderBy("model")
    .execute();
  const byModel = new Map<string, ModelReliability>();
  for (const row of rows) {
    let entry = byModel.get(row.model);
    if (!entry) {
      entry = { model: row.model, requests: 0, outcomes: {}, corrections: { total: 0, byCode: {} } };
      byModel.set(row.model, entry);
    }
    entry.requests++;
    entry.outcomes[row.outcome] = (entry.outcomes[row.outcome] ?? 0) + 1;
    const codes = JSON.parse(row.corrected_codes) as string[];
    if (codes.length > 0) entry.corrections.total++;
    for (const code of codes) entry.corrections.byCode[code] = (entry.corrections.byCode[code] ?? 0) + 1;
  }
  return [...byModel.values()];
}
