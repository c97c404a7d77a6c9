// `{provider}/{model}` plus an optional request-level key (byok) → the adapter and where to call
// it. Shared by Embed and Responses; every refusal is a 400 that names the field to fix.
import { isOffered } from "../providers/offered.ts";
import { keyProvider, route, target } from "../providers/registry.ts";
import { isContextOverflow, ProviderError, UnsupportedRequestError, type ProviderAdapter, type Target } from "../providers/types.ts";
import type { AppDeps } from "./context.ts";
import { HttpError } from "./errors.ts";

/**
 * The longest a provider call may run (Embed, Responses, streamed or not) before it is cut: it
 * bounds how long the call holds credits (HOLD_EXPIRY_MS in src/db/billing.ts is longer).
 */
export const PROVIDER_DEADLINE_MS = 30 * 60 * 1000;

export interface ProviderCall {
  adapter: ProviderAdapter;
  target: Target;
  provider: string;
}

export async function resolveProvider(
  deps: Pick<AppDeps, "config" | "keys">,
  orgId: number,
  model: string,
  byok: { provider: string; encryptedApiKey: string } | undefined,
): Promise<ProviderCall> {
  const r = route(model);
  if (!r) throw new HttpError(400, "model must look like {provider}/{model}, e.g. openai/gpt-4o", { param: "model" });
  if (!isOffered(model, deps.config.models)) {
    throw new HttpError(404, `the model ${JSON.stringify(model)} is not offered by this server; GET /v1/models lists those it offers`, {
      param: "model",
      code: "model_not_found",
    });
  }
  let byokKey: string | null = null;
  if (byok) {
    const p = byok.provider.toLowerCase();
    if (p !== r.provider && p !== keyProvider(r)) {
      throw new HttpError(400, `byok.provider "${byok.provider}" does not match the model's provider "${r.provider}"`, { param: "byok.provider" });
    }
    byokKey = await deps.keys.open(orgId, p, byok.encryptedApiKey);
    if (byokKey === null) {
      throw new HttpError(400, "byok.encryptedApiKey cannot be opened: it was made for another organization or provider, or it was altered", {
        param: "byok.encryptedApiKey",
      });
    }
  }
  const t = target(r, deps.config.providers, byokKey);
  if (!t.ok) throw new HttpError(400, t.message, { param: t.param, code: "provider_key_missing" });
  return { adapter: r.adapter, target: t.target, provider: r.provider };
}

/**
 * A provider's failure, or a request it cannot take, as the HTTP answer; null for anything else.
 * A provider that refused the request itself (its 4xx but 408/429) is not worth a retry:
 * `x-should-retry: false` keeps the official clients from sending it twice more.
 */
export function providerHttpError(e: unknown): HttpError | null {
  if (e instanceof UnsupportedRequestError) return new HttpError(400, e.message, { param: e.param, code: "unsupported_by_provider" });
  if (!(e instanceof ProviderError)) return null;
  // Too long for the model's context window: the client's request to change, a 400 as OpenAI's own.
  if (isContextOverflow(e)) return new HttpError(400, e.message, { code: "context_length_exceeded", headers: { "x-should-retry": "false" } });
  const up = e.upstreamStatus;
  const refused = up !== null && up >= 400 && up < 500 && up !== 408 && up !== 429;
  return new HttpError(e.status, e.message, {
    code: e.status === 429 ? "upstream_rate_limited" : e.status === 504 ? "upstream_timeout" : "upstream_error",
    headers: refused ? { "x-should-retry": "false" } : undefined,
  });
}
