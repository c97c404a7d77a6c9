// The service on Bun (the default): Bun.serve, and bun:sqlite, whose Database already has the
// shape types.ts asks for. Bun's development mode answers an uncaught error with an HTML page
// holding the working directory, stack frames and source lines: `development: false` turns that
// page off, and the `error` option answers the wire-format 500 instead.
import { Database } from "bun:sqlite";
import http from "node:http";
import type { HttpOptions, HttpServer, Runtime, SqliteConnection } from "./types.ts";

/**
 * Bun's own limit on a request's head (request line and headers), past which its parser answers
 * 431 with no body before any handler runs: raised from 16 KiB so that serve.ts answers heads
 * past its own limit with the JSON error body. Bun buffers a head in full, so this is memory per
 * connection: as large as a JSON body may be (body.ts), no larger.
 */
export const BUN_HEAD_LIMIT_BYTES = 1024 * 1024;

function serve<D>(options: HttpOptions<D>): HttpServer {
  // Process-wide, for every server after it: Bun's node:http setter is the one handle on it from
  // code (its --max-http-header-size flag would have to be on every command line).
  (http as { maxHeaderSize: number }).maxHeaderSize = Math.max(http.maxHeaderSize, BUN_HEAD_LIMIT_BYTES);
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
