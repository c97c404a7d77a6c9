// The models the operator offers: TESSERA_MODELS, a comma-separated list of `{provider}/{model}`
// ids. Unset, every model of a reachable provider may be asked for (and none can be listed: the
// service does not ask providers what they have). Set, only those ids are accepted, and
// GET /v1/models lists the ones whose provider the server can reach with its own configuration.
import { route, target } from "./registry.ts";

type Env = Record<string, string | undefined>;

/** The ids TESSERA_MODELS names, in its order, without repeats; null when it is unset or empty. */
export function offeredModels(env: Env): string[] | null {
  const ids = [...new Set((env.TESSERA_MODELS ?? "").split(",").map((m) => m.trim()).filter(Boolean))];
  return ids.length ? ids : null;
}

/** Checked at start: every entry must be a `{provider}/{model}` id. */
export function offeredModelsProblem(env: Env): string | null {
  const bad = (offeredModels(env) ?? []).filter((id) => route(id) === null);
  return bad.length ? `TESSERA_MODELS must list {provider}/{model} ids (e.g. openai/gpt-4.1-mini), got ${bad.map((b) => JSON.stringify(b)).join(", ")}` : null;
}

/** Whether a request may name this model. */
export function isOffered(model: string, env: Env): boolean {
  const ids = offeredModels(env);
  return ids === null || ids.includes(model);
}

/** What the models list shows: the offered ids the server can call with its own keys. */
export function listableModels(env: Env): { id: string; provider: string }[] {
  return (offeredModels(env) ?? []).flatMap((id) => {
    const r = route(id);
    return r && target(r, env, null).ok ? [{ id, provider: r.provider }] : [];
  });
}
