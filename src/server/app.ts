// The whole HTTP surface: one web-standard fetch handler and one visible route table.
// Bun.serve (main.ts) is only the entry; tests and other runtimes call `createApp(deps)` directly.
//
// Adding a surface is one line in ROUTES, e.g. for issue 4:
//   ["POST", "/v1/embed/chat/completions", embedChatCompletions],
// A handler gets a RequestContext (context.ts) and uses the shared pieces:
//   errors.ts (errorResponse, HttpError) · body.ts (readBody: 1 MB cap, invalid JSON, valibot)
//   auth.ts (authenticate → organization) · ../db/billing.ts (holdCredits, settle) · ../db/logs.ts
import { randomUUID } from "node:crypto";
import type { AppDeps, Handler, RequestContext } from "./context.ts";
import { errorResponse, HttpError } from "./errors.ts";
import { RequestAborted } from "./body.ts";
import { health } from "./routes/health.ts";
import { autofix } from "./routes/autofix.ts";
import { reliability } from "./routes/monitoring.ts";
import { embedChatCompletions } from "./routes/embed.ts";
import { encryptKey } from "./routes/encryption.ts";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Route = readonly [Method, string, Handler];

export const ROUTES: Route[] = [
  ["GET", "/health", health],
  ["POST", "/v1/autofix", autofix],
  ["POST", "/v1/autofix/chat/completions", autofix],
  ["GET", "/v1/monitoring/reliability", reliability],
  ["POST", "/v1/embed/chat/completions", embedChatCompletions],
  ["POST", "/encryption/encrypt", encryptKey],
];

export type FetchHandler = (req: Request) => Promise<Response>;

export function createApp(deps: AppDeps, routes: Route[] = ROUTES): FetchHandler {
  return async (req) => {
    const startedAt = performance.now();
    const url = requestUrl(req);
    if (!url) return errorResponse(400, "the Host header is not a valid host", { code: "invalid_host" });
    // A trailing slash is the same route: clients built on a base URL sometimes add one.
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;
    const requestId = randomUUID();
    let res: Response;
    const matches = routes.filter((r) => r[1] === path);
    const route = matches.find((r) => r[0] === req.method || (req.method === "HEAD" && r[0] === "GET"));
    if (!route) {
      res = matches.length
        ? errorResponse(405, `method ${req.method} is not allowed on ${path}`, {
            headers: { allow: matches.map((r) => r[0]).join(", ") },
          })
        : errorResponse(404, `no route for ${req.method} ${path}`);
    } else {
      const ctx: RequestContext = { req, url, deps, requestId, startedAt };
      res = await run(route[2], ctx);
    }
    res = withHeader(res, "x-request-id", requestId);
    deps.log(`${req.method} ${path} ${res.status} ${(performance.now() - startedAt).toFixed(1)}ms ${requestId}`);
    return res;
  };
}

/**
 * Bun gives a relative req.url when Host is missing (HTTP/1.0 allows that: served as usual) or not a
 * host at all (`Host: a b`, a port past 65535: null, answered 400 as HTTP/1.1 requires).
 */
function requestUrl(req: Request): URL | null {
  try {
    return new URL(req.url);
  } catch {
    if (req.headers.has("host") || !req.url.startsWith("/")) return null;
    return URL.parse(req.url, "http://localhost");
  }
}

async function run(handler: Handler, ctx: RequestContext): Promise<Response> {
  try {
    return await handler(ctx);
  } catch (e) {
    if (e instanceof RequestAborted) ctx.deps.log(`aborted request ${ctx.req.method} ${ctx.url.pathname} ${ctx.requestId}: ${e.message}`);
    if (e instanceof HttpError) return e.toResponse();
    // A bug, not a bad request: say so without leaking internals to the caller.
    ctx.deps.log(`unhandled error in ${ctx.url.pathname} ${ctx.requestId}: ${e instanceof Error ? e.stack : String(e)}`);
    return errorResponse(500, "internal error");
  }
}

/** Responses passed through from fetch() have immutable headers; copy those before adding one. */
function withHeader(res: Response, name: string, value: string): Response {
  try {
    res.headers.set(name, value);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    copy.headers.set(name, value);
    return copy;
  }
}
