// What every route handler receives. Routes of other surfaces (embed, encryption) use the same shape.
import type { Db } from "../db/index.ts";
import type { ServerConfig } from "./config.ts";
import type { CompleteFn } from "../repair/model-fix.ts";
import type { Background } from "./background.ts";

export interface AppDeps {
  db: Db;
  config: ServerConfig;
  /** The fixing model for Autofix attempt 2, or null when none is configured. */
  fixingModel: CompleteFn | null;
  /** One line per request; tests pass a no-op. Never receives headers, bodies or keys. */
  log: (line: string) => void;
  /** Writes that run after the response (logs outside the paid transaction); shutdown waits for them. */
  background: Background;
  /** Set when the server starts stopping: /health/ready then answers 503. */
  draining?: boolean;
}

export interface RequestContext {
  req: Request;
  url: URL;
  deps: AppDeps;
  /** Unique per request; echoed as x-request-id and stored with logs and ledger rows. */
  requestId: string;
  startedAt: number;
  /** Values of the route's `:name` segments. */
  params: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Promise<Response>;
