// The whole HTTP surface: one web-standard fetch handler over the surfaces' routes (surfaces/index.ts).
// Bun.serve (main.ts) is only the entry; tests and other runtimes call `createApp(deps)` directly.
//
// A route is method, path, auth and handler (surface.ts); a path segment `:name` matches any one
// segment and reaches the handler as ctx.params.name. Where a literal path and a pattern both
// match, the literal wins. Before the handler, the request is authenticated as its route says
// and, on a paid route, its call opened (paid.ts): whatever the handler throws then ends the call.
// Handlers use the shared pieces: errors.ts (errorResponse, HttpError) · body.ts (readBody: 1 MB
// cap, invalid JSON, valibot) · paid.ts (hold, finish) · ../db/logs.ts
import { randomUUID } from "node:crypto";
import type { Organization } from "../db/index.ts";
import { troubleOf } from "../db/trouble.ts";
import { authenticateKey, authenticatePrincipal, type Principal } from "./auth.ts";
import { RequestAborted } from "./body.ts";
import type { AppDeps } from "./context.ts";
import { corsHeaders, isCorsPath, preflight } from "./cors.ts";
import { errorResponse, HttpError } from "./errors.ts";
import { PaidCall, paidWork } from "./paid.ts";
import type { Route, Surface } from "./surface.ts";
import { SURFACES } from "./surfaces/index.ts";
import { troubleLine, unavailable } from "./unavailable.ts";

export type FetchHandler = (req: Request) => Promise<Response>;

/** A pattern's segments: a string to equal, or null where `:name` takes any one segment. */
interface Pattern {
  route: Route;
  segments: (string | null)[];
  names: string[];
}

/**
 * Routes by path: literal paths in a map (one lookup), patterns tried only when no literal path
 * is the request's, the request's path split once for all of them.
 */
export class RouteTable {
  private readonly literal = new Map<string, Route[]>();
  private readonly patterns: Pattern[] = [];

  constructor(routes: Iterable<Route>) {
    for (const route of routes) {
      if (!route.path.includes(":")) {
        const list = this.literal.get(route.path);
        if (list) list.push(route);
        else this.literal.set(route.path, [route]);
        continue;
      }
      const parts = route.path.split("/");
      this.patterns.push({
        route,
        segments: parts.map((p) => (p.startsWith(":") ? null : p)),
        names: parts.filter((p) => p.startsWith(":")).map((p) => p.slice(1)),
      });
    }
  }

  /** The routes at `path` (every method), each with its params. */
  find(path: string): { route: Route; params: Record<string, string> }[] {
    const literal = this.literal.get(path);
    if (literal) return literal.map((route) => ({ route, params: {} }));
    if (this.patterns.length === 0) return [];
    const got = path.split("/");
    const found: { route: Route; params: Record<string, string> }[] = [];
    for (const p of this.patterns) {
      const params = matchPattern(p, got);
      if (params) found.push({ route: p.route, params });
    }
    return found;
  }
}

function matchPattern(p: Pattern, got: string[]): Record<string, string> | null {
  if (p.segments.length !== got.length) return null;
  const values: string[] = [];
  for (let i = 0; i < got.length; i++) {
    const want = p.segments[i];
    if (want === null) {
      if (got[i] === "") return null;
      try {
        values.push(decodeURIComponent(got[i]!));
      } catch {
        return null;
      }
    } else if (want !== got[i]) return null;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < values.length; i++) params[p.names[i]!] = values[i]!;
  return params;
}

export function createApp(deps: AppDeps, surfaces: readonly Surface[] = SURFACES): FetchHandler {
  const table = new RouteTable(surfaces.flatMap((s) => s.routes));
  return async (req) => {
    const startedAt = performance.now();
    const url = requestUrl(req);
    if (!url) return errorResponse(400, "the Host header is not a valid host", { code: "invalid_host" });
    // A trailing slash is the same route: clients built on a base URL sometimes add one.
    const raw = url.pathname;
    const path = raw.length > 1 && raw.charCodeAt(raw.length - 1) === 47 ? raw.replace(/\/+$/, "") : raw;
    const requestId = randomUUID();
    const cors = isCorsPath(path) ? corsHeaders(req, deps.config.corsOrigins) : null;
    let res: Response;
    const matches = table.find(path);
    const method = req.method === "HEAD" ? "GET" : req.method;
    const hit = matches.find((m) => m.route.method === method);
    if (req.method === "OPTIONS" && cors !== null && matches.length) {
      res = preflight(
        req,
        cors,
        matches.map((m) => m.route.method),
      );
    } else if (!hit) {
      res = matches.length
        ? errorResponse(405, `method ${req.method} is not allowed on ${path}`, {
            headers: { allow: matches.map((m) => m.route.method).join(", ") },
          })
        : errorResponse(404, `no route for ${req.method} ${path}`);
    } else {
      const ctx: Ctx = { req, url, deps, requestId, startedAt, params: hit.params, principal: null, org: null, call: null };
      res = await run(hit.route, ctx);
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

/** What a handler receives: the fields its route's auth and price fill in are set before it runs. */
interface Ctx {
  req: Request;
  url: URL;
  deps: AppDeps;
  requestId: string;
  startedAt: number;
  params: Record<string, string>;
  principal: Principal | null;
  org: Organization | null;
  call: PaidCall | null;
}

async function run(route: Route, ctx: Ctx): Promise<Response> {
  const handler = route.handler as (ctx: Ctx) => Promise<Response>;
  try {
    if (route.auth !== "none") {
      const { db } = ctx.deps;
      const { keys } = ctx.deps;
      ctx.principal = route.auth === "key" ? { kind: "key", ...(await authenticateKey(db, keys, ctx.req)) } : await authenticatePrincipal(db, keys, ctx.req);
      ctx.org = ctx.principal.org;
    }
    if (!route.paid || !ctx.org) return await handler(ctx);
    const call = new PaidCall(ctx.deps, ctx.org, route.paid, route.path, ctx.requestId, ctx.startedAt);
    ctx.call = call;
    return await paidWork(call, () => handler(ctx));
  } catch (e) {
    if (e instanceof RequestAborted) ctx.deps.log(`aborted request ${ctx.req.method} ${ctx.url.pathname} ${ctx.requestId}: ${e.message}`);
    if (e instanceof HttpError) return e.toResponse();
    // The database's state, not a bug: 503 with Retry-After, the trouble named in the log.
    const trouble = troubleOf(e);
    if (trouble) {
      ctx.deps.log(troubleLine(trouble, `${ctx.url.pathname} ${ctx.requestId}`, e));
      return unavailable(trouble).toResponse();
    }
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
