// kysely on the runtime's SQLite (src/runtime: bun:sqlite, or node:sqlite adapted to its shape), with each distinct SQL text prepared once. kysely-bun-sqlite prepares every
// query anew (5 µs of a 13 µs key lookup, measured in bun 1.4); this driver keeps the prepared
// statements of the last STATEMENT_CACHE_SIZE SQL texts. Queries stay kysely queries: only the
// connection under them changes. One connection, used by one query or transaction at a time.
// A statement that finds the file locked by another process waits for it off the event loop
// (sqlite-busy.ts); a transaction takes the write lock as it begins, so that its statements do not
// meet the lock half-way, where they could not simply run again.
//
// Two shortcuts for the paid path's statements, compiled by kysely once (prepared.ts):
//   - runNow: a statement runs on the connection at once, synchronously, when its caller holds the
//     connection (a statement of the transaction that has it) or nobody does. kysely's executor
//     wraps each statement in about ten promises (connection provider, lock, result plugins): 5–6 µs
//     of a 1–5 µs statement, measured in bun 1.4. Otherwise (another transaction has the connection)
//     the statement takes kysely's way and waits its turn, as every other query does.
//   - readShared: concurrent reads of one kind (the API-key lookups of the requests that arrived
//     together) share one read transaction. In WAL mode each transaction locks and unlocks the
//     -shm file (two or three system calls, ~9 µs here); a statement inside one costs ~1 µs. The
//     first read begins it and runs at once (a lone request waits for nothing); it ends when
//     anything else wants the connection, or at the end of this turn of the event loop (every read
//     still runs after its request arrived: a key revoked before then is refused).
import type { SqliteConnection as SqliteDatabase, SqliteStatement as Statement } from "../runtime/index.ts";
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from "kysely";
import { isSqliteBusy, retryWhileBusy } from "./sqlite-busy.ts";

/** Distinct SQL texts kept prepared: every query the service runs, with room for `in (…)` lists of other lengths. */
export const STATEMENT_CACHE_SIZE = 256;

/** A prepared statement as cached: whether it returns rows (asked once), and whether it ran since the last eviction. */
interface Cached {
  stmt: Statement;
  rows: boolean;
  used: boolean;
}

class CachedStatementConnection implements DatabaseConnection {
  private readonly statements = new Map<string, Cached>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly onWait?: (waitMs: number) => void,
  ) {}

  /**
   * The statement for `sql`, prepared on first use. Past STATEMENT_CACHE_SIZE the oldest one not
   * used since it was last passed over goes (a second chance: a hit only sets a flag, where moving
   * the entry to the end cost two more map operations per statement).
   */
  private prepare(sql: string): Cached {
    const hit = this.statements.get(sql);
    if (hit) {
      hit.used = true;
      return hit;
    }
    const stmt = this.db.prepare(sql);
    while (this.statements.size >= STATEMENT_CACHE_SIZE) {
      const [oldest, old] = this.statements.entries().next().value!;
      this.statements.delete(oldest);
      if (old.used) {
        old.used = false;
        this.statements.set(oldest, old);
      } else old.stmt.finalize();
    }
    const cached = { stmt, rows: stmt.columnNames.length > 0, used: false };
    this.statements.set(sql, cached);
    return cached;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(this.run<R>(query));
    } catch (e) {
      // Inside a transaction only its end may run again; its other statements fail it (it rolls back).
      if (!isSqliteBusy(e) || (this.db.inTransaction && query.sql !== "commit")) return Promise.reject(e);
      return retryWhileBusy(() => this.run<R>(query), this.onWait);
    }
  }

  run<R>(query: CompiledQuery): QueryResult<R> {
    const { stmt, rows } = this.prepare(query.sql);
    const parameters = query.parameters as never[];
    if (rows) return { rows: stmt.all(...parameters) as R[] };
    const result = stmt.run(...parameters);
    return { insertId: BigInt(result.lastInsertRowid), numAffectedRows: BigInt(result.changes), rows: [] };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // A statement being iterated cannot serve another query: streams get their own.
    const stmt = this.db.prepare(query.sql);
    try {
      for (const row of stmt.iterate(...(query.parameters as never[]))) yield { rows: [row as R] };
    } finally {
      stmt.finalize();
    }
  }

  close(): void {
    for (const { stmt } of this.statements.values()) stmt.finalize();
    this.statements.clear();
  }
}

const BEGIN_READ = CompiledQuery.raw("begin");
const BEGIN_WRITE = CompiledQuery.raw("begin immediate");
const COMMIT = CompiledQuery.raw("commit");
const ROLLBACK = CompiledQuery.raw("rollback");

class CachedStatementDriver implements Driver {
  readonly connection: CachedStatementConnection;
  /** Whether someone has the connection (kysely, or an open shared read); those waiting for it, in order. */
  private held = false;
  private readonly waiting: (() => void)[] = [];
  /** The shared read transaction, while it is open (it then has the connection). */
  private sharing = false;
  private closed = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly opts: DialectOptions,
  ) {
    this.connection = new CachedStatementConnection(db, opts.onBusyWait);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.sharing) this.endShare(true);
    else if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held = true;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // Immediate: the write lock now, waited for here if another process has it (every
    // transaction here writes; on the one connection it costs nothing more).
    await connection.executeQuery(BEGIN_WRITE);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(COMMIT);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // SQLite rolls a transaction back itself when a write fails on a full disk or an I/O error; a
    // rollback then fails with "no transaction is active" and would hide the error that matters.
    try {
      await connection.executeQuery(ROLLBACK);
    } catch (e) {
      if (!/no transaction is active/i.test((e as Error).message)) throw e;
    }
  }

  async releaseConnection(): Promise<void> {
    this.release();
  }

  /** Hands the connection to the next in line, if any. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }

  /**
   * `query` run now, when the caller may: `inTransaction` (a statement of the transaction that
   * has the connection) or nobody has it. Undefined when it must wait its turn (kysely's way), or
   * when it found the file locked by another process outside a transaction (it did nothing, and
   * kysely's way waits for the lock: sqlite-busy.ts).
   */
  runNow<R>(query: CompiledQuery, inTransaction: boolean): QueryResult<R> | undefined {
    if (this.closed) return undefined;
    if (inTransaction) {
      // Only the transaction that has the connection holds a handle to it while it is open.
      return this.db.inTransaction ? this.connection.run<R>(query) : undefined;
    }
    if (this.sharing) this.endShare(false);
    if (this.held || this.db.inTransaction) return undefined;
    try {
      return this.connection.run<R>(query);
    } catch (e) {
      if (isSqliteBusy(e)) return undefined;
      throw e;
    }
  }

  /**
   * A read run in the shared read transaction (see the top of this file), begun by this read
   * when none is open and nobody has the connection. Undefined when it could not (the connection
   * is someone else's, or the file is locked): the caller reads its usual way.
   */
  readShared<R>(query: CompiledQuery): QueryResult<R> | undefined {
    if (this.closed) return undefined;
    if (!this.sharing) {
      if (this.held || this.db.inTransaction) return undefined;
      try {
        this.connection.run(BEGIN_READ);
      } catch {
        return undefined;
      }
      this.held = this.sharing = true;
      setImmediate(() => {
        if (this.sharing) this.endShare(false);
      });
    }
    try {
      return this.connection.run<R>(query);
    } catch (e) {
      // The transaction is over for everyone (a read fails it only when the file is in trouble).
      this.endShare(false);
      if (isSqliteBusy(e)) return undefined;
      throw e;
    }
  }

  /** Ends the shared read; `keep`: its caller takes the connection on. */
  private endShare(keep: boolean): void {
    this.sharing = false;
    try {
      this.connection.run(COMMIT);
    } catch {
      // A read transaction has nothing to keep: rolled back instead (or already gone).
      try {
        this.connection.run(ROLLBACK);
      } catch {}
    }
    if (!keep) this.release();
  }

  async destroy(): Promise<void> {
    if (this.sharing) this.endShare(false);
    this.closed = true;
    await this.opts.beforeClose?.();
    this.connection.close();
    this.db.close();
  }
}

export interface DialectOptions {
  /** What must end before the database closes (a checkpointer of its own). */
  beforeClose?: () => Promise<void>;
  /** Told when a statement begins to wait for another process's lock (a server logs it). */
  onBusyWait?: (waitMs: number) => void;
}

/** The driver under a database opened with this dialect, by its adapter (a transaction shares its database's). */
const drivers = new WeakMap<object, CachedStatementDriver>();

/** What runs kysely's compiled queries directly on a database's connection (see the top of this file). */
export interface DirectRunner {
  runNow<R>(query: CompiledQuery, inTransaction: boolean): QueryResult<R> | undefined;
  readShared<R>(query: CompiledQuery): QueryResult<R> | undefined;
}

/** The direct runner of `db`, or undefined when it is not opened with this dialect (PostgreSQL) or has plugins. */
export function directRunner(db: Kysely<any>): DirectRunner | undefined {
  const executor = db.getExecutor();
  return executor.plugins.length === 0 ? drivers.get(executor.adapter) : undefined;
}

export class CachedStatementSqliteDialect implements Dialect {
  private driver: CachedStatementDriver | null = null;
  constructor(
    private readonly db: SqliteDatabase,
    private readonly opts: DialectOptions = {},
  ) {}
  createDriver(): Driver {
    this.driver = new CachedStatementDriver(this.db, this.opts);
    return this.driver;
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    const adapter = new SqliteAdapter();
    if (this.driver) drivers.set(adapter, this.driver);
    return adapter;
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
