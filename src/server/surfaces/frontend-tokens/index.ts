// Frontend tokens: minted with the API key (server side), held by a browser for one user's
// conversations and, with the scopes for them, model turns on Responses and Embed.
import { route, type Surface } from "../../surface.ts";
import { mintFrontendToken, revokeFrontendTokens } from "./routes.ts";

export const frontendTokens: Surface = {
  name: "frontend tokens",
  routes: [route("POST", "/v1/frontend-tokens", "key", mintFrontendToken), route("POST", "/v1/frontend-tokens/revoke", "key", revokeFrontendTokens)],
};
