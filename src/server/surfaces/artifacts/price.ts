// What an artifact generation or edit costs (TESSERA_ARTIFACT_PRICE): the same price whether it is
// asked for through Artifact Chat Completions or made by the artifact tool of a Responses turn.
import type { PaidSpec } from "../../paid.ts";

export const ARTIFACT: PaidSpec = { surface: "artifacts", reason: "artifact", price: (c) => c.artifactPrice };

/** One made by a Responses turn's artifact tool, on top of its turn: its log keeps no input of its own. */
export const ARTIFACT_TOOL_CALL: PaidSpec = { ...ARTIFACT, logged: () => ({ conversation: "null", library: null }) };
