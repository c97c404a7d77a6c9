// Hosted tools' settings (read once at start with the rest of ServerConfig): the search backend,
// the private hosts a caller's MCP server may be on, the price per call and the time and round bounds.
import { creditAmountProblem } from "../../db/credits.ts";
import { parseAllowedHosts, type AllowedHost } from "./address.ts";
import { webSearchFromEnv, type WebSearchConfig } from "./search/index.ts";

export interface HostedToolsConfig {
  /** The search backend (TESSERA_WEB_SEARCH_PROVIDER, _URL, _KEY); null: web and image search are refused. */
  webSearch: WebSearchConfig | null;
  /** Private hosts a caller's MCP server may be on (TESSERA_PRIVATE_HOSTS_ALLOWED, host[:port], comma-separated). */
  privateHostsAllowed: AllowedHost[];
  /** Credits per hosted tool call that ran (TESSERA_TOOL_PRICE). */
  toolPrice: number;
  /** Time bound of one MCP request: listing tools or one call (TESSERA_MCP_TIMEOUT_MS). */
  mcpTimeoutMs: number;
  /** The most model calls one response makes while hosted tools run (TESSERA_MAX_TOOL_ROUNDS). */
  maxToolRounds: number;
}

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_TOOL_ROUNDS = 16;

function whole(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number >= 0, got ${JSON.stringify(value)}`);
  return n;
}

export function hostedToolsFromEnv(env: Record<string, string | undefined>): HostedToolsConfig {
  const toolPrice = whole(env.TESSERA_TOOL_PRICE, 0, "TESSERA_TOOL_PRICE");
  const problem = creditAmountProblem(toolPrice);
  if (problem) throw new Error(`TESSERA_TOOL_PRICE ${problem}, got ${JSON.stringify(env.TESSERA_TOOL_PRICE)}`);
  return {
    webSearch: webSearchFromEnv(env),
    privateHostsAllowed: parseAllowedHosts(env.TESSERA_PRIVATE_HOSTS_ALLOWED),
    toolPrice,
    mcpTimeoutMs: Math.max(1, whole(env.TESSERA_MCP_TIMEOUT_MS, DEFAULT_MCP_TIMEOUT_MS, "TESSERA_MCP_TIMEOUT_MS")),
    maxToolRounds: Math.max(2, whole(env.TESSERA_MAX_TOOL_ROUNDS, DEFAULT_MAX_TOOL_ROUNDS, "TESSERA_MAX_TOOL_ROUNDS")),
  };
}
