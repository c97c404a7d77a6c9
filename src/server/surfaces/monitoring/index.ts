// Reliability monitoring: what the managed-UI checks found, per model, for the caller's organization.
import { route, type Surface } from "../../surface.ts";
import { reliability } from "./routes.ts";

export const monitoring: Surface = { name: "monitoring", routes: [route("GET", "/v1/monitoring/reliability", "key", reliability)] };
