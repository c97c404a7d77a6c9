// The HTTP server with the settings every Tessera server needs, whoever starts it (npm start,
// deno task start, tests, the benchmark), on the runtime the process runs on (src/runtime): an
// error that escapes the fetch handler is the wire-format 500, with the details in the log only;
// a request whose head is too large is the wire-format 431.
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

/** The largest request head (request line and headers) served: 16 KiB, Node's and Bun's default. */
export const MAX_HEAD_BYTES = 16 * 1024;

/**
 * About the bytes of the request's head as it came: the request line and each header line. (The
 * URL here is absolute: its origin stands in for the Host line's length.)
 */
export function headBytes(req: Request): number {
  let n = req.method.length + req.url.length + 12; // " ", " HTTP/1.1\r\n", and the blank line's "\r\n"
  // forEach: on Bun's requests a for…of over the headers costs ten times as much (measured, Bun 1.4.5).
  req.headers.forEach((value, name) => {
    n += name.length + value.length + 4; // ": " and "\r\n"
  });
  return n;
}

export function serve<W = undefined>(opts: ServeOptions<W>): HttpServer {
  return runtime.serve<W>({
    port: opts.port,
    hostname: opts.hostname,
    // The runtime's own parser lets larger heads through (its bare 431 only far past this: runtime/bun.ts).
    fetch: (req, server) => {
      const bytes = headBytes(req);
      if (bytes > MAX_HEAD_BYTES) {
        return errorResponse(431, `the request's headers are too large: about ${bytes} bytes, at most ${MAX_HEAD_BYTES}`, {
          code: "request_header_fields_too_large",
        });
      }
      return opts.fetch(req, server);
    },
    websocket: opts.websocket,
    error(e) {
      // Only reached when the fetch handler itself throws: a bug. The stack goes to the log only.
      opts.log(`unhandled error outside a route: ${e instanceof Error ? e.stack : String(e)}`);
      return errorResponse(500, "internal error");
    },
  });
}
