// The Responses API under /v1/embed: turns answered as JSON, SSE, over a WebSocket or in the
// background (a job any replica can take over), stored responses read, replayed, cancelled and
// deleted, token estimates and compaction; paid per turn and per compaction (TESSERA_RESPONSES_PRICE).
import { failOwnRuns, startSweeper } from "./background.ts";
import { COMPACTION, TURN } from "./price.ts";
import * as r from "./routes.ts";
import { ENDPOINT } from "./run.ts";
import { isSocketUpgrade, socketHandler, upgradeSocket } from "./websocket.ts";
import { paidRoute, route, type SocketSpec, type Surface } from "../../surface.ts";

export const responses: Surface = {
  name: "responses",
  routes: [
    paidRoute("POST", ENDPOINT, "key or token", TURN, r.create),
    route("POST", "/v1/embed/responses/input_tokens", "key", r.inputTokens),
    paidRoute("POST", "/v1/embed/responses/compact", "key", COMPACTION, r.compact),
    route("GET", "/v1/embed/responses/:id", "key", r.retrieve),
    route("DELETE", "/v1/embed/responses/:id", "key", r.remove),
    route("POST", "/v1/embed/responses/:id/cancel", "key", r.cancel),
    route("GET", "/v1/embed/responses/:id/input_items", "key", r.inputItems),
  ],
  jobs: [
    {
      // Background jobs whose server stopped: queued ones are run here, running ones failed; at a
      // stop, this process's own runs are failed (they would outlive any grace), holds handed back.
      name: "background responses",
      async start(deps) {
        const stop = await startSweeper(deps.db, deps.log, deps.config.leaseSeconds, deps);
        return { stop, abandon: () => failOwnRuns(deps.db) };
      },
    },
  ],
  socket: { matches: isSocketUpgrade, upgrade: upgradeSocket, handler: socketHandler } as SocketSpec<never>,
};
