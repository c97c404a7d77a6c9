// Conversations under /v1, and the same under /v1/embed (so one client configured for
// {base}/v1/embed reaches them beside Responses): for the API key and for frontend tokens (a
// browser, on its user's conversations only). Free; the browser's CORS headers are app.ts's (cors.ts).
import { route, type Surface } from "../../surface.ts";
import * as c from "./routes.ts";

export const conversations: Surface = {
  name: "conversations",
  routes: (["/v1", "/v1/embed"] as const).flatMap((base) => [
    route("POST", `${base}/conversations`, "key or token", c.create),
    route("GET", `${base}/conversations`, "key or token", c.list),
    route("GET", `${base}/conversations/:id`, "key or token", c.retrieve),
    route("POST", `${base}/conversations/:id`, "key or token", c.update),
    route("DELETE", `${base}/conversations/:id`, "key or token", c.remove),
    route("POST", `${base}/conversations/:id/items`, "key or token", c.addItems),
    route("GET", `${base}/conversations/:id/items`, "key or token", c.listItems),
    route("GET", `${base}/conversations/:id/items/:item`, "key or token", c.retrieveItem),
    route("DELETE", `${base}/conversations/:id/items/:item`, "key or token", c.removeItem),
  ]),
};
