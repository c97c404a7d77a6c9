// The usual split for orchestrators, no key on any of them:
//   /health/live   the process answers (no database round trip): restart it when this fails
//   /health/ready  the database answers and takes writes, and the server is not stopping: send it traffic
//   /health        the same check as ready, for people and simple monitors
// A database in trouble is 503 `degraded`, naming the trouble, with Retry-After.
import { probeDatabase } from "../../../db/health.ts";
import { RETRY_AFTER_SECONDS, TROUBLE_TEXT } from "../../../db/trouble.ts";
import type { Handler } from "../../context.ts";

export const live: Handler = async () => Response.json({ status: "ok" });

export const ready: Handler = async (ctx) => {
  if (ctx.deps.draining) return Response.json({ status: "stopping" }, { status: 503, headers: { "retry-after": "1" } });
  const trouble = await probeDatabase(ctx.deps.db);
  if (!trouble) return Response.json({ status: "ok" });
  return Response.json(
    { status: "degraded", database: trouble, message: TROUBLE_TEXT[trouble] },
    { status: 503, headers: { "retry-after": String(RETRY_AFTER_SECONDS[trouble]) } },
  );
};

export const health: Handler = ready;
