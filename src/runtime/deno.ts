// The service on Deno: Deno.serve, with WebSocket upgrades through Deno.upgradeWebSocket, and
// SQLite through node:sqlite, adapted to bun:sqlite's shape (types.ts).
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { HttpOptions, HttpServer, Runtime, SocketConnection, SqliteConnection, SqliteStatement } from "./types.ts";

declare const Deno: {
  serve(options: {
    port: number;
    hostname: string;
    signal: AbortSignal;
    onListen(addr: { hostname: string; port: number }): void;
    handler(req: Request): Promise<Response>;
  }): { addr: { hostname: string; port: number }; finished: Promise<void>; shutdown(): Promise<void> };
  upgradeWebSocket(req: Request): { socket: WebSocket; response: Response };
};

/** bun:sqlite binds true/false as 1/0 and undefined as null; node:sqlite refuses them. */
const bindable = (params: unknown[]) => params.map((p) => (p === true ? 1 : p === false ? 0 : p === undefined ? null : p)) as never[];

function statement(stmt: StatementSync): SqliteStatement {
  return {
    columnNames: stmt.columns().map((c) => c.name),
    all: (...params) => stmt.all(...bindable(params)),
    run: (...params) => stmt.run(...bindable(params)),
    iterate: (...params) => stmt.iterate(...bindable(params)) as IterableIterator<unknown>,
    // node:sqlite finalizes a statement when it is collected.
    finalize: () => {},
  };
}

function openSqlite(path: string): SqliteConnection {
  const db = new DatabaseSync(path);
  return {
    get inTransaction() {
      return db.isTransaction;
    },
    exec: (sql) => db.exec(sql),
    prepare: (sql) => statement(db.prepare(sql)),
    close: () => db.close(),
  };
}

function serve<D>(options: HttpOptions<D>): HttpServer {
  const abort = new AbortController();
  const handler = async (req: Request): Promise<Response> => {
    let upgraded: Response | undefined;
    const upgrader = {
      upgrade(request: Request, { data }: { data: D }) {
        if (!options.websocket || request.headers.get("upgrade")?.toLowerCase() !== "websocket") return false;
        const { socket, response } = Deno.upgradeWebSocket(request);
        upgraded = response;
        attach(socket, data, options.websocket);
        return true;
      },
    };
    try {
      const res = await options.fetch(req, upgrader);
      return res ?? upgraded ?? options.error(new Error("the fetch handler answered nothing"));
    } catch (e) {
      return options.error(e);
    }
  };
  let listening!: { hostname: string; port: number };
  const server = Deno.serve({ port: options.port, hostname: options.hostname, signal: abort.signal, onListen: (addr) => (listening = addr), handler });
  listening ??= server.addr;
  let finished = false;
  const done = server.finished.then(() => {
    finished = true;
  });
  return {
    hostname: listening.hostname,
    port: listening.port,
    async stop(closeActive) {
      // A server already stopped has nothing left to end (Deno refuses a second stop).
      if (!finished) {
        if (closeActive) abort.abort();
        else await server.shutdown();
      }
      await done;
    },
  };
}

/** Hands a Deno WebSocket's frames to the handler, as Bun would. */
function attach<D>(socket: WebSocket, data: D, handler: NonNullable<HttpOptions<D>["websocket"]>): void {
  const ws: SocketConnection<D> = { data, send: (message) => socket.readyState === WebSocket.OPEN && socket.send(message) };
  socket.binaryType = "arraybuffer";
  socket.onmessage = (event) => {
    const message = event.data as string | ArrayBuffer;
    const size = typeof message === "string" ? new TextEncoder().encode(message).length : message.byteLength;
    if (handler.maxPayloadLength !== undefined && size > handler.maxPayloadLength) {
      socket.close(1009, "message too big");
      return;
    }
    handler.message(ws, message);
  };
  socket.onclose = (event) => handler.close(ws, event.code, event.reason);
}

export const runtime: Runtime = {
  name: "deno",
  serve,
  openSqlite,
  // A Deno worker that is terminated at stop needs no unref.
  unrefWorker: () => {},
};
