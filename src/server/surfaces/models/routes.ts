// GET /v1/models and /v1/embed/models (and /{id}): the models the operator offers (TESSERA_MODELS,
// src/providers/offered.ts), in OpenAI's list shape, for an API key or a frontend token.
import { listableModels } from "../../../providers/offered.ts";
import { authenticatePrincipal } from "../../auth.ts";
import type { Handler } from "../../context.ts";
import { HttpError } from "../../errors.ts";

// `created` is when this process started: the service has no date for a provider's model.
const STARTED = Math.floor(Date.now() / 1000);

const modelJson = (m: { id: string; provider: string }) => ({ id: m.id, object: "model", created: STARTED, owned_by: m.provider });

export const list: Handler = async (ctx) => {
  await authenticatePrincipal(ctx.deps.db, ctx.req);
  return Response.json({ object: "list", data: listableModels(process.env).map(modelJson) });
};

export const retrieve: Handler = async (ctx) => {
  await authenticatePrincipal(ctx.deps.db, ctx.req);
  // The id has a slash: escaped (%2F, as the openai client sends it) it is one path segment, else two.
  const id = ctx.params.id ?? `${ctx.params.provider}/${ctx.params.model}`;
  const found = listableModels(process.env).find((m) => m.id === id);
  if (!found) throw new HttpError(404, `the model ${JSON.stringify(id)} is not offered by this server`, { param: "model", code: "model_not_found" });
  return Response.json(modelJson(found));
};
