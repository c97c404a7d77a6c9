// Queries on the paid path, built and compiled by kysely once per database and then run with new
// values. Building and compiling a query costs more than the database running it (measured in
// bun 1.4 on SQLite: 9 µs for a kysely primary-key select, 2–3 µs for the statement itself), and
// a paid request runs several. The SQL is still kysely's; only its values change. On SQLite it
// runs directly on the connection where it can, past kysely's executor (sqlite-dialect.ts: runNow).
import type { Compilable, CompiledQuery, Kysely, QueryResult, RawBuilder } from "kysely";
import type { Database } from "./schema.ts";
import { directRunner } from "./sqlite-dialect.ts";

/** Stands where a value goes when the query is built; replaced by the caller's value when run. */
class Slot {
  constructor(readonly name: string) {}
}

type Values = Record<string, unknown>;

/** A compiled query and, for each of its parameters, the slot it takes its value from (or null: a constant). */
type Compiled<R> = { query: CompiledQuery<R>; slots: (string | null)[] };

/**
 * A query built by `build` with `slot(name)` in place of each value, compiled on first use for
 * each database (SQLite and PostgreSQL write different SQL; a transaction shares its database's
 * adapter, the cache key) and run with `values[name]` in each slot. `shared`: a read that may run
 * in a read transaction shared with the same reads of concurrent requests (sqlite-dialect.ts).
 */
export function prepared<V extends Values, R = unknown>(
  build: (db: Kysely<Database>, slot: <K extends keyof V & string>(name: K) => V[K]) => Compilable<R> | RawBuilder<R>,
  opts: { shared?: boolean } = {},
): (db: Kysely<Database>, values: V) => Promise<QueryResult<R>> {
  const compiled = new WeakMap<object, Compiled<R>>();
  const slot = <K extends keyof V & string>(name: K) => new Slot(name) as V[K];
  return (db, values) => {
    const adapter = db.getExecutor().adapter;
    let c = compiled.get(adapter);
    if (!c) {
      // Raw SQL (sql``) compiles against the database it is given; a query builder ignores it.
      const query = (build(db, slot) as { compile(db: Kysely<Database>): CompiledQuery<R> }).compile(db);
      c = { query, slots: query.parameters.map((p) => (p instanceof Slot ? p.name : null)) };
      compiled.set(adapter, c);
    }
    const { query, slots } = c;
    const parameters: unknown[] = new Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const name = slots[i];
      parameters[i] = name === null ? query.parameters[i] : values[name];
    }
    const run = { sql: query.sql, query: query.query, queryId: query.queryId, parameters };
    const direct = directRunner(db);
    if (direct) {
      try {
        const done = opts.shared && !db.isTransaction ? direct.readShared<R>(run) : direct.runNow<R>(run, db.isTransaction);
        if (done) return Promise.resolve(done);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return db.executeQuery<R>(run);
  };
}

/** Rows a write changed, whatever the driver calls the count. */
export function changedRows(result: QueryResult<unknown>): number {
  return Number(result.numAffectedRows ?? 0);
}
