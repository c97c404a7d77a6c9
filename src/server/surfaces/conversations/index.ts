// Conversations under /v1: for the API key and for frontend tokens (a browser, on its user's
// conversations only). Free; the browser's CORS headers are app.ts's (cors.ts).
import { route, type Surface } from "../../surface.ts";
import * as c from "./routes.ts";

export const conversations: Surface = {
  name: "conversations",
  routes: [
    route("POST", "/v1/conversations", "key or token", c.create),
    route("GET", "/v1/conversations", "key or token", c.list),
    route("GET", "/v1/conversations/:id", "key or token", c.retrieve),
    route("POST", "/v1/conversations/:id", "key or token", c.update),
    route("DELETE", "/v1/conversations/:id", "key or token", c.remove),
    route("POST", "/v1/conversations/:id/items", "key or token", c.addItems),
    route("GET", "/v1/conversations/:id/items", "key or token", c.listItems),
    route("GET", "/v1/conversations/:id/items/:item", "key or token", c.retrieveItem),
    route("DELETE", "/v1/conversations/:id/items/:item", "key or token", c.removeItem),
  ],
};
