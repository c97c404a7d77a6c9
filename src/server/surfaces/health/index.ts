// Liveness and readiness for load balancers, orchestrators and process managers.
import { route, type Surface } from "../../surface.ts";
import { health as overall, live, ready } from "./routes.ts";

export const health: Surface = {
  name: "health",
  routes: [route("GET", "/health", "none", overall), route("GET", "/health/live", "none", live), route("GET", "/health/ready", "none", ready)],
};
