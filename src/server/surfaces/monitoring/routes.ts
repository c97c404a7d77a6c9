// GET /v1/monitoring/reliability: the caller's organization, per model.
import { flushLogs, reliabilitySummary } from "../../../db/index.ts";
import type { AuthedContext } from "../../context.ts";

export async function reliability({ deps, org }: AuthedContext<string, "key">): Promise<Response> {
  // Events this process has queued (log-queue.ts) are counted too: a call that has answered is in the summary.
  await flushLogs(deps.db);
  const models = await reliabilitySummary(deps.db, org.id);
  return Response.json({ object: "reliability", organization: org.name, models });
}
