// Autofix: a generation checked against its library and, when invalid, repaired (sanitizer, then
// the fixing model when one is configured); paid per call (TESSERA_AUTOFIX_PRICE).
import type { PaidSpec } from "../../paid.ts";
import { paidRoute, type Surface } from "../../surface.ts";
import { autofix as handler } from "./handler.ts";
import { AUTOFIX_MODEL } from "./response.ts";

const PAID: PaidSpec = { surface: "autofix", reason: "autofix", price: (c) => c.autofixPrice, model: AUTOFIX_MODEL };

export const autofix: Surface = {
  name: "autofix",
  routes: [paidRoute("POST", "/v1/autofix", "key", PAID, handler), paidRoute("POST", "/v1/autofix/chat/completions", "key", PAID, handler)],
};
