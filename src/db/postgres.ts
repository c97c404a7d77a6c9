// PostgreSQL: a `pg` pool per process behind kysely's PostgresDialect. Several replicas share one
// database; every connection of the pool is a possible concurrent writer.
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { registerCapabilities } from "./dialect.ts";
import type { Database } from "./schema.ts";

export const DEFAULT_POOL_SIZE = 10;
/**
 * How long a query waits for a free connection (all busy, or the server unreachable) before it
 * fails: a request then answers an error instead of hanging until its client gives up.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

// pg hands int8 (bigint: identity columns, count(*), sum()) and numeric back as strings. Every
// integer this service stores is a whole number well inside 2^53, and the code expects numbers:
// parse them, and refuse (rather than round) one that would not be exact.
const INT8 = 20;
const NUMERIC = 1700;
function exactNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`database returned ${text}, which is not an exact JavaScript integer`);
  return n;
}
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8 || oid === NUMERIC) return exactNumber;
    return pg.types.getTypeParser(oid, format as "text");
  },
};

/** Distinct SQL texts given a name (a statement prepared once per connection); past it, a text is parsed at every run. */
export const NAMED_STATEMENTS = 512;
const statementNames = new Map<string, string>();

/**
 * The client runs each query with parameters (kysely's: the SQL text repeats, the values change) as
 * a named statement: the server parses and plans it once per connection, not at every run.
 */
function namedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    if (typeof text === "string" && Array.isArray(values) && values.length > 0 && rest.length === 0) {
      let name = statementNames.get(text);
      if (name === undefined && statementNames.size < NAMED_STATEMENTS) statementNames.set(text, (name = `tessera_${statementNames.size}`));
      if (name !== undefined) return query({ name, text, values });
    }
    return query(text, values, ...rest);
  };
}

export function openPostgres(url: string, poolSize = DEFAULT_POOL_SIZE): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, types: types as never });
  // A client that loses its server (a restart, a failover) must not take the process down: the
  // pool reports idle ones here, but one checked out between two queries of a transaction emits
  // 'error' on itself, and an 'error' without a listener ends the process. Its query fails too,
  // and the pool drops the broken client when it is released; a new one connects on demand.
  pool.on("error", (e) => console.error(`postgres pool: ${e.message}`));
  pool.on("connect", (client) => {
    client.on("error", (e) => console.error(`postgres connection lost: ${e.message}`));
    namedStatements(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  registerCapabilities(db, {
    label: "postgres",
    skipLocked: true,
    modifyingCte: true,
    inProcess: false,
    autoincrement: false,
    // jsonb: parsed once, each ->> an index into it (json's ->> parses the element again for every
    // column: a batch of turns' rows, each with its Response object, paid that width times over).
    jsonTuples: (json, width) => {
      const columns = Array.from({ length: width }, (_, i) => sql`e->>${sql.lit(i)} AS ${sql.ref(`c${i}`)}`);
      return sql`(SELECT ${sql.join(columns)}, n FROM jsonb_array_elements(CAST(${json} AS jsonb)) WITH ORDINALITY AS t(e, n))`;
    },
  });
  return db;
}
