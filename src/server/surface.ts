// A surface (Autofix, Embed, Responses, …) is one folder under surfaces/ whose index.ts exports a
// Surface: its routes (each with the credential it takes, and, when paid, its price), its
// background jobs and, if it has one, its WebSocket. app.ts joins the routes, main.ts starts the
// jobs and the socket. A route's handler is typed by what app.ts has done before calling it:
// authenticated (`ctx.org`, `ctx.principal`) unless its auth is "none", and, on a paid route, its
// call opened (`ctx.call`: hold, finish; paid.ts).
import type { SocketHandler, Upgrader } from "../runtime/index.ts";
import type { AppDeps, AuthedContext, AuthKind, Handler, PaidContext } from "./context.ts";
import type { PaidSpec } from "./paid.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Route {
  method: Method;
  /** Literal segments, or `:name` for any one segment (ctx.params.name). */
  path: string;
  auth: AuthKind;
  paid: PaidSpec | null;
  // Each builder below checks the handler against its route; the table holds them alike.
  handler: (ctx: never) => Promise<Response>;
}

export function route<P extends string>(method: Method, path: P, auth: "none", handler: Handler<NoInfer<P>>): Route;
export function route<P extends string, A extends Exclude<AuthKind, "none">>(
  method: Method,
  path: P,
  auth: A,
  handler: (ctx: AuthedContext<NoInfer<P>, A>) => Promise<Response>,
): Route;
export function route(method: Method, path: string, auth: AuthKind, handler: (ctx: never) => Promise<Response>): Route {
  return { method, path, auth, paid: null, handler };
}

export function paidRoute<P extends string, A extends Exclude<AuthKind, "none">>(
  method: Method,
  path: P,
  auth: A,
  paid: PaidSpec,
  handler: (ctx: PaidContext<NoInfer<P>, A>) => Promise<Response>,
): Route {
  return { method, path, auth, paid, handler };
}

/** Work a surface runs beside its requests (sweeps, queued jobs). */
export interface Job {
  name: string;
  /** Starts it (when the database is open); returns how to stop it. */
  start(deps: AppDeps): Promise<RunningJob>;
}

export interface RunningJob {
  /** No new work from here (called before the requests in flight are drained). */
  stop(): void;
  /** After the drain: ends what this process still runs that no request waits for. */
  abandon?(): Promise<void>;
}

/** A surface's WebSocket mode (a server takes one handler: one surface may have one). */
export interface SocketSpec<D = unknown> {
  /** Whether this request asks to be upgraded here. */
  matches(req: Request): boolean;
  /** Authenticates and upgrades; a Response when it refuses. */
  upgrade(req: Request, server: Upgrader<D>, deps: AppDeps): Promise<Response | undefined>;
  handler(deps: AppDeps): SocketHandler<D>;
}

export interface Surface {
  name: string;
  routes: Route[];
  jobs?: Job[];
  socket?: SocketSpec<never>;
}
