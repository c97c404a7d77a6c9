// Static migration list: no folder scan, so bundlers and `bun build` see every file.
// Add a migration by importing it here under a name that sorts after the last one.
import type { Migration, MigrationProvider } from "kysely";
import * as m0001 from "./0001_initial.ts";
import * as m0002 from "./0002_responses.ts";
import * as m0003 from "./0003_credit_holds.ts";
import * as m0004 from "./0004_log_libraries.ts";
import * as m0005 from "./0005_owners.ts";
import * as m0006 from "./0006_frontend_token_spend.ts";
import * as m0007 from "./0007_artifacts.ts";
import * as m0008 from "./0008_mcp_tool_lists.ts";
import * as m0009 from "./0009_lean_credit_holds.ts";
import * as m0010 from "./0010_lean_response_writes.ts";
import * as m0011 from "./0011_lean_ledger.ts";

const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_responses": m0002,
  "0003_credit_holds": m0003,
  "0004_log_libraries": m0004,
  "0005_owners": m0005,
  "0006_frontend_token_spend": m0006,
  "0007_artifacts": m0007,
  "0008_mcp_tool_lists": m0008,
  "0009_lean_credit_holds": m0009,
  "0010_lean_response_writes": m0010,
  "0011_lean_ledger": m0011,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
