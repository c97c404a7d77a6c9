// Liveness for load balancers and process managers.
import { route, type Surface } from "../../surface.ts";
import { health as liveness } from "./routes.ts";

export const health: Surface = { name: "health", routes: [route("GET", "/health", "none", liveness)] };
