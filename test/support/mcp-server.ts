// A real MCP server from the official SDK (McpServer over its web-standard Streamable HTTP
// transport, stateless: one server and transport per request, as the SDK's example does), on
// loopback. Its tools echo, fail, hang until the server stops, and tell the headers they were sent;
// it records every JSON-RPC method it was asked and the headers each request carried.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";

export interface TestMcpServer {
  url: string;
  port: number;
  /** JSON-RPC methods asked, in order (initialize, tools/list, tools/call …). */
  methods: string[];
  /** The headers of every request. */
  headers: Record<string, string>[];
  /** Tool calls: name and arguments. */
  calls: { name: string; args: unknown }[];
  /** Resolves when a call of `hang` has started. */
  hanging(): Promise<void>;
  stop(): Promise<void>;
}

export async function startMcpServer(opts: { name?: string } = {}): Promise<TestMcpServer> {
  const released = Promise.withResolvers<void>();
  let hangStarted = Promise.withResolvers<void>();
  const state = { methods: [] as string[], headers: [] as Record<string, string>[], calls: [] as { name: string; args: unknown }[] };

  const build = (headers: Record<string, string>) => {
    const server = new McpServer({ name: opts.name ?? "test-tools", version: "1.0.0" });
    server.registerTool("echo", {
      description: "Says the text back",
      inputSchema: { text: z.string().describe("What to say back") },
      annotations: { readOnlyHint: true },
    }, async ({ text }) => {
      state.calls.push({ name: "echo", args: { text } });
      return { content: [{ type: "text", text: `echo: ${text}` }] };
    });
    server.registerTool("fail", { description: "Always fails", inputSchema: { reason: z.string().optional() } }, async (args) => {
      state.calls.push({ name: "fail", args });
      return { isError: true, content: [{ type: "text", text: "the tool failed on purpose" }] };
    });
    server.registerTool("hang", { description: "Never answers", inputSchema: {} }, async () => {
      state.calls.push({ name: "hang", args: {} });
      hangStarted.resolve();
      await released.promise;
      return { content: [{ type: "text", text: "too late" }] };
    });
    server.registerTool("whoami", { description: "Tells the headers the server was sent", inputSchema: {} }, async () => {
      state.calls.push({ name: "whoami", args: {} });
      return { content: [{ type: "text", text: JSON.stringify({ authorization: headers.authorization ?? null, tenant: headers["x-tenant"] ?? null }) }] };
    });
    return server;
  };

  const http = Bun.serve({
    port: 0, hostname: "127.0.0.1", idleTimeout: 0,
    async fetch(req) {
      if (new URL(req.url).pathname !== "/mcp") return new Response("not found", { status: 404 });
      if (req.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
      const headers = Object.fromEntries(req.headers);
      state.headers.push(headers);
      const body = await req.json();
      for (const m of Array.isArray(body) ? body : [body]) if (typeof m?.method === "string") state.methods.push(m.method);
      const server = build(headers);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      const res = await transport.handleRequest(req, { parsedBody: body });
      return res;
    },
  });
  return {
    url: `http://127.0.0.1:${http.port}/mcp`, port: http.port!, ...state,
    hanging: () => hangStarted.promise.then(() => { hangStarted = Promise.withResolvers<void>(); }),
    async stop() {
      released.resolve();
      await http.stop(true);
    },
  };
}
