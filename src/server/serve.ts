// The HTTP server with the settings every Tessera server needs, whoever starts it (npm start,
// deno task start, tests, the benchmark), on the runtime the process runs on (src/runtime): an
// error that escapes the fetch handler is the wire-format 500, with the details in the log only.
import { runtime, type HttpServer, type SocketHandler, type Upgrader } from "../runtime/index.ts";
import { errorResponse } from "./errors.ts";

export interface ServeOptions<W = undefined> {
  /** `undefined` only after a WebSocket upgrade took the request. */
  fetch: (req: Request, server: Upgrader<W>) => Promise<Response | undefined> | Response | undefined;
  websocket?: SocketHandler<W>;
  port: number;
  hostname: string;
  log: (line: string) => void;
}

export function serve<W = undefined>(opts: ServeOptions<W>): HttpServer {
  return runtime.serve<W>({
    port: opts.port,
    hostname: opts.hostname,
    fetch: opts.fetch,
    websocket: opts.websocket,
    error(e) {
      // Only reached when the fetch handler itself throws: a bug. The stack goes to the log only.
      opts.log(`unhandled error outside a route: ${e instanceof Error ? e.stack : String(e)}`);
      return errorResponse(500, "internal error");
    },
  });
}
