// One remote MCP server for the length of a turn, through the official SDK (v1): Streamable HTTP,
// falling back to the older SSE transport when the server refuses it with a 4xx. Every request
// goes through the outbound guard, carries the caller's headers and authorization (held in memory
// only) and has a time bound; errors come back as the typed errors of an mcp_call item, with any
// credential cut out of their text.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { OutboundRefused } from "../outbound.ts";

/** A tool as an mcp_list_tools item lists it. */
export interface McpToolInfo {
  name: string;
  input_schema: Record<string, unknown>;
  description?: string | null;
  annotations?: unknown;
}

/** The `error` of an mcp_call item (an object, as OpenAI types it). */
export type McpCallError =
  | { type: "mcp_protocol_error"; code: number; message: string }
  | { type: "mcp_tool_execution_error"; content: unknown }
  | { type: "http_error"; code: number; message: string };

export type McpCallResult = { output: string } | { error: McpCallError; ran: boolean };

export interface McpEndpoint {
  url: string;
  /** Headers to send (the caller's, and their authorization as a bearer token): never stored. */
  headers: Record<string, string>;
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const CLIENT_INFO = { name: "tessera", version: "1" };
/** The most pages of tools/list read from one server. */
const MAX_TOOL_PAGES = 20;

export class McpConnection {
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;

  constructor(
    private readonly endpoint: McpEndpoint,
    private readonly fetch: Fetch,
    private readonly secrets: string[],
  ) {}

  /** The credentials' values cut out of a text that may quote them (an error from the server). */
  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) if (s.length >= 4) out = out.split(s).join("[redacted]");
    return out;
  }

  private connect(timeoutMs: number, signal?: AbortSignal): Promise<Client> {
    this.connecting ??= (async () => {
      const url = new URL(this.endpoint.url);
      const requestInit: RequestInit = { headers: this.endpoint.headers };
      const opts = { timeout: timeoutMs, signal };
      const streamable = new Client(CLIENT_INFO);
      try {
        await streamable.connect(
          new StreamableHTTPClientTransport(url, { requestInit, fetch: this.fetch, redirectPolicy: "follow", reconnectionOptions: NO_RECONNECT }),
          opts,
        );
        this.client = streamable;
        return streamable;
      } catch (e) {
        await streamable.close().catch(() => {});
        const status = e instanceof StreamableHTTPError ? e.code : undefined;
        if (!(typeof status === "number" && status >= 400 && status < 500 && status !== 401 && status !== 403)) throw e;
      }
      // Servers of the 2024-11-05 protocol answer the Streamable HTTP POST with 404 or 405.
      const sse = new Client(CLIENT_INFO);
      await sse.connect(new SSEClientTransport(url, { requestInit, eventSourceInit: { fetch: this.fetch } as never, fetch: this.fetch }), opts);
      this.client = sse;
      return sse;
    })();
    return this.connecting;
  }

  /** Every tool the server lists (following its pages). */
  async listTools(timeoutMs: number, signal?: AbortSignal): Promise<McpToolInfo[]> {
    const client = await this.connect(timeoutMs, signal);
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const r = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs, signal });
      for (const t of r.tools) {
        tools.push({
          name: t.name,
          input_schema: t.inputSchema as Record<string, unknown>,
          description: t.description ?? null,
          annotations: t.annotations ?? null,
        });
      }
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /** Calls one tool; a hung server, a refusal or a failing tool all come back as an error result. */
  async callTool(name: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<McpCallResult> {
    try {
      const client = await this.connect(timeoutMs, signal);
      // The time bound covers the whole call, progress notifications or not.
      const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs, maxTotalTimeout: timeoutMs, signal })) as CallToolResult;
      if (r.isError) return { error: { type: "mcp_tool_execution_error", content: this.redactDeep(r.content) }, ran: true };
      // A server that echoes the caller's credentials does not get them stored in an item.
      return { output: this.redact(outputText(r)) };
    } catch (e) {
      return { error: this.errorOf(e, timeoutMs), ran: false };
    }
  }

  /** A failure as an mcp_call error (or the text of an mcp_list_tools error). */
  errorOf(e: unknown, timeoutMs: number): McpCallError {
    if (e instanceof McpError) {
      const message = e.code === ErrorCode.RequestTimeout ? `the MCP server did not answer within ${timeoutMs} ms` : e.message;
      return { type: "mcp_protocol_error", code: e.code, message: this.redact(message) };
    }
    if (e instanceof StreamableHTTPError) return { type: "http_error", code: e.code ?? 502, message: this.redact(e.message) };
    if (e instanceof OutboundRefused) return { type: "http_error", code: 403, message: e.message };
    const message = e instanceof Error ? e.message : String(e);
    return { type: "http_error", code: 502, message: this.redact(`the MCP server could not be reached: ${message}`) };
  }

  private redactDeep(v: unknown): unknown {
    return this.secrets.length ? JSON.parse(this.redact(JSON.stringify(v ?? null))) : v;
  }

  async close(): Promise<void> {
    const c = this.client ?? (await this.connecting?.catch(() => null));
    await c?.close().catch(() => {});
  }
}

/** A dropped stream is not reopened: a turn has its own time bounds. */
const NO_RECONNECT = { initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1, maxRetries: 0 };

/** What the model reads of a result: its text parts; other parts and structured content as JSON. */
export function outputText(r: CallToolResult): string {
  const parts = (r.content ?? []).map((p) => (p.type === "text" ? p.text : JSON.stringify(p)));
  if (parts.length === 0 && r.structuredContent !== undefined) return JSON.stringify(r.structuredContent);
  return parts.join("\n");
}
