// Artifacts: slide decks and reports generated and edited through Artifact Chat Completions (paid
// per generation or edit, TESSERA_ARTIFACT_PRICE), and the stored versions under /v1/artifacts
// (free; the API key or a frontend token with the artifact scopes, its user's artifacts only).
import { paidRoute, route, type Surface } from "../../surface.ts";
import { artifactChatCompletions } from "./completions.ts";
import { ARTIFACT } from "./price.ts";
import * as a from "./routes.ts";

export const artifacts: Surface = {
  name: "artifacts",
  routes: [
    paidRoute("POST", "/v1/artifact/chat/completions", "key or token", ARTIFACT, artifactChatCompletions),
    route("GET", "/v1/artifacts", "key or token", a.list),
    route("GET", "/v1/artifacts/:id", "key or token", a.retrieve),
    route("POST", "/v1/artifacts/:id", "key or token", a.write),
    route("DELETE", "/v1/artifacts/:id", "key or token", a.remove),
    route("GET", "/v1/artifacts/:id/versions", "key or token", a.versions),
  ],
};
