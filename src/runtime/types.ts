// What the service needs from the runtime it runs on, and nothing else: an HTTP server with one
// WebSocket mode, and a SQLite connection. bun.ts and deno.ts provide it; index.ts picks one.
// Everything above (the app, the surfaces, kysely, pg) is web-standard or plain npm.

/** A SQLite statement, in bun:sqlite's shape (which bun.ts passes through as it is). */
export interface SqliteStatement {
  /** Empty for a statement that returns no rows (an insert, an update). */
  readonly columnNames: string[];
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...params: unknown[]): IterableIterator<unknown>;
  finalize(): void;
}

export interface SqliteConnection {
  /** Inside an explicit transaction (begin … commit/rollback), as SQLite itself knows it. */
  readonly inTransaction: boolean;
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** One WebSocket connection, as a handler sees it: the data its upgrade attached, and send. */
export interface SocketConnection<D> {
  data: D;
  send(message: string): unknown;
}

export interface SocketHandler<D> {
  message(ws: SocketConnection<D>, message: string | ArrayBuffer | Uint8Array): void;
  close(ws: SocketConnection<D>, code?: number, reason?: string): void;
  /** Frames larger than this close the socket (1009). */
  maxPayloadLength?: number;
}

/** Given to the fetch handler: upgrades the request to a WebSocket carrying `data`; false when it is not one. */
export interface Upgrader<D> {
  upgrade(req: Request, options: { data: D }): boolean;
}

export interface HttpOptions<D> {
  port: number;
  hostname: string;
  /** `undefined` only after `upgrader.upgrade` took the request. */
  fetch(req: Request, upgrader: Upgrader<D>): Promise<Response | undefined> | Response | undefined;
  websocket?: SocketHandler<D>;
  /** The answer when the fetch handler itself throws. */
  error(e: unknown): Response;
}

export interface HttpServer {
  hostname: string;
  port: number;
  /**
   * Stops listening. `closeActive` false: resolves when the requests in flight have ended;
   * true: ends them now.
   */
  stop(closeActive: boolean): Promise<void>;
}

export interface Runtime {
  name: "bun" | "deno";
  serve<D>(options: HttpOptions<D>): HttpServer;
  /** Opens (creating) a SQLite database file, or ":memory:". */
  openSqlite(path: string): SqliteConnection;
  /** Keeps a worker from holding the process open, where the runtime can. */
  unrefWorker(worker: Worker): void;
}
