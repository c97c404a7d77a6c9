// The models the operator offers: TESSERA_MODELS, a comma-separated list of `{provider}/{model}`
// ids. Unset, every model of a reachable provider may be asked for (and none can be listed: the
// service does not ask providers what they have). Set, only those ids are accepted, and
// GET /v1/models lists the ones whose provider the server can reach with its own configuration.
import { route, target } from "./registry.ts";

type Env = Record<string, string | undefined>;

/**
 * Checked at start (src/server/config.ts reads TESSERA_MODELS into config.models: its ids in
 * order, without repeats, or null when unset): every entry must be a `{provider}/{model}` id.
 */
export function offeredModelsProblem(ids: readonly string[]): string | null {
  const bad = ids.filter((id) => route(id) === null);
  return bad.length ? `TESSERA_MODELS must list {provider}/{model} ids (e.g. openai/gpt-4.1-mini), got ${bad.map((b) => JSON.stringify(b)).join(", ")}` : null;
}

/** Whether a request may name this model (`offered` null: every model). */
export function isOffered(model: string, offered: readonly string[] | null): boolean {
  return offered === null || offered.includes(model);
}

/** What the models list shows: the offered ids the server can call with its own keys (`providers`: their variables). */
export function listableModels(offered: readonly string[] | null, providers: Env): { id: string; provider: string }[] {
  return (offered ?? []).flatMap((id) => {
    const r = route(id);
    return r && target(r, providers, null).ok ? [{ id, provider: r.provider }] : [];
  });
}
