// Bun.serve with the settings every Tessera server needs, whoever starts it (npm start, tests,
// the benchmark). Bun's development mode answers an uncaught error with an HTML page holding the
// working directory, stack frames and source lines: `development: false` turns that page off
// (measured: so does NODE_ENV=production, but a flag in code cannot be forgotten in a unit file),
// and our own `error` handler answers the wire-format 500 instead of Bun's plain-text one.
import type { Server, WebSocketHandler } from "bun";
import { errorResponse } from "./errors.ts";

export interface ServeOptions<W = undefined> {
  /** `undefined` only after a WebSocket upgrade took the request. */
  fetch: (req: Request, server: Server<W>) => Promise<Response | undefined> | Response | undefined;
  websocket?: WebSocketHandler<W>;
  port: number;
  hostname: string;
  log: (line: string) => void;
}

export function serve<W = undefined>(opts: ServeOptions<W>): Server<W> {
  return Bun.serve<W>({
    port: opts.port,
    hostname: opts.hostname,
    development: false,
    fetch: opts.fetch as never,
    websocket: opts.websocket as never,
    // body.ts caps JSON bodies at 1 MB with a wire-format 413 (it stops reading there, so memory
    // stays bounded); Bun's own cap sits far above so that its plain-text 413 is never the answer.
    maxRequestBodySize: 256 * 1024 * 1024,
    error(e) {
      // Only reached when the fetch handler itself throws: a bug. The stack goes to the log only.
      opts.log(`unhandled error outside a route: ${e instanceof Error ? e.stack : String(e)}`);
      return errorResponse(500, "internal error");
    },
  });
}
