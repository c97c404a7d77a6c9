// Remote MCP servers as hosted tools: each `mcp` entry lists its server's tools (or reuses a list
// an earlier turn of the chain or conversation made with the same URL, credentials and allowed tools), declares
// the allowed ones to the model, and runs the model's calls, or stops for the user's approval
// where `require_approval` asks for it. The entry's credentials live in memory for this turn only.
import { recordToolList, toolListFingerprint } from "../../../db/index.ts";
import { mcpFunctionName } from "../../../responses/hosted.ts";
import { newId } from "../../../responses/ids.ts";
import type { McpToolIn, ToolIn } from "../../../responses/schema.ts";
import type { FunctionToolOut, Item, McpApprovalRequestItem, McpCallItem, McpListToolsItem, McpToolListed } from "../../../responses/types.ts";
import type { HostedToolsConfig } from "../config.ts";
import type { Keyring } from "../../crypto/keyring.ts";
import { HttpError } from "../../errors.ts";
import { checkUrl, DEFAULT_OUTBOUND, guardedFetch, OutboundRefused, type OutboundPolicy } from "../outbound.ts";
import type { CallOutcome, HostedContext, HostedRun, HostedTool } from "../registry.ts";
import { McpConnection } from "./client.ts";

type Filter = { read_only?: boolean | null; tool_names?: string[] | null } | null | undefined;

const readOnly = (t: McpToolListed) => (t.annotations as { readOnlyHint?: unknown } | null | undefined)?.readOnlyHint === true;

/** Whether a filter names the tool (by name, or as read-only when it asks for those). */
function matches(f: Filter, t: McpToolListed): boolean {
  if (!f) return false;
  return (f.tool_names?.includes(t.name) ?? false) || (f.read_only === true && readOnly(t));
}

function allowed(entry: McpToolIn, t: McpToolListed): boolean {
  const a = entry.allowed_tools;
  if (!a) return true;
  if (Array.isArray(a)) return a.includes(t.name);
  return (!a.tool_names || a.tool_names.includes(t.name)) && (a.read_only !== true || readOnly(t));
}

/** require_approval: "never" runs every call; "always", or no setting, asks first; a filter decides per tool. */
export function needsApproval(entry: McpToolIn, t: McpToolListed): boolean {
  const r = entry.require_approval;
  if (r === "never") return false;
  if (r === "always" || !r) return true;
  if (matches(r.never, t)) return false;
  if (matches(r.always, t)) return true;
  return true;
}

/** The fingerprint of what a list was made with: keyed, so it says nothing of the credentials. */
async function fingerprint(entry: McpToolIn, keys: Keyring): Promise<string> {
  const key = await keys.hmacKey("mcp-tool-lists");
  const headers = Object.entries(entry.headers ?? {})
    .map(([k, v]) => [k.toLowerCase(), v])
    .sort();
  // allowed_tools too: a stored list holds only the tools allowed when it was made.
  const data = JSON.stringify([entry.server_url, entry.authorization ?? null, headers, entry.allowed_tools ?? null]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(data)));
  return Buffer.from(mac).toString("base64url");
}

export async function mcpTools(entries: ToolIn[], config: HostedToolsConfig): Promise<HostedTool[]> {
  const mcp = entries.filter((t): t is McpToolIn => t.type === "mcp");
  const policy: OutboundPolicy = { ...DEFAULT_OUTBOUND, allowed: config.privateHostsAllowed };
  const labels = new Set<string>();
  for (const [i, entry] of mcp.entries()) {
    if (labels.has(entry.server_label))
      throw new HttpError(400, `two mcp tools have the server_label ${entry.server_label}: labels must differ`, { param: "tools" });
    labels.add(entry.server_label);
    if (entry.headers && Object.keys(entry.headers).some((k) => k.toLowerCase() === "authorization") && entry.authorization) {
      throw new HttpError(400, `mcp tool ${entry.server_label}: send the token either as authorization or as an Authorization header, not both`, {
        param: "tools",
      });
    }
    try {
      await checkUrl(new URL(entry.server_url), policy);
    } catch (e) {
      if (e instanceof OutboundRefused)
        throw new HttpError(400, `mcp tool ${entry.server_label}: ${e.message}`, { param: `tools[${i}].server_url`, code: "server_url_refused" });
      throw e;
    }
  }
  return mcp.map((entry) => new McpServerTool(entry, config, policy));
}

class McpServerTool implements HostedTool {
  readonly kind = "mcp";
  private tools: McpToolListed[] = [];
  private byFunction = new Map<string, McpToolListed>();
  private connection: McpConnection;

  constructor(
    private readonly entry: McpToolIn,
    private readonly config: HostedToolsConfig,
    policy: OutboundPolicy,
  ) {
    const headers: Record<string, string> = { ...(entry.headers ?? {}) };
    if (entry.authorization) headers.authorization = `Bearer ${entry.authorization}`;
    const secrets = [...Object.values(entry.headers ?? {}), ...(entry.authorization ? [entry.authorization] : [])];
    this.connection = new McpConnection({ url: entry.server_url, headers }, guardedFetch(policy), secrets);
  }

  private get label() {
    return this.entry.server_label;
  }

  private use(tools: McpToolListed[]) {
    this.tools = tools.filter((t) => allowed(this.entry, t));
    this.byFunction = new Map(this.tools.map((t) => [mcpFunctionName(this.label, t.name), t]));
  }

  async start(ctx: HostedContext): Promise<McpListToolsItem[]> {
    const fp = await fingerprint(this.entry, ctx.deps.keys);
    const earlier = [...ctx.context].reverse().find((i): i is McpListToolsItem => i.type === "mcp_list_tools" && i.server_label === this.label && !i.error);
    if (earlier && (await toolListFingerprint(ctx.deps.db, ctx.org.id, earlier.id)) === fp) {
      this.use(earlier.tools);
      return [];
    }
    let listed: McpToolListed[];
    try {
      listed = await this.connection.listTools(this.config.mcpTimeoutMs, ctx.signal);
    } catch (e) {
      const err = this.connection.errorOf(e, this.config.mcpTimeoutMs);
      const why = err.type === "mcp_tool_execution_error" ? "the server failed" : err.message;
      throw new HttpError(424, `Error retrieving tool list from MCP server '${this.label}': ${why}`, { param: "tools", code: "mcp_list_tools_failed" });
    }
    const item: McpListToolsItem = {
      type: "mcp_list_tools",
      id: newId("mcpListTools"),
      server_label: this.label,
      tools: listed.filter((t) => allowed(this.entry, t)),
      error: null,
    };
    this.use(listed);
    if (ctx.store) await recordToolList(ctx.deps.db, ctx.org.id, item.id, fp);
    return [item];
  }

  declarations(): FunctionToolOut[] {
    const about = this.entry.server_description ? ` (${this.label}: ${this.entry.server_description})` : ` (MCP server ${this.label})`;
    return [...this.byFunction].map(([name, t]) => ({
      type: "function",
      name,
      description: `${t.description ?? t.name}${about}`,
      parameters: t.input_schema ?? { type: "object", properties: {} },
      strict: false,
    }));
  }

  owns(name: string): boolean {
    return this.byFunction.has(name);
  }

  call(call: { name: string; arguments: string }, ctx: HostedContext): HostedRun {
    const tool = this.byFunction.get(call.name)!;
    if (needsApproval(this.entry, tool)) {
      const item: McpApprovalRequestItem = {
        type: "mcp_approval_request",
        id: newId("mcpApprovalRequest"),
        server_label: this.label,
        name: tool.name,
        arguments: call.arguments,
      };
      return { item, run: async () => ({ ran: false, pause: true }) };
    }
    return this.run(tool.name, call.arguments, null, ctx);
  }

  /** Calls approved in this request's input (not yet run in an earlier turn). */
  resumed(ctx: HostedContext): HostedRun[] {
    const requests = new Map<string, McpApprovalRequestItem>();
    const done = new Set<string>();
    for (const i of ctx.context) {
      if (i.type === "mcp_approval_request" && i.server_label === this.label) requests.set(i.id, i);
      if (i.type === "mcp_call" && i.approval_request_id) done.add(i.approval_request_id);
    }
    const runs: HostedRun[] = [];
    for (const i of ctx.context) {
      if (i.type !== "mcp_approval_response" || !i.approve || done.has(i.approval_request_id)) continue;
      const req = requests.get(i.approval_request_id);
      if (!req) continue;
      done.add(req.id);
      runs.push(this.run(req.name, req.arguments, req.id, ctx));
    }
    return runs;
  }

  private run(name: string, args: string, approvalRequestId: string | null, ctx: HostedContext): HostedRun {
    const item: McpCallItem = {
      type: "mcp_call",
      id: newId("mcpCall"),
      server_label: this.label,
      name,
      arguments: args,
      output: null,
      error: null,
      ...(approvalRequestId ? { approval_request_id: approvalRequestId } : {}),
      status: "in_progress",
    };
    return {
      item,
      run: async (): Promise<CallOutcome> => {
        if (!this.tools.some((t) => t.name === name)) {
          item.error = { type: "mcp_protocol_error", code: -32602, message: `the tool ${name} is not among the allowed tools of ${this.label}` };
          item.status = "failed";
          return { ran: false };
        }
        let parsed: unknown;
        try {
          parsed = args.trim() ? JSON.parse(args) : {};
        } catch {
          parsed = null;
        }
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
          item.error = { type: "mcp_protocol_error", code: -32602, message: "the arguments are not a JSON object" };
          item.status = "failed";
          return { ran: false };
        }
        const r = await this.connection.callTool(name, parsed as Record<string, unknown>, this.config.mcpTimeoutMs, ctx.signal);
        if ("output" in r) {
          item.output = r.output;
          item.status = "completed";
          return { ran: true };
        }
        item.error = r.error;
        item.status = "failed";
        return { ran: r.ran };
      },
    };
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/** An approval answered in a request's input: the request it answers must be in the conversation, and its server among the tools. */
export function checkApprovals(input: readonly Item[], context: readonly Item[], entries: readonly ToolIn[] | null | undefined): void {
  const labels = new Set((entries ?? []).filter((t) => t.type === "mcp").map((t) => (t as McpToolIn).server_label));
  for (const [i, item] of input.entries()) {
    if (item.type !== "mcp_approval_response") continue;
    const req = context.find((c) => c.type === "mcp_approval_request" && c.id === item.approval_request_id) as McpApprovalRequestItem | undefined;
    if (!req) {
      throw new HttpError(
        400,
        `mcp_approval_response: no mcp_approval_request ${item.approval_request_id} in this conversation (continue it with previous_response_id or conversation)`,
        { param: `input[${i}].approval_request_id`, code: "approval_request_not_found" },
      );
    }
    if (item.approve && !labels.has(req.server_label)) {
      throw new HttpError(
        400,
        `mcp_approval_response: the approved call is to MCP server '${req.server_label}', which is not among this request's tools: send its mcp tool again (its credentials are not kept between requests)`,
        { param: "tools", code: "mcp_server_missing" },
      );
    }
  }
}
