// The whole HTTP surface: one web-standard fetch handler and one visible route table.
// Bun.serve (main.ts) is only the entry; tests and other runtimes call `createApp(deps)` directly.
//
// A route is [method, path, handler]; a path segment `:name` matches any one segment and reaches
// the handler as ctx.params.name. Where a literal path and a pattern both match, the literal wins.
// A handler gets a RequestContext (context.ts) and uses the shared pieces:
//   errors.ts (errorResponse, HttpError) · body.ts (readBody: 1 MB cap, invalid JSON, valibot)
//   auth.ts (authenticate → organization) · ../db/billing.ts (holdCredits, settle) · ../db/logs.ts
import { randomUUID } from "node:crypto";
import type { AppDeps, Handler, RequestContext } from "./context.ts";
import { corsHeaders, isCorsPath, preflight } from "./cors.ts";
import { errorResponse, HttpError } from "./errors.ts";
import { RequestAborted } from "./body.ts";
import { health } from "./surfaces/health/routes.ts";
import { autofix } from "./surfaces/autofix/handler.ts";
import { reliability } from "./surfaces/monitoring/routes.ts";
import { embedChatCompletions } from "./surfaces/embed/handler.ts";
import { encryptKey } from "./surfaces/encryption/routes.ts";
import * as responses from "./surfaces/responses/routes.ts";
import * as conversations from "./surfaces/conversations/routes.ts";
import { mintFrontendToken } from "./surfaces/frontend-tokens/routes.ts";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Route = readonly [Method, string, Handler];

export const ROUTES: Route[] = [
  ["GET", "/health", health],
  ["POST", "/v1/autofix", autofix],
  ["POST", "/v1/autofix/chat/completions", autofix],
  ["GET", "/v1/monitoring/reliability", reliability],
  ["POST", "/v1/embed/chat/completions", embedChatCompletions],
  ["POST", "/encryption/encrypt", encryptKey],
  ["POST", "/v1/embed/responses", responses.create],
  ["POST", "/v1/embed/responses/input_tokens", responses.inputTokens],
  ["POST", "/v1/embed/responses/compact", responses.compact],
  ["GET", "/v1/embed/responses/:id", responses.retrieve],
  ["DELETE", "/v1/embed/responses/:id", responses.remove],
  ["POST", "/v1/embed/responses/:id/cancel", responses.cancel],
  ["GET", "/v1/embed/responses/:id/input_items", responses.inputItems],
  ["POST", "/v1/conversations", conversations.create],
  ["GET", "/v1/conversations", conversations.list],
  ["GET", "/v1/conversations/:id", conversations.retrieve],
  ["POST", "/v1/conversations/:id", conversations.update],
  ["DELETE", "/v1/conversations/:id", conversations.remove],
  ["POST", "/v1/conversations/:id/items", conversations.addItems],
  ["GET", "/v1/conversations/:id/items", conversations.listItems],
  ["GET", "/v1/conversations/:id/items/:item", conversations.retrieveItem],
  ["DELETE", "/v1/conversations/:id/items/:item", conversations.removeItem],
  ["POST", "/v1/frontend-tokens", mintFrontendToken],
];

export type FetchHandler = (req: Request) => Promise<Response>;

/** The segments' values when `pattern` matches `path`, else null. */
function match(pattern: string, path: string): Record<string, string> | null {
  if (!pattern.includes(":")) return pattern === path ? {} : null;
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(":")) {
      if (got[i] === "") return null;
      try {
        params[want[i]!.slice(1)] = decodeURIComponent(got[i]!);
      } catch {
        return null;
      }
    } else if (want[i] !== got[i]) return null;
  }
  return params;
}

function findRoutes(routes: Route[], path: string): { route: Route; params: Record<string, string> }[] {
  const found = routes.flatMap((route) => {
    const params = match(route[1], path);
    return params ? [{ route, params }] : [];
  });
  const literal = found.filter((f) => !f.route[1].includes(":"));
  return literal.length ? literal : found;
}

export function createApp(deps: AppDeps, routes: Route[] = ROUTES): FetchHandler {
  return async (req) => {
    const startedAt = performance.now();
    const url = requestUrl(req);
    if (!url) return errorResponse(400, "the Host header is not a valid host", { code: "invalid_host" });
    // A trailing slash is the same route: clients built on a base URL sometimes add one.
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;
    const requestId = randomUUID();
    const cors = isCorsPath(path) ? corsHeaders(req, deps.config.corsOrigins ?? []) : null;
    let res: Response;
    const matches = findRoutes(routes, path);
    const hit = matches.find((m) => m.route[0] === req.method || (req.method === "HEAD" && m.route[0] === "GET"));
    if (req.method === "OPTIONS" && cors !== null && matches.length) {
      res = preflight(req, cors, matches.map((m) => m.route[0]));
    } else if (!hit) {
      res = matches.length
        ? errorResponse(405, `method ${req.method} is not allowed on ${path}`, {
            headers: { allow: matches.map((m) => m.route[0]).join(", ") },
          })
        : errorResponse(404, `no route for ${req.method} ${path}`);
    } else {
      const ctx: RequestContext = { req, url, deps, requestId, startedAt, params: hit.params };
      res = await run(hit.route[2], ctx);
      // HEAD answers as GET would, without the body.
      if (req.method === "HEAD") res = new Response(null, res);
    }
    res = withHeaders(res, { "x-request-id": requestId, ...(cors ?? {}) });
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

/** Responses passed through from fetch() have immutable headers; copy those before adding any. */
function withHeaders(res: Response, headers: Record<string, string>): Response {
  try {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v);
    return copy;
  }
}
