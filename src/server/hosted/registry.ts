// Hosted tools: the tools of a Responses request that the service runs itself. Each kind is a
// factory in KINDS: from the request's tool entry it makes a HostedTool, which declares functions
// to the model, opens and runs one call of the model's (its item and events), and is priced per
// call that ran. The loop that drives them is src/server/surfaces/responses/tool-loop.ts; a new kind is one
// more entry here and a file of its own.
import type { Organization } from "../../db/index.ts";
import type { HostedCall } from "../../responses/events.ts";
import type { ToolIn } from "../../responses/schema.ts";
import type { FunctionCallItem, FunctionToolOut, OutputFunctionCallOutputItem, Item, OutputItem } from "../../responses/types.ts";
import type { AppDeps } from "../context.ts";
import type { PaidSpec } from "../paid.ts";
import type { ProviderCall } from "../provider-target.ts";
import { DEFAULT_MAX_TOOL_ROUNDS, DEFAULT_MCP_TIMEOUT_MS, type HostedToolsConfig } from "./config.ts";
import { HttpError } from "../errors.ts";
import { newId } from "../../responses/ids.ts";
import { artifactTools } from "./artifact/tool.ts";
import { mcpTools } from "./mcp/tool.ts";
import { imageSearchTool, webSearchTool } from "./search/tool.ts";

/** What a hosted tool may use while a turn runs. */
export interface HostedContext {
  deps: AppDeps;
  org: Organization;
  /** The conversation so far: history, then the request's input. */
  context: Item[];
  /** Whether the response is stored (a tool list's fingerprint is kept only then). */
  store: boolean;
  include: readonly string[];
  signal: AbortSignal;
  /** The turn's model and whose work it is (the artifact tool writes with that model, for that user). */
  turn: { provider: ProviderCall; model: string; userId: string | null; conversationId: string | null };
}

/** What came of one call. */
export interface CallOutcome {
  /** It reached the tool (billed); false for refusals, time-outs, unreachable servers. */
  ran: boolean;
  /** The turn ends after this round without another model call (a call awaits approval). */
  pause?: boolean;
  /** What the model is told, when fuller than the item keeps (search results' snippets). */
  modelText?: string;
  /** Pages the model may cite (url_citation annotations). */
  sources?: { url: string; title: string }[];
  /** A call run as a function (its item a function_call): its output item, added once it has run. */
  output?: OutputFunctionCallOutputItem;
  /** The models' tokens the call used, for its log. */
  tokens?: { input: number; output: number };
}

/** One call: its item as opened, and the run that finishes the item in place. */
export interface HostedRun {
  item: Exclude<OutputItem, { type: "message" } | { type: "function_call_output" }>;
  /** `write`: for a function_call item, what the run adds to its arguments (streamed as it is written). */
  run(write?: (argumentsDelta: string) => void): Promise<CallOutcome>;
  /** What the call costs when it ran; TESSERA_TOOL_PRICE when not given. */
  price?: PaidSpec;
}

/** A function_call item's output: what the model and the front end read. */
export function callOutput(item: FunctionCallItem, output: string): OutputFunctionCallOutputItem {
  return { type: "function_call_output", id: newId("functionCallOutput"), call_id: item.call_id, output, status: "completed" };
}

export interface HostedTool {
  readonly kind: string;
  /** Before the first model call: finished items to show (an MCP server's tool list). */
  start?(ctx: HostedContext): Promise<HostedRun["item"][]>;
  /** Calls to run before the first model call (approved in this request's input). */
  resumed?(ctx: HostedContext): HostedRun[];
  /** The functions the model is offered (valid once `start` has run). */
  declarations(): FunctionToolOut[];
  owns(functionName: string): boolean;
  call(call: HostedCall, ctx: HostedContext): HostedRun;
  close?(): Promise<void>;
}

export interface HostedSetup {
  config: HostedToolsConfig;
  tools: HostedTool[];
}

type Factory = (entries: ToolIn[], config: HostedToolsConfig) => Promise<HostedTool[]>;

/** One factory per kind; each takes every entry of its kind (MCP servers are told apart by label). */
const KINDS: Factory[] = [mcpTools, webSearchTool, imageSearchTool, artifactTools];

const DEFAULTS: HostedToolsConfig = {
  webSearch: null,
  privateHostsAllowed: [],
  toolPrice: 0,
  mcpTimeoutMs: DEFAULT_MCP_TIMEOUT_MS,
  maxToolRounds: DEFAULT_MAX_TOOL_ROUNDS,
};

export function hostedConfig(deps: Pick<AppDeps, "config">): HostedToolsConfig {
  return deps.config.hostedTools ?? DEFAULTS;
}

/**
 * The hosted tools of a request, checked (a 400 names what cannot be run and why); null when it
 * has none. Nothing is fetched yet: an MCP server's URL is only resolved and checked.
 */
export async function hostedToolsOf(entries: readonly ToolIn[] | null | undefined, config: HostedToolsConfig): Promise<HostedSetup | null> {
  const list = (entries ?? []).filter((t) => t.type !== "function");
  if (list.length === 0) return null;
  const tools = (await Promise.all(KINDS.map((k) => k(list, config)))).flat();
  const names = new Set((entries ?? []).filter((t) => t.type === "function").map((t) => (t as { name: string }).name));
  for (const t of tools) {
    for (const d of t.declarations()) {
      if (names.has(d.name))
        throw new HttpError(400, `the function tool ${d.name} has the name a hosted tool is offered to the model under: rename it`, { param: "tools" });
    }
  }
  return { config, tools };
}
