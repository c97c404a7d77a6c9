// Environment → server settings, read once at start (main.ts) and handed to everything that needs
// one through AppDeps: nothing reads process.env after start. Each setting is one entry of
// SETTINGS: its variable, its valibot schema (from the variable's text to the typed value) and its
// default; ServerConfig's type follows from the table. A bad value stops the start with a message
// that names the variable. Tests build a config with `serverConfig({...})`, not the environment.
// Secrets (provider keys, master keys) stay here and in the keyring, and are never logged.
import * as v from "valibot";
import { creditAmountProblem } from "../db/credits.ts";
import { DEFAULT_CALL_LIMITS } from "../providers/call.ts";
import { offeredModelsProblem } from "../providers/offered.ts";
import { PROVIDER_VARIABLES, route, target } from "../providers/registry.ts";
import { hostedToolsFromEnv, type HostedToolsConfig } from "./hosted/config.ts";
import { MAX_FETCH_LIMIT } from "./bun-start-env.ts";

export interface FixingModelConfig {
  /** The provider id of `TESSERA_AUTOFIX_MODEL` (before the slash). */
  provider: string;
  /** The model as that provider knows it. */
  model: string;
  baseUrl: string;
  apiKey: string | null;
}

type Env = Record<string, string | undefined>;

const wholeNumber = v.pipe(
  v.string(),
  v.regex(/^\d+$/, "must be a whole number >= 0"),
  v.transform(Number),
  v.check((n: number) => Number.isSafeInteger(n), "must be a whole number >= 0"),
);
/** A price is a credit amount: whole, and at most MAX_CREDITS (see src/db/credits.ts). */
const price = v.pipe(
  v.string(),
  v.regex(/^\d+$/, "must be a whole number of credits"),
  v.transform(Number),
  v.check(
    (n: number) => creditAmountProblem(n) === null,
    (issue) => creditAmountProblem(issue.input as number) ?? "",
  ),
);
/** At least 1: 0 would mean "never" where a period or a pool size is asked for. */
const atLeastOne = v.pipe(
  wholeNumber,
  v.transform((n) => Math.max(1, n)),
);
const text = v.string();
const list = v.pipe(
  v.string(),
  v.transform((s) =>
    s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  ),
);
const modelIds = v.pipe(
  list,
  v.check(
    (ids: string[]) => offeredModelsProblem(ids) === null,
    (issue) => offeredModelsProblem(issue.input as string[]) ?? "",
  ),
  v.transform((ids: string[]) => (ids.length ? [...new Set(ids)] : null)),
);
const httpUrl = v.pipe(v.string(), v.url("must be a URL"), v.regex(/^https?:\/\//i, "must be an http:// or https:// URL"));

interface Setting<T> {
  variable: string;
  schema: v.GenericSchema<string, T>;
  fallback: T;
}

const setting = <T>(variable: string, schema: v.GenericSchema<string, T>, fallback: T): Setting<T> => ({ variable, schema, fallback });

/** Every plain setting: field → variable, schema, default. A new setting is one line here. */
export const SETTINGS = {
  port: setting("PORT", v.pipe(wholeNumber, v.maxValue(65535, "must be a port number, 0 to 65535")), 8787),
  /** Bind address; 127.0.0.1 unless set, so nothing is exposed by accident. */
  host: setting("HOST", text, "127.0.0.1"),
  /** A SQLite file path or a postgres:// URL. */
  dbPath: setting("TESSERA_DB", text, "./data/tessera.db"),
  /** PostgreSQL connections per process at most; ignored on SQLite. */
  dbPoolSize: setting("TESSERA_DB_POOL", atLeastOne, 10),
  retentionDays: setting("TESSERA_LOG_RETENTION_DAYS", wholeNumber, 30),
  /** Credits per Autofix call. */
  autofixPrice: setting("TESSERA_AUTOFIX_PRICE", price, 1),
  /** Credits per Embed Chat Completions call. */
  embedPrice: setting("TESSERA_EMBED_PRICE", price, 0),
  /** Credits per response (streamed and background ones included) and per compaction. */
  responsesPrice: setting("TESSERA_RESPONSES_PRICE", price, 0),
  /** Credits per artifact generation or edit. */
  artifactPrice: setting("TESSERA_ARTIFACT_PRICE", price, 0),
  /** The models offered (comma-separated {provider}/{model} ids, src/providers/offered.ts); unset, any. */
  models: setting<string[] | null>("TESSERA_MODELS", modelIds, null),
  /** Browser origins allowed on the Conversations routes (comma-separated; `*` for any). */
  corsOrigins: setting<string[]>("TESSERA_CORS_ORIGINS", list, []),
  /** A provider's stream must start within this. */
  providerConnectTimeoutMs: setting("TESSERA_PROVIDER_CONNECT_TIMEOUT_MS", atLeastOne, DEFAULT_CALL_LIMITS.connectMs),
  /** The longest a provider may send nothing, mid-stream or before a whole answer. */
  providerIdleTimeoutMs: setting("TESSERA_PROVIDER_IDLE_TIMEOUT_MS", atLeastOne, DEFAULT_CALL_LIMITS.idleMs),
  /**
   * Provider calls one process runs at once (else Bun's own BUN_CONFIG_MAX_HTTP_REQUESTS, else
   * 4096: four times the 1,000 streams the bench holds); more wait for a free slot. See bun-start-env.ts.
   */
  maxProviderCalls: setting(
    "TESSERA_MAX_PROVIDER_CALLS",
    v.pipe(
      atLeastOne,
      v.transform((n) => Math.min(MAX_FETCH_LIMIT, n)),
    ),
    4096,
  ),
  /** How long a background job's claim holds without renewal. */
  leaseSeconds: setting("TESSERA_LEASE_SECONDS", atLeastOne, 30),
  /**
   * How long a stopping server lets requests in flight finish. An Autofix call that waits on the
   * fixing model can take up to its 60 s timeout; process managers kill after their own grace
   * (Kubernetes 30 s, systemd 90 s, Docker 10 s unless told), so the default stays under
   * Kubernetes'. Requests still running then are cut and their credit holds returned.
   */
  shutdownGraceMs: setting("TESSERA_SHUTDOWN_GRACE_MS", wholeNumber, 25_000),
  /** The master key (base64 of 32 bytes); unset, one is made once in dataDir. */
  masterKey: setting<string | null>("TESSERA_MASTER_KEY", text, null),
  /** Earlier master keys that may still open what they sealed (comma-separated), after a rotation. */
  previousMasterKeys: setting<string[]>("TESSERA_MASTER_KEY_PREVIOUS", list, []),
  /** Where a generated master key is kept (master.key, mode 0600). */
  dataDir: setting("TESSERA_DATA_DIR", text, "./data"),
};

type Settings = typeof SETTINGS;

export type ServerConfig = { -readonly [K in keyof Settings]: Settings[K]["fallback"] } & {
  /** The provider variables (base URLs, keys; src/providers/registry.ts) as set at start. */
  providers: Env;
  /** Autofix attempt 2's model (TESSERA_AUTOFIX_MODEL), or null for none. */
  fixingModel: FixingModelConfig | null;
  /** Hosted tools of Responses (web/image search, remote MCP): src/server/hosted/config.ts. */
  hostedTools?: HostedToolsConfig;
};

/** A bad value, named by its variable. */
export class ConfigError extends Error {}

function read<T>(s: Setting<T>, env: Env): T {
  const raw = env[s.variable];
  if (raw === undefined || raw === "") return s.fallback;
  const r = v.safeParse(s.schema, raw);
  if (!r.success) throw new ConfigError(`${s.variable} ${r.issues[0].message}, got ${JSON.stringify(raw)}`);
  return r.output;
}

/** The provider variables that are set; a base URL must be an http(s) URL. */
function providersFrom(env: Env): Env {
  const out: Env = {};
  for (const name of PROVIDER_VARIABLES) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    if (name.endsWith("_BASE_URL")) {
      const r = v.safeParse(httpUrl, raw);
      if (!r.success) throw new ConfigError(`${name} ${r.issues[0].message}, got ${JSON.stringify(raw)}`);
    }
    out[name] = raw;
  }
  return out;
}

export function fixingModelFrom(spec: string | undefined, providers: Env): FixingModelConfig | null {
  if (!spec) return null;
  const r = route(spec);
  if (!r) throw new ConfigError(`TESSERA_AUTOFIX_MODEL must look like {provider}/{model} (e.g. openai/gpt-4.1-mini), got ${JSON.stringify(spec)}`);
  const t = target(r, providers, null);
  if (!t.ok) throw new ConfigError(`TESSERA_AUTOFIX_MODEL: ${t.message}`);
  return { provider: r.provider, model: t.target.model, baseUrl: t.target.baseUrl.replace(/\/+$/, ""), apiKey: t.target.apiKey };
}

/** Concurrent provider calls per process unless set. */
export const DEFAULT_MAX_PROVIDER_CALLS = SETTINGS.maxProviderCalls.fallback;

/** The whole configuration from the environment; throws a ConfigError naming the first bad variable. */
export function configFromEnv(given: Env): ServerConfig {
  // Bun's own limit on concurrent fetches stands in for TESSERA_MAX_PROVIDER_CALLS when that is unset.
  const env: Env = { ...given, TESSERA_MAX_PROVIDER_CALLS: given.TESSERA_MAX_PROVIDER_CALLS || given.BUN_CONFIG_MAX_HTTP_REQUESTS };
  const out: Record<string, unknown> = {};
  for (const [field, s] of Object.entries(SETTINGS)) out[field] = read<unknown>(s, env);
  const providers = providersFrom(env);
  return {
    ...(out as Omit<ServerConfig, "providers" | "fixingModel">),
    providers,
    fixingModel: fixingModelFrom(env.TESSERA_AUTOFIX_MODEL, providers),
    hostedTools: hostedToolsFromEnv(env),
  };
}

/** Defaults with the given fields in their place: how tests and the benchmark configure a server. */
export function serverConfig(fields: Partial<ServerConfig>): ServerConfig {
  return { ...configFromEnv({}), ...fields };
}
