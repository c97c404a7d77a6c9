// The database layer's public surface.
export { openDatabase, migrate, type Db } from "./connect.ts";
export { capabilities, describeTarget, isPostgresTarget, type Capabilities } from "./dialect.ts";
export type * from "./schema.ts";
export * from "./orgs.ts";
export { MAX_CREDITS, creditAmountProblem } from "./credits.ts";
export * from "./keys.ts";
export * from "./billing.ts";
export * from "./logs.ts";
export { flushLogs, writeReliabilityEvent, writeRequestLog } from "./log-queue.ts";
export { purgeOldLogs, startRetention } from "./retention.ts";
export * from "./responses.ts";
export * from "./conversations.ts";
export type { Page, PageQuery } from "./page.ts";
export * from "./frontend-tokens.ts";
export * from "./artifacts.ts";
export { revokeUserTokens, tokenStanding, type TokenStanding } from "./token-revocations.ts";
export { ownerOf, releaseDeadOwners, releaseOwner, startOwnerLease } from "./owners.ts";
export * from "./mcp-tool-lists.ts";
