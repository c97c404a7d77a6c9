// Liveness: no key, no database round trip.
import type { Handler } from "../../context.ts";

export const health: Handler = async () => Response.json({ status: "ok" });
