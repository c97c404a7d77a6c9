// Ids with the prefixes the OpenAI wire uses (resp_, conv_, msg_, fc_, call_ …), 48 hex digits:
// the time in milliseconds (12), then 18 random bytes (36). The random part keeps them
// unguessable, so an id alone never reaches another organization's data; the time first makes
// new ids sort after older ones, so that the indexes they key (a response's id, an organization's
// item ids) take each new row at their end, one page per turn, rather than on pages all over the
// index (a turn's items each on another leaf, a split here and there: each a page more to commit).
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

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
const RANDOM_BYTES = 18;
// Random bytes drawn a batch at a time: one call for many ids, as each call costs more than the bytes.
const BATCH = RANDOM_BYTES * 64;
const pool = new Uint8Array(BATCH);
let used = BATCH;

export function newId(kind: IdKind): string {
  if (used === BATCH) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  // 12 hex digits hold the milliseconds until the year 10889.
  let hex = PREFIXES[kind] + Date.now().toString(16).padStart(12, "0");
  for (const end = used + RANDOM_BYTES; used < end; used++) hex += HEX[pool[used]!];
  return hex;
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
