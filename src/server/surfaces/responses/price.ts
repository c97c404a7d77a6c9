// What a Responses call costs and how its log reads: the same price (TESSERA_RESPONSES_PRICE) for
// a turn, however it is carried (JSON, SSE, WebSocket, background), and for a compaction.
import type { PaidSpec } from "../../paid.ts";

/** A turn's log keeps its input items as they were answered (references resolved). */
const logged = (input: unknown) => ({ conversation: JSON.stringify(input ?? null), library: null });

export const TURN: PaidSpec = { surface: "responses", reason: "responses", price: (c) => c.responsesPrice, logged };
export const COMPACTION: PaidSpec = { surface: "responses", reason: "responses.compact", price: (c) => c.responsesPrice, logged };

/** A hosted tool call (TESSERA_TOOL_PRICE), on top of its turn: its log names the item type and whether it ran. */
export const TOOL_CALL: PaidSpec = {
  surface: "hosted tool calls",
  reason: "responses.tool",
  price: (c) => c.hostedTools?.toolPrice ?? 0,
  logged: () => ({ conversation: "null", library: null }),
};
