// GET /v1/monitoring/reliability: the caller's organization, per model.
import { reliabilitySummary } from "../../../db/index.ts";
import type { AuthedContext } from "../../context.ts";

export async function reliability({ deps, org }: AuthedContext<string, "key">): Promise<Response> {
  const models = await reliabilitySummary(deps.db, org.id);
  return Response.json({ object: "reliability", organization: org.name, models });
}
