// The service on Bun (the default): Bun.serve, and bun:sqlite, whose Database already has the
// shape types.ts asks for. Bun's development mode answers an uncaught error with an HTML page
// holding the working directory, stack frames and source lines: `development: false` turns that
// page off, and the `error` option answers the wire-format 500 instead.
import { Database } from "bun:sqlite";
import type { HttpOptions, HttpServer, Runtime, SqliteConnection } from "./types.ts";

function serve<D>(options: HttpOptions<D>): HttpServer {
  const server = Bun.serve<D>({
    port: options.port,
    hostname: options.hostname,
    development: false,
    fetch: options.fetch as never,
    websocket: options.websocket as never,
    // body.ts caps JSON bodies at 1 MB with a wire-format 413 (it stops reading there, so memory
    // stays bounded); Bun's own cap sits far above so that its plain-text 413 is never the answer.
    maxRequestBodySize: 256 * 1024 * 1024,
    error: options.error,
  });
  return {
    hostname: server.hostname ?? options.hostname,
    port: server.port!,
    stop: (closeActive) => server.stop(closeActive),
  };
}

export const runtime: Runtime = {
  name: "bun",
  serve,
  openSqlite: (path) => new Database(path, { create: true }) as unknown as SqliteConnection,
  // Bun's Worker: unref'd, it does not keep the process alive (the DOM type does not know it).
  unrefWorker: (worker) => (worker as unknown as { unref(): void }).unref(),
};
