import { DEFAULT_CALL_LIMITS } from "../providers/call.ts";
import { creditAmountProblem } from "../db/credits.ts";
import { route, target } from "../providers/registry.ts";
import { parseAllowedHosts, type AllowedHost } from "./hosted/address.ts";
import { webSearchFromEnv, type WebSearchConfig } from "./hosted/search/index.ts";
import { offeredModelsProblem } from "../providers/offered.ts";
// Environment → server settings, read once at start. Secrets stay here and are never logged.
export interface FixingModelConfig {
  /** The provider id of `TESSERA_AUTOFIX_MODEL` (before the slash). */
  provider: string;
  /** The model as that provider knows it. */
  model: string;
  baseUrl: string;
  apiKey: string | null;
}

export interface ServerConfig {
  port: number;
  /** Bind address (HOST); 127.0.0.1 unless set, so nothing is exposed by accident. */
  host?: string;
  dbPath: string;
  retentionDays: number;
  /** Credits per Autofix call (TESSERA_AUTOFIX_PRICE). */
  autofixPrice: number;
  /** Credits per Embed Chat Completions call (TESSERA_EMBED_PRICE). */
  embedPrice: number;
  fixingModel: FixingModelConfig | null;
  /** Credits per response (TESSERA_RESPONSES_PRICE); streamed and background ones included. */
  responsesPrice: number;
  /** Credits per artifact generation or edit (TESSERA_ARTIFACT_PRICE); 0 when not given. */
  artifactPrice?: number;
  /** Browser origins allowed on the Conversations routes (TESSERA_CORS_ORIGINS). */
  corsOrigins?: string[];
  /** How long a background job's claim holds without renewal (TESSERA_LEASE_SECONDS). */
  leaseSeconds?: number;
  /** PostgreSQL connections per process at most (TESSERA_DB_POOL); ignored on SQLite. */
  dbPoolSize?: number;
  /**
   * Provider calls one process runs at once (TESSERA_MAX_PROVIDER_CALLS, else Bun's own
   * BUN_CONFIG_MAX_HTTP_REQUESTS, else 4096); more wait for a free slot. See fetch-limit.ts.
   */
  maxProviderCalls?: number;
  /** A provider's stream must start within this (TESSERA_PROVIDER_CONNECT_TIMEOUT_MS, default 30 s). */
  providerConnectTimeoutMs?: number;
  /** The longest a provider may send nothing, mid-stream or before a whole answer (TESSERA_PROVIDER_IDLE_TIMEOUT_MS, default 300 s). */
  providerIdleTimeoutMs?: number;
  /** Hosted tools of Responses (web/image search, remote MCP). */
  hostedTools?: HostedToolsConfig;
}

export interface HostedToolsConfig {
  /** The search backend (TESSERA_WEB_SEARCH_PROVIDER, _URL, _KEY); null: web and image search are refused. */
  webSearch: WebSearchConfig | null;
  /** Private hosts a caller's MCP server may be on (TESSERA_PRIVATE_HOSTS_ALLOWED, host[:port], comma-separated). */
  privateHostsAllowed: AllowedHost[];
  /** Credits per hosted tool call that ran (TESSERA_TOOL_PRICE). */
  toolPrice: number;
  /** Time bound of one MCP request: listing tools or one call (TESSERA_MCP_TIMEOUT_MS). */
  mcpTimeoutMs: number;
  /** The most model calls one response makes while hosted tools run (TESSERA_MAX_TOOL_ROUNDS). */
  maxToolRounds: number;
}

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_TOOL_ROUNDS = 16;

export function hostedToolsFromEnv(env: Record<string, string | undefined>): HostedToolsConfig {
  return {
    webSearch: webSearchFromEnv(env),
    privateHostsAllowed: parseAllowedHosts(env.TESSERA_PRIVATE_HOSTS_ALLOWED),
    toolPrice: priceFrom(env.TESSERA_TOOL_PRICE, 0, "TESSERA_TOOL_PRICE"),
    mcpTimeoutMs: Math.max(1, intFrom(env.TESSERA_MCP_TIMEOUT_MS, DEFAULT_MCP_TIMEOUT_MS, "TESSERA_MCP_TIMEOUT_MS")),
    maxToolRounds: Math.max(2, intFrom(env.TESSERA_MAX_TOOL_ROUNDS, DEFAULT_MAX_TOOL_ROUNDS, "TESSERA_MAX_TOOL_ROUNDS")),
  };
}

/** Concurrent provider calls per process unless set: four times the 1,000 streams the bench holds. */
export const DEFAULT_MAX_PROVIDER_CALLS = 4096;

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number >= 0, got ${JSON.stringify(value)}`);
  return n;
}

/** A price is a credit amount: whole, and at most MAX_CREDITS (see src/db/credits.ts). */
function priceFrom(value: string | undefined, fallback: number, name: string): number {
  const n = intFrom(value, fallback, name);
  const problem = creditAmountProblem(n);
  if (problem) throw new Error(`${name} ${problem}, got ${JSON.stringify(value)}`);
  return n;
}

export function fixingModelFromEnv(env: Record<string, string | undefined>): FixingModelConfig | null {
  const spec = env.TESSERA_AUTOFIX_MODEL;
  if (!spec) return null;
  const r = route(spec);
  if (!r) throw new Error(`TESSERA_AUTOFIX_MODEL must look like {provider}/{model} (e.g. openai/gpt-4.1-mini), got ${JSON.stringify(spec)}`);
  const t = target(r, env, null);
  if (!t.ok) throw new Error(`TESSERA_AUTOFIX_MODEL: ${t.message}`);
  return { provider: r.provider, model: t.target.model, baseUrl: t.target.baseUrl.replace(/\/+$/, ""), apiKey: t.target.apiKey };
}

export function configFromEnv(env: Record<string, string | undefined> = process.env): ServerConfig {
  const models = offeredModelsProblem(env);
  if (models) throw new Error(models);
  return {
    port: intFrom(env.PORT, 8787, "PORT"),
    host: env.HOST || "127.0.0.1",
    dbPath: env.TESSERA_DB || "./data/tessera.db",
    retentionDays: intFrom(env.TESSERA_LOG_RETENTION_DAYS, 30, "TESSERA_LOG_RETENTION_DAYS"),
    autofixPrice: priceFrom(env.TESSERA_AUTOFIX_PRICE, 1, "TESSERA_AUTOFIX_PRICE"),
    fixingModel: fixingModelFromEnv(env),
    embedPrice: priceFrom(env.TESSERA_EMBED_PRICE, 0, "TESSERA_EMBED_PRICE"),
    responsesPrice: priceFrom(env.TESSERA_RESPONSES_PRICE, 0, "TESSERA_RESPONSES_PRICE"),
    artifactPrice: priceFrom(env.TESSERA_ARTIFACT_PRICE, 0, "TESSERA_ARTIFACT_PRICE"),
    leaseSeconds: Math.max(1, intFrom(env.TESSERA_LEASE_SECONDS, 30, "TESSERA_LEASE_SECONDS")),
    dbPoolSize: Math.max(1, intFrom(env.TESSERA_DB_POOL, 10, "TESSERA_DB_POOL")),
    providerConnectTimeoutMs: Math.max(1, intFrom(env.TESSERA_PROVIDER_CONNECT_TIMEOUT_MS, DEFAULT_CALL_LIMITS.connectMs, "TESSERA_PROVIDER_CONNECT_TIMEOUT_MS")),
    providerIdleTimeoutMs: Math.max(1, intFrom(env.TESSERA_PROVIDER_IDLE_TIMEOUT_MS, DEFAULT_CALL_LIMITS.idleMs, "TESSERA_PROVIDER_IDLE_TIMEOUT_MS")),
    maxProviderCalls: Math.min(65_535, Math.max(1, intFrom(env.TESSERA_MAX_PROVIDER_CALLS || env.BUN_CONFIG_MAX_HTTP_REQUESTS, DEFAULT_MAX_PROVIDER_CALLS, "TESSERA_MAX_PROVIDER_CALLS"))),
    corsOrigins: (env.TESSERA_CORS_ORIGINS ?? "").split(",").map((o) => o.trim()).filter(Boolean),
    hostedTools: hostedToolsFromEnv(env),
  };
}
