// The models the operator offers (TESSERA_MODELS), under /v1 and /v1/embed; free, for an API key or
// a frontend token.
import { route, type Surface } from "../../surface.ts";
import * as m from "./routes.ts";

export const models: Surface = {
  name: "models",
  routes: (["/v1", "/v1/embed"] as const).flatMap((base) => [
    route("GET", `${base}/models`, "key or token", m.list),
    route("GET", `${base}/models/:id`, "key or token", m.retrieve),
    // A model id has a slash: the openai client escapes it (%2F, one segment); curl users may not.
    route("GET", `${base}/models/:provider/:model`, "key or token", m.retrieveSplit),
  ]),
};
