// GET /v1/monitoring/reliability: the caller's organization, per model.
import { reliabilitySummary } from "../../../db/index.ts";
import { authenticate } from "../../auth.ts";
import type { Handler } from "../../context.ts";

export const reliability: Handler = async ({ req, deps }) => {
  const org = await authenticate(deps.db, req);
  const models = await reliabilitySummary(deps.db, org.id);
  return Response.json({ object: "reliability", organization: org.name, models });
};
