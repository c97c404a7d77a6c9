// `{provider}/{model}` → the adapter that serves it, and where to reach it.

import { aggregator } from "./aggregator.ts";
import { anthropic } from "./anthropic.ts";
import { google } from "./google.ts";
import { local } from "./local.ts";
import { openai } from "./openai.ts";
import type { ProviderAdapter, Target } from "./types.ts";

const DIRECT: Record<string, ProviderAdapter> = { openai, anthropic, google, local };

/** Every variable a provider target reads: its base URL and key (LOCAL_API_KEY: a local server's optional key). */
export const PROVIDER_VARIABLES: readonly string[] = [
  ...new Set([...Object.values(DIRECT), aggregator].flatMap((a) => [a.baseUrlEnv, ...(a.keyEnv ? [a.keyEnv] : [])])),
  "LOCAL_API_KEY",
];

export interface Route {
  /** The provider id the client wrote (before the slash). */
  provider: string;
  adapter: ProviderAdapter;
  /** The model id to send upstream. */
  upstreamModel: string;
}

const MODEL_ID = /^([A-Za-z0-9][A-Za-z0-9._-]*)\/(.+)$/;

/** The adapter for a provider id: a direct one, else the aggregator. */
export function adapterFor(provider: string): ProviderAdapter {
  return DIRECT[provider.toLowerCase()] ?? aggregator;
}

/** null when the id is not `{provider}/{model}`. */
export function route(model: string): Route | null {
  const m = MODEL_ID.exec(model);
  if (!m || m[2]!.trim() === "") return null;
  const provider = m[1]!.toLowerCase();
  const adapter = adapterFor(provider);
  if (adapter !== aggregator) return { provider, adapter, upstreamModel: m[2]! };
  // The aggregator knows models by their full id.
  return { provider, adapter: aggregator, upstreamModel: model };
}

export type TargetResult = { ok: true; target: Target } | { ok: false; message: string; param: string };

type Env = Record<string, string | undefined>;

/** Base URL and key for one call; a request-level key (byok) wins over the server's. */
export function target(r: Route, env: Env, byokKey: string | null): TargetResult {
  const a = r.adapter;
  const baseUrl = env[a.baseUrlEnv] || a.defaultBaseUrl;
  if (!baseUrl) {
    return { ok: false, message: `no server configured for provider "${r.provider}": set ${a.baseUrlEnv}`, param: "model" };
  }
  if (a.keyEnv === null) {
    // Local servers need no key; LOCAL_API_KEY is sent when the operator set one.
    return { ok: true, target: { model: r.upstreamModel, baseUrl, apiKey: byokKey ?? env.LOCAL_API_KEY ?? null } };
  }
  const apiKey = byokKey ?? env[a.keyEnv] ?? null;
  if (!apiKey) {
    return {
      ok: false,
      message: `no API key for provider "${r.provider}": set ${a.keyEnv} on the server, or send a request-level key in "byok"`,
      param: "model",
    };
  }
  return { ok: true, target: { model: r.upstreamModel, baseUrl, apiKey } };
}

/** The provider name a byok blob must be bound to for this route. */
export function keyProvider(r: Route): string {
  return r.adapter === aggregator ? "openrouter" : r.provider;
}
