// Queries on the paid path, built and compiled by kysely once per database and then run with new
// values. Building and compiling a query costs more than the database running it (measured in
// bun 1.4 on SQLite: 9 µs for a kysely primary-key select, 2–3 µs for the statement itself), and
// a paid request runs several. The SQL is still kysely's; only its values change.
import type { Compilable, CompiledQuery, Kysely, QueryResult, RawBuilder } from "kysely";
import type { Database } from "./schema.ts";

/** Stands where a value goes when the query is built; replaced by the caller's value when run. */
class Slot {
  constructor(readonly name: string) {}
}

type Values = Record<string, unknown>;

/**
 * A query built by `build` with `slot(name)` in place of each value, compiled on first use for
 * each database (SQLite and PostgreSQL write different SQL; a transaction shares its database's
 * adapter, the cache key) and run with `values[name]` in each slot.
 */
export function prepared<V extends Values, R = unknown>(
  build: (db: Kysely<Database>, slot: <K extends keyof V & string>(name: K) => V[K]) => Compilable<R> | RawBuilder<R>,
): (db: Kysely<Database>, values: V) => Promise<QueryResult<R>> {
  const compiled = new WeakMap<object, CompiledQuery<R>>();
  const slot = <K extends keyof V & string>(name: K) => new Slot(name) as V[K];
  return (db, values) => {
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) {
      // Raw SQL (sql``) compiles against the database it is given; a query builder ignores it.
      query = (build(db, slot) as { compile(db: Kysely<Database>): CompiledQuery<R> }).compile(db);
      compiled.set(adapter, query);
    }
    const parameters = query.parameters.map((p) => (p instanceof Slot ? values[p.name] : p));
    return db.executeQuery<R>({ ...query, parameters });
  };
}

/** Rows a write changed, whatever the driver calls the count. */
export function changedRows(result: QueryResult<unknown>): number {
  return Number(result.numAffectedRows ?? 0);
}
