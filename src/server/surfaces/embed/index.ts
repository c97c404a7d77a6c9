// Embed Chat Completions: any provider's models behind the chat completions wire, managed UI
// (the library's prompt in, its programs checked and repaired on the way out) or passthrough;
// paid per call (TESSERA_EMBED_PRICE).
import type { PaidSpec } from "../../paid.ts";
import { paidRoute, type Surface } from "../../surface.ts";
import { embedChatCompletions } from "./handler.ts";

const PAID: PaidSpec = { surface: "embed chat completions", reason: "embed", price: (c) => c.embedPrice };

export const embed: Surface = {
  name: "embed",
  routes: [paidRoute("POST", "/v1/embed/chat/completions", "key or token", PAID, embedChatCompletions)],
};
