// The one typed description of the database. Every query in src/db is checked against it.
import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

/** Timestamps are ISO-8601 UTC strings: they sort as text, so range purges stay simple SQL. */
type Timestamp = string;

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  /** Whole credits; the atomic charge keeps this from going below zero. */
  credits: number;
  /** 0 or 1: SQLite has no boolean type. */
  suspended: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  organization_id: number;
  /** Hex SHA-256 of the full key; the key itself is never stored. */
  key_hash: string;
  /** Short visible start of the key, for listing and revoking. */
  prefix: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  organization_id: number;
  /** Positive adds credits, negative removes them. */
  delta: number;
  reason: string;
  request_id: string | null;
  created_at: Timestamp;
}

/** Credits a paid call has taken and not yet settled; settling (or returning) deletes the row. */
export interface CreditHoldsTable {
  id: Generated<number>;
  organization_id: number;
  /** The request that took the hold: one hold per request. */
  request_id: string;
  amount: number;
  created_at: Timestamp;
  /** The server process (server_leases.id) that took it; null for holds older than 0005. */
  owner: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A running server process: its holds and stored responses are its own while its lease is live. */
export interface ServerLeasesTable {
  id: string;
  host: string;
  pid: number;
  /** Unix seconds. */
  lease_until: number;
  started_at: Timestamp;
}

/** Frontend tokens of this user minted before `revoked_before` (Unix seconds) are dead. */
export interface TokenRevocationsTable {
  organization_id: number;
  user_id: string;
  revoked_before: number;
}

export interface HealthProbesTable {
  id: string;
  filler: string;
}

export interface FrontendTokenSpendTable {
  token_id: string;
  organization_id: number;
  max_credits: number;
  spent: Generated<number>;
  /** Unix seconds: the token's own expiry (rows past it are only kept for the record). */
  expires_at: number;
}

export interface RequestLogsTable {
  id: Generated<number>;
  request_id: string;
  organization_id: number;
  endpoint: string;
  model: string;
  status: number;
  /**
   * JSON of the request's messages (never headers, so never a key). An accepted request's library
   * config block is not in it: that message is `{"role":…,"library_hash":…}` and the block is in
   * log_libraries. A rejected request (400/413/429) keeps only an excerpt (REJECTED_EXCERPT_BYTES).
   */
  conversation: string;
  /** The config block of this request in log_libraries, or null. */
  library_hash: ColumnType<string | null, string | null | undefined, string | null>;
  outcome: string;
  charge: number;
  duration_ms: number;
  input_tokens: ColumnType<number | null, number | null | undefined, number | null>;
  output_tokens: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
}

/** Each distinct library config block that request logs refer to, once. */
export interface LogLibrariesTable {
  /** Hex SHA-256 of the block's text. */
  hash: string;
  /** The block's text as the request sent it. */
  config: string;
  created_at: Timestamp;
}

export interface ReliabilityEventsTable {
  id: Generated<number>;
  organization_id: number;
  model: string;
  endpoint: string;
  outcome: string;
  /** JSON array of the error codes that were corrected. */
  corrected_codes: string;
  created_at: Timestamp;
}

/** Unix seconds, as the Responses wire has them. */
type Seconds = number;

export interface ConversationsTable {
  seq: Generated<number>;
  id: string;
  organization_id: number;
  user_id: string | null;
  /** JSON object. */
  metadata: string;
  created_at: Seconds;
}

export interface ConversationItemsTable {
  seq: Generated<number>;
  id: string;
  conversation_id: string;
  organization_id: number;
  /** JSON of the item as the API returns it. */
  item: string;
  created_at: Seconds;
}

export interface ResponsesTable {
  seq: Generated<number>;
  id: string;
  organization_id: number;
  status: string;
  model: string;
  previous_response_id: string | null;
  conversation_id: string | null;
  /** The application's user, when a frontend token created it. */
  user_id: string | null;
  background: number;
  /** JSON of the Response object as last written. */
  body: string;
  /** JSON of the checked create request (background jobs run from it). */
  request: string | null;
  worker: string | null;
  lease_until: Seconds | null;
  created_at: Seconds;
  updated_at: Seconds;
}

export interface ResponseItemsTable {
  seq: Generated<number>;
  id: string;
  response_id: string;
  organization_id: number;
  role: "input" | "output";
  item: string;
}

export interface ResponseEventsTable {
  seq: Generated<number>;
  response_id: string;
  sequence_number: number;
  event: string;
}

export interface ArtifactsTable {
  seq: Generated<number>;
  /** The application's own id (metadata.thesys.id), unique within the organization. */
  id: string;
  organization_id: number;
  user_id: string | null;
  kind: string;
  name: string | null;
  conversation_id: string | null;
  latest_version: number;
  created_at: Seconds;
  updated_at: Seconds;
}

export interface ArtifactVersionsTable {
  seq: Generated<number>;
  artifact_seq: number;
  version: number;
  base_version: number | null;
  source: string;
  content: string;
  created_at: Seconds;
}

export interface Database {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  credit_ledger: CreditLedgerTable;
  credit_holds: CreditHoldsTable;
  frontend_token_spend: FrontendTokenSpendTable;
  request_logs: RequestLogsTable;
  log_libraries: LogLibrariesTable;
  reliability_events: ReliabilityEventsTable;
  conversations: ConversationsTable;
  conversation_items: ConversationItemsTable;
  responses: ResponsesTable;
  response_items: ResponseItemsTable;
  response_events: ResponseEventsTable;
  server_leases: ServerLeasesTable;
  token_revocations: TokenRevocationsTable;
  health_probes: HealthProbesTable;
  artifacts: ArtifactsTable;
  artifact_versions: ArtifactVersionsTable;
  mcp_tool_lists: McpToolListsTable;
}

/** An mcp_list_tools item a later turn may reuse, with the fingerprint of what it was listed with. */
export interface McpToolListsTable {
  item_id: string;
  organization_id: number;
  fingerprint: string;
  created_at: string;
}

export type Organization = Selectable<OrganizationsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type CreditHold = Selectable<CreditHoldsTable>;
export type NewRequestLog = Insertable<RequestLogsTable>;
export type NewReliabilityEvent = Insertable<ReliabilityEventsTable>;
