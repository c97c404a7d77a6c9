// Ids with the prefixes the OpenAI wire uses (resp_, conv_, msg_, fc_, call_ …): 24 random bytes
// as hex keep them unguessable, so an id alone never reaches another organization's data.
const PREFIXES = {
  response: "resp_",
  conversation: "conv_",
  message: "msg_",
  functionCall: "fc_",
  callId: "call_",
  functionCallOutput: "fco_",
  reasoning: "rs_",
  compaction: "cmp_",
  mcpListTools: "mcpl_",
  mcpCall: "mcp_",
  mcpApprovalRequest: "mcpr_",
  mcpApprovalResponse: "mcpa_",
  webSearch: "ws_",
  imageSearch: "is_",
} as const;

export type IdKind = keyof typeof PREFIXES;

export function newId(kind: IdKind): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return PREFIXES[kind] + hex;
}

const KIND_OF_ITEM: Record<string, IdKind> = {
  message: "message",
  function_call: "functionCall",
  function_call_output: "functionCallOutput",
  reasoning: "reasoning",
  compaction: "compaction",
  mcp_list_tools: "mcpListTools",
  mcp_call: "mcpCall",
  mcp_approval_request: "mcpApprovalRequest",
  mcp_approval_response: "mcpApprovalResponse",
  web_search_call: "webSearch",
  image_search_call: "imageSearch",
};

/** The item under an id of its own (a conversation's copy: ids are unique there). */
export function withFreshId<T extends { type: string; id: string }>(item: T): T {
  return { ...item, id: newId(KIND_OF_ITEM[item.type] ?? "message") };
}
