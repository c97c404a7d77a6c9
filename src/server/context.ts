// What every route handler receives, and how a surface declares its routes (surface.ts joins them).
import type { Db, Organization } from "../db/index.ts";
import type { CompleteFn } from "../repair/model-fix.ts";
import type { Principal } from "./auth.ts";
import type { Background } from "./background.ts";
import type { ServerConfig } from "./config.ts";
import type { Keyring } from "./crypto/keyring.ts";
import type { PaidCall } from "./paid.ts";

export interface AppDeps {
  db: Db;
  config: ServerConfig;
  /** The master keys: provider keys and compactions sealed, frontend tokens signed. */
  keys: Keyring;
  /** The fixing model for Autofix attempt 2, or null when none is configured. */
  fixingModel: CompleteFn | null;
  /** One line per request; tests pass a no-op. Never receives headers, bodies or keys. */
  log: (line: string) => void;
  /** Writes that run after the response (logs outside the paid transaction); shutdown waits for them. */
  background: Background;
  /** Set when the server starts stopping: /health/ready then answers 503. */
  draining?: boolean;
}

/** The `:name` segments of a route's path, e.g. "id" | "item" for `/v1/conversations/:id/items/:item`. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type Params<P extends string> = { readonly [K in ParamNames<P>]: string };

export interface RequestContext<P extends string = string> {
  req: Request;
  url: URL;
  deps: AppDeps;
  /** Unique per request; echoed as x-request-id and stored with logs and ledger rows. */
  requestId: string;
  startedAt: number;
  /** Values of the route's `:name` segments, decoded. */
  params: Params<P>;
}

/**
 * Who may call a route: nobody in particular, the API key (server side), or the API key or a
 * frontend token (a browser, on its user's data). app.ts authenticates before the handler runs.
 */
export type AuthKind = "none" | "key" | "key or token";

export type PrincipalOf<A extends AuthKind> = A extends "key" ? Extract<Principal, { kind: "key" }> : Principal;

export type AuthedContext<P extends string, A extends AuthKind> = RequestContext<P> & {
  principal: PrincipalOf<A>;
  org: Organization;
};

/** A paid route's context: its call is held, settled and logged through `call` (paid.ts). */
export type PaidContext<P extends string, A extends AuthKind = "key"> = AuthedContext<P, A> & { call: PaidCall };

export type Handler<P extends string = string> = (ctx: RequestContext<P>) => Promise<Response>;
