// kysely on the runtime's SQLite (src/runtime: bun:sqlite, or node:sqlite adapted to its shape), with each distinct SQL text prepared once. kysely-bun-sqlite prepares every
// query anew (5 µs of a 13 µs key lookup, measured in bun 1.4); this driver keeps the prepared
// statements of the last STATEMENT_CACHE_SIZE SQL texts. Queries stay kysely queries: only the
// connection under them changes. One connection, used by one query or transaction at a time.
// A statement that finds the file locked by another process waits for it off the event loop
// (sqlite-busy.ts); a transaction takes the write lock as it begins, so that its statements do not
// meet the lock half-way, where they could not simply run again.
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

class CachedStatementConnection implements DatabaseConnection {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly onWait?: (waitMs: number) => void,
  ) {}

  private prepare(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (stmt) {
      this.statements.delete(sql); // most recently used goes last
    } else {
      stmt = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE_SIZE) {
        const [oldest, old] = this.statements.entries().next().value!;
        this.statements.delete(oldest);
        old.finalize();
      }
    }
    this.statements.set(sql, stmt);
    return stmt;
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

  private run<R>(query: CompiledQuery): QueryResult<R> {
    const stmt = this.prepare(query.sql);
    const parameters = query.parameters as never[];
    if (stmt.columnNames.length > 0) return { rows: stmt.all(...parameters) as R[] };
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
    for (const stmt of this.statements.values()) stmt.finalize();
    this.statements.clear();
  }
}

class CachedStatementDriver implements Driver {
  private readonly connection: CachedStatementConnection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly opts: DialectOptions,
  ) {
    this.connection = new CachedStatementConnection(db, opts.onBusyWait);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // A chain of waiters: each acquisition waits for the one before it to be released.
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.release = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // Immediate: the write lock now, waited for here if another process has it (every
    // transaction here writes; on the one connection it costs nothing more).
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // SQLite rolls a transaction back itself when a write fails on a full disk or an I/O error; a
    // rollback then fails with "no transaction is active" and would hide the error that matters.
    try {
      await connection.executeQuery(CompiledQuery.raw("rollback"));
    } catch (e) {
      if (!/no transaction is active/i.test((e as Error).message)) throw e;
    }
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = null;
    release?.();
  }

  async destroy(): Promise<void> {
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

export class CachedStatementSqliteDialect implements Dialect {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly opts: DialectOptions = {},
  ) {}
  createDriver(): Driver {
    return new CachedStatementDriver(this.db, this.opts);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
