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
    server.registerTool(
      "echo",
      {
        description: "Says the text back",
        inputSchema: { text: z.string().describe("What to say back") },
        annotations: { readOnlyHint: true },
      },
      async ({ text }) => {
        state.calls.push({ name: "echo", args: { text } });
        return { content: [{ type: "text", text: `echo: ${text}` }] };
      },
    );
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
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
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
    url: `http://127.0.0.1:${http.port}/mcp`,
    port: http.port!,
    ...state,
    hanging: () =>
      hangStarted.promise.then(() => {
        hangStarted = Promise.withResolvers<void>();
      }),
    async stop() {
      released.resolve();
      await http.stop(true);
    },
  };
}

/**
 * A server of the older protocol only (the SDK's deprecated SSE transport on node:http): GET /sse
 * opens the event stream, POST /messages carries requests; a Streamable HTTP POST gets 405.
 */
export async function startLegacySseMcpServer(): Promise<{ url: string; port: number; methods: string[]; stop(): Promise<void> }> {
  const { createServer } = await import("node:http");
  const { SSEServerTransport } = await import("@modelcontextprotocol/sdk/server/sse.js");
  const methods: string[] = [];
  const sessions = new Map<string, InstanceType<typeof SSEServerTransport>>();
  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      res.on("close", () => sessions.delete(transport.sessionId));
      const server = new McpServer({ name: "legacy", version: "1.0.0" });
      server.registerTool("echo", { description: "Says the text back", inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: "text", text: `legacy echo: ${text}` }],
      }));
      await server.connect(transport);
      return;
    }
    if (req.method === "POST" && url.pathname === "/messages") {
      const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) return void res.writeHead(404).end("no session");
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (typeof body?.method === "string") methods.push(body.method);
      await transport.handlePostMessage(req, res, body);
      return;
    }
    res.writeHead(405, { allow: "GET" }).end("method not allowed");
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    port,
    methods,
    stop: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
