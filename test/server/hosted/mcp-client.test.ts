// The MCP client against a real SDK server on loopback: tools listed, calls answered, failures and
// hangs as typed errors, the caller's headers sent, and credentials never in an error's text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseAllowedHosts } from "../../../src/server/hosted/address.ts";
import { McpConnection } from "../../../src/server/hosted/mcp/client.ts";
import { DEFAULT_OUTBOUND, guardedFetch } from "../../../src/server/hosted/outbound.ts";
import { startLegacySseMcpServer, startMcpServer, type TestMcpServer } from "../../support/mcp-server.ts";

let S: TestMcpServer;
beforeAll(async () => {
  S = await startMcpServer();
});
afterAll(() => S.stop());

const open = (headers: Record<string, string> = {}) => {
  const fetch = guardedFetch({ ...DEFAULT_OUTBOUND, allowed: parseAllowedHosts(`127.0.0.1:${S.port}`) });
  return new McpConnection({ url: S.url, headers }, fetch, Object.values(headers));
};

describe("McpConnection", () => {
  test("lists the tools with their schemas", async () => {
    const c = open();
    const tools = await c.listTools(5000);
    expect(tools.map((t) => t.name)).toEqual(["echo", "fail", "hang", "whoami"]);
    expect(tools[0]!.input_schema).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    expect(tools[0]!.description).toBe("Says the text back");
    await c.close();
  });

  test("a call's text comes back as output; a failing tool as mcp_tool_execution_error", async () => {
    const c = open();
    expect(await c.callTool("echo", { text: "hi" }, 5000)).toEqual({ output: "echo: hi" });
    expect(await c.callTool("fail", {}, 5000)).toEqual({
      error: { type: "mcp_tool_execution_error", content: [{ type: "text", text: "the tool failed on purpose" }] },
      ran: true,
    });
    // The SDK's server answers a tool it does not have with an error result, not a protocol error.
    const unknown = await c.callTool("nope", {}, 5000);
    expect(JSON.stringify(unknown)).toContain("nope not found");
    await c.close();
  });

  test("the caller's headers reach the server; echoed back, they are cut out of the output", async () => {
    const c = open({ authorization: "Bearer tok-abc-123", "x-tenant": "acme-tenant" });
    const r = await c.callTool("whoami", {}, 5000);
    expect(S.headers.at(-1)).toMatchObject({ authorization: "Bearer tok-abc-123", "x-tenant": "acme-tenant" });
    expect(JSON.parse((r as { output: string }).output)).toEqual({ authorization: "[redacted]", tenant: "[redacted]" });
    await c.close();
  });

  test("a hung tool ends as a protocol error after the time bound", async () => {
    const c = open();
    const r = await c.callTool("hang", {}, 300);
    expect(r).toEqual({ error: { type: "mcp_protocol_error", code: -32001, message: "the MCP server did not answer within 300 ms" }, ran: false });
    await c.close();
  });

  test("a server that refuses the credentials: http_error, without them in the message", async () => {
    const echoing = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => new Response(`bad token ${req.headers.get("authorization")}`, { status: 401 }),
    });
    const fetch = guardedFetch({ ...DEFAULT_OUTBOUND, allowed: parseAllowedHosts(`127.0.0.1:${echoing.port}`) });
    const c = new McpConnection({ url: `http://127.0.0.1:${echoing.port}/mcp`, headers: { authorization: "Bearer sekrit-777" } }, fetch, [
      "Bearer sekrit-777",
      "sekrit-777",
    ]);
    const r = await c.callTool("echo", { text: "x" }, 3000);
    expect("error" in r && r.error.type).toBe("http_error");
    expect(JSON.stringify(r)).not.toContain("sekrit-777");
    await c.close();
    echoing.stop(true);
  });
});

test("a server of the older SSE protocol: Streamable HTTP is refused with a 4xx, and the client falls back", async () => {
  const legacy = await startLegacySseMcpServer();
  const fetch = guardedFetch({ ...DEFAULT_OUTBOUND, allowed: parseAllowedHosts(`127.0.0.1:${legacy.port}`) });
  const c = new McpConnection({ url: legacy.url, headers: {} }, fetch, []);
  expect((await c.listTools(5000)).map((t) => t.name)).toEqual(["echo"]);
  expect(await c.callTool("echo", { text: "old" }, 5000)).toEqual({ output: "legacy echo: old" });
  expect(legacy.methods).toEqual(["initialize", "notifications/initialized", "tools/list", "tools/call"]);
  await c.close();
  await legacy.stop();
});
