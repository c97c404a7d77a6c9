// GET /v1/models (and /{id}): the models the operator offers (TESSERA_MODELS,
// src/providers/offered.ts) whose provider the server reaches, in OpenAI's list shape.
import { listableModels } from "../../../providers/offered.ts";
import type { AuthedContext } from "../../context.ts";
import { HttpError } from "../../errors.ts";

// `created` is when this process started: the service has no date for a provider's model.
const STARTED = Math.floor(Date.now() / 1000);

const modelJson = (m: { id: string; provider: string }) => ({ id: m.id, object: "model", created: STARTED, owned_by: m.provider });

const listed = ({ deps }: AuthedContext<string, "key or token">) => listableModels(deps.config.models, deps.config.providers);

export async function list(ctx: AuthedContext<string, "key or token">): Promise<Response> {
  return Response.json({ object: "list", data: listed(ctx).map(modelJson) });
}

function one(ctx: AuthedContext<string, "key or token">, id: string): Response {
  const found = listed(ctx).find((m) => m.id === id);
  if (!found) throw new HttpError(404, `the model ${JSON.stringify(id)} is not offered by this server`, { param: "model", code: "model_not_found" });
  return Response.json(modelJson(found));
}

export async function retrieve(ctx: AuthedContext<"/v1/models/:id", "key or token">): Promise<Response> {
  return one(ctx, ctx.params.id);
}

export async function retrieveSplit(ctx: AuthedContext<"/v1/models/:provider/:model", "key or token">): Promise<Response> {
  return one(ctx, `${ctx.params.provider}/${ctx.params.model}`);
}
