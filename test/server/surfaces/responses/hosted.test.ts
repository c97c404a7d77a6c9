// Hosted tools end to end: the real server, a real MCP server from the official SDK on loopback,
// the SearXNG and Brave stand-ins, the agent stand-in of every provider as the model, and the
// official openai client (responses.create, responses.stream(), conversations).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { parseAllowedHosts } from "../../../../src/server/hosted/address.ts";
import type { HostedToolsConfig } from "../../../../src/server/hosted/config.ts";
import { startFakeSearch, type FakeSearch } from "../../../support/fake-search.ts";
import { startMcpServer, type TestMcpServer } from "../../../support/mcp-server.ts";
import { PROVIDER_MODELS, startResponsesHarness, until, type ResponsesHarness } from "../../responses-harness.ts";

let H: ResponsesHarness;
let client: OpenAI;
let mcp: TestMcpServer;
let searx: FakeSearch;
let hosted: HostedToolsConfig;
const MODEL = "openai/gpt-stand-in";
const SECRET = "sekrit-token-4f9a";
const TENANT = "tenant-sekrit-77c1";

beforeAll(async () => {
  mcp = await startMcpServer();
  searx = startFakeSearch("searxng");
  hosted = {
    webSearch: { provider: "searxng", url: searx.url, key: null },
    privateHostsAllowed: parseAllowedHosts(`127.0.0.1:${mcp.port}`),
    toolPrice: 0,
    mcpTimeoutMs: 1500,
    maxToolRounds: 16,
  };
  H = await startResponsesHarness("hosted", { hostedTools: hosted });
  client = H.responses;
});
afterAll(async () => {
  await H.close();
  await mcp.stop();
  searx.stop();
});

/** The test server as an mcp tool, with credentials, only `tools` allowed, no approval unless asked. */
const server = (extra: Record<string, unknown> = {}) =>
  ({
    type: "mcp" as const,
    server_label: "tester",
    server_url: mcp.url,
    authorization: SECRET,
    headers: { "x-tenant": TENANT },
    require_approval: "never" as const,
    allowed_tools: ["echo"],
    ...extra,
  }) as unknown as OpenAI.Responses.Tool;

const types = (r: OpenAI.Responses.Response) => r.output.map((i) => i.type);
const lists = () => mcp.methods.filter((m) => m === "tools/list").length;

describe("remote MCP", () => {
  test("a call runs in the service: tool list, mcp_call with the output, then the answer", async () => {
    const r = await client.responses.create({ model: MODEL, input: "Say something back", tools: [server()] });
    expect(r.status).toBe("completed");
    expect(types(r)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
    const [list, call] = r.output as any[];
    expect(list.server_label).toBe("tester");
    expect(list.tools.map((t: any) => t.name)).toEqual(["echo"]);
    expect(call).toMatchObject({ server_label: "tester", name: "echo", status: "completed", error: null, output: "echo: the weather in San Francisco" });
    expect(JSON.parse(call.arguments)).toEqual({ text: "the weather in San Francisco" });
    expect(r.output_text).toBe("The tool answered: echo: the weather in San Francisco");
    // The echoed tools keep the settings, not the credentials.
    expect(JSON.stringify(r.tools)).not.toContain(SECRET);
    expect(JSON.stringify(r.tools)).not.toContain(TENANT);
  });

  test("the caller's authorization and headers reach the server; echoed back, they are cut out of the item", async () => {
    const r = await client.responses.create({ model: MODEL, input: "Who am I?", tools: [server({ allowed_tools: ["whoami"] })] });
    expect(mcp.headers.at(-1)).toMatchObject({ authorization: `Bearer ${SECRET}`, "x-tenant": TENANT });
    const call = r.output.find((i) => i.type === "mcp_call") as any;
    expect(JSON.parse(call.output)).toEqual({ authorization: "Bearer [redacted]", tenant: "[redacted]" });
  });

  test("streamed: the MCP events in order, output_index contiguous, the same response as stored", async () => {
    const stream = client.responses.stream({ model: MODEL, input: "Echo please", tools: [server()] });
    const events: any[] = [];
    for await (const e of stream) events.push(e);
    const final = await stream.finalResponse();
    const names = events.map((e) => e.type);
    const want = [
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.mcp_list_tools.in_progress",
      "response.mcp_list_tools.completed",
      "response.output_item.done",
      "response.output_item.added",
      "response.mcp_call_arguments.delta",
      "response.mcp_call_arguments.done",
      "response.mcp_call.in_progress",
      "response.mcp_call.completed",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
    ];
    expect(names.slice(0, want.length)).toEqual(want);
    expect(names.at(-1)).toBe("response.completed");
    const added = events.filter((e) => e.type === "response.output_item.added").map((e) => e.output_index);
    expect(added).toEqual([0, 1, 2]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(final.output.map((i) => i.type)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
    const stored = await client.responses.retrieve(final.id);
    expect(stored.output.map((i) => i.id)).toEqual(final.output.map((i) => i.id));
    expect(stored.output[1]).toEqual(final.output[1]);
    // A replay of the stored response tells the same items with the same kinds of events.
    const replay = await client.responses.retrieve(final.id, { stream: true });
    const again: string[] = [];
    for await (const e of replay) again.push(e.type);
    expect(again.filter((n) => n.startsWith("response.mcp_"))).toEqual(names.filter((n) => n.startsWith("response.mcp_")));
  });

  test("a continued turn reuses the tool list (not fetched again); other credentials list again", async () => {
    const first = await client.responses.create({ model: MODEL, input: "One", tools: [server()] });
    const before = lists();
    const second = await client.responses.create({ model: MODEL, input: "Two", previous_response_id: first.id, tools: [server()] });
    expect(types(second)).toEqual(["mcp_call", "message"]);
    expect(lists()).toBe(before);
    const third = await client.responses.create({
      model: MODEL,
      input: "Three",
      previous_response_id: second.id,
      tools: [server({ authorization: "another-token" })],
    });
    expect(types(third)[0]).toBe("mcp_list_tools");
    expect(lists()).toBe(before + 1);
    // Other allowed tools: the stored list (which holds only the allowed ones) is not reused either.
    const fourth = await client.responses.create({
      model: MODEL,
      input: "Four",
      previous_response_id: second.id,
      tools: [server({ allowed_tools: ["echo", "whoami"] })],
    });
    expect((fourth.output[0] as any).tools.map((t: any) => t.name)).toEqual(["echo", "whoami"]);
    expect(lists()).toBe(before + 2);
  });

  test("two servers with tools of the same name: both listed, told apart by label", async () => {
    const r = await client.responses.create({ model: MODEL, input: "Echo", tools: [server({ server_label: "alpha" }), server({ server_label: "beta" })] });
    expect(types(r)).toEqual(["mcp_list_tools", "mcp_list_tools", "mcp_call", "message"]);
    expect(r.output.slice(0, 2).map((i: any) => i.server_label)).toEqual(["alpha", "beta"]);
    const offered = H.E.openai.calls.at(-2)!.body.tools.map((t: any) => t.function.name);
    expect(offered).toEqual(["alpha__echo", "beta__echo"]);
    expect(r.output[2]).toMatchObject({ server_label: "alpha", name: "echo" });
  });

  test("a failing tool: mcp_call failed with mcp_tool_execution_error, and the turn goes on", async () => {
    const r = await client.responses.create({ model: MODEL, input: "Fail", tools: [server({ allowed_tools: ["fail"] })] });
    const call = r.output.find((i) => i.type === "mcp_call") as any;
    expect(call.status).toBe("failed");
    expect(call.error).toEqual({ type: "mcp_tool_execution_error", content: [{ type: "text", text: "the tool failed on purpose" }] });
    expect(r.status).toBe("completed");
    expect(r.output_text).toContain("the tool failed on purpose");
  });

  test("a hung server: the call fails after the time bound and the turn goes on", async () => {
    const r = await client.responses.create({ model: MODEL, input: "Wait", tools: [server({ allowed_tools: ["hang"] })] });
    const call = r.output.find((i) => i.type === "mcp_call") as any;
    expect(call.status).toBe("failed");
    expect(call.error).toEqual({ type: "mcp_protocol_error", code: -32001, message: "the MCP server did not answer within 1500 ms" });
    expect(r.status).toBe("completed");
    expect(types(r).at(-1)).toBe("message");
  });

  test("server URLs on private addresses are refused before anything runs", async () => {
    for (const url of ["http://169.254.169.254/mcp", "http://127.1:9/mcp", "http://[::ffff:10.0.0.1]/mcp", `http://127.0.0.1:${mcp.port + 1}/mcp`]) {
      const e = await client.responses.create({ model: MODEL, input: "x", tools: [server({ server_url: url })] }).catch((e) => e);
      expect(e).toBeInstanceOf(OpenAI.BadRequestError);
      expect(e.message).toContain("TESSERA_PRIVATE_HOSTS_ALLOWED");
    }
  });

  for (const model of PROVIDER_MODELS) {
    test(`${model}: an MCP call streamed`, async () => {
      const stream = client.responses.stream({ model, input: "Echo this", tools: [server()] });
      const final = await stream.finalResponse();
      expect(final.output.map((i) => i.type).slice(-2)).toEqual(["mcp_call", "message"]);
      expect(final.output_text).toBe("The tool answered: echo: the weather in San Francisco");
    });
  }
});

describe("approvals", () => {
  const ask = (extra: Record<string, unknown> = {}) => server({ require_approval: "always", ...extra });

  test("an approval-required call ends the turn; approved through previous_response_id, it runs", async () => {
    const calls = mcp.calls.length;
    const r1 = await client.responses.create({ model: MODEL, input: "Echo after asking", tools: [ask()] });
    expect(types(r1).slice(-1)).toEqual(["mcp_approval_request"]);
    const req = r1.output.at(-1) as any;
    expect(req).toMatchObject({ server_label: "tester", name: "echo" });
    expect(mcp.calls.length).toBe(calls);
    const r2 = await client.responses.create({
      model: MODEL,
      previous_response_id: r1.id,
      tools: [ask()],
      input: [{ type: "mcp_approval_response", approval_request_id: req.id, approve: true }],
    });
    expect(types(r2)).toEqual(["mcp_call", "message"]);
    expect(r2.output[0]).toMatchObject({ approval_request_id: req.id, output: "echo: the weather in San Francisco", status: "completed" });
    expect(mcp.calls.length).toBe(calls + 1);
    expect(r2.output_text).toBe("The tool answered: echo: the weather in San Francisco");
  });

  test("refused in a conversation: not run, and the model is told why", async () => {
    const conv = await H.conversations.conversations.create();
    const calls = mcp.calls.length;
    const r1 = await client.responses.create({ model: MODEL, conversation: conv.id, input: "Echo after asking", tools: [ask()] });
    const req = r1.output.at(-1) as any;
    expect(req.type).toBe("mcp_approval_request");
    const r2 = await client.responses.create({
      model: MODEL,
      conversation: conv.id,
      tools: [ask()],
      input: [{ type: "mcp_approval_response", approval_request_id: req.id, approve: false, reason: "not today" } as any],
    });
    expect(mcp.calls.length).toBe(calls);
    expect(types(r2)).toEqual(["message"]);
    expect(r2.output_text).toContain("The user refused this call: not today");
    const items = await H.conversations.conversations.items.list(conv.id, { order: "asc" });
    expect(items.data.map((i) => i.type)).toContain("mcp_approval_response");
  });

  test("approved in a conversation: runs once, and never again", async () => {
    const conv = await H.conversations.conversations.create();
    const r1 = await client.responses.create({ model: MODEL, conversation: conv.id, input: "Echo after asking", tools: [ask()] });
    const req = r1.output.at(-1) as any;
    const calls = mcp.calls.length;
    const r2 = await client.responses.create({
      model: MODEL,
      conversation: conv.id,
      tools: [ask()],
      input: [{ type: "mcp_approval_response", approval_request_id: req.id, approve: true }],
    });
    expect(types(r2)).toEqual(["mcp_call", "message"]);
    const r3 = await client.responses.create({ model: MODEL, conversation: conv.id, tools: [ask()], input: "Thanks" });
    expect(types(r3).filter((t) => t === "mcp_call")).toEqual([]);
    expect(mcp.calls.length).toBe(calls + 1);
  });

  test("per-tool approval: never for the named tool; an approval without its server's tool is a 400", async () => {
    const r = await client.responses.create({ model: MODEL, input: "Echo", tools: [ask({ require_approval: { never: { tool_names: ["echo"] } } })] });
    expect(types(r)).toContain("mcp_call");
    const r1 = await client.responses.create({ model: MODEL, input: "Echo after asking", tools: [ask()] });
    const e = await client.responses
      .create({
        model: MODEL,
        previous_response_id: r1.id,
        input: [{ type: "mcp_approval_response", approval_request_id: (r1.output.at(-1) as any).id, approve: true }],
      })
      .catch((e) => e);
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.message).toContain("credentials are not kept");
  });
});

describe("web and image search", () => {
  const web = { type: "web_search" } as OpenAI.Responses.Tool;

  test("web_search_call with the query and sources; the answer cites them with url_citation", async () => {
    const r = await client.responses.create({ model: MODEL, input: "lighthouse history", tools: [web], include: ["web_search_call.action.sources"] });
    expect(types(r)).toEqual(["web_search_call", "message"]);
    const call = r.output[0] as any;
    expect(call.status).toBe("completed");
    expect(call.action.type).toBe("search");
    expect(call.action.query).toBe("the weather in San Francisco");
    const msg = r.output[1] as OpenAI.Responses.ResponseOutputMessage;
    const text = msg.content[0] as OpenAI.Responses.ResponseOutputText;
    expect(text.annotations.length).toBeGreaterThan(0);
    const a = text.annotations[0] as OpenAI.Responses.ResponseOutputText.URLCitation;
    expect(a.type).toBe("url_citation");
    expect(text.text.slice(a.start_index, a.end_index)).toContain(a.url);
    expect(call.action.sources.map((s: any) => s.url)).toContain(a.url);
    expect(searx.calls.at(-1)!.query).toMatchObject({ format: "json" });
  });

  test("include web_search_call.results: the results (title, snippet) are on the item", async () => {
    const r = await client.responses.create({ model: MODEL, input: "lighthouse", tools: [web], include: ["web_search_call.results"] });
    const call = r.output[0] as any;
    const url: string = call.results[0].url;
    expect(url.startsWith("https://")).toBe(true);
    expect(typeof call.results[0].title).toBe("string");
    expect(typeof call.results[0].snippet).toBe("string");
    expect(call.action.sources).toBeUndefined(); // only when include asks for them
    // A later turn tells the model the earlier search's results again (the item kept them).
    await client.responses.create({ model: MODEL, input: "and then?", previous_response_id: r.id });
    const sent = JSON.stringify(H.E.openai.calls.at(-1)!.body.messages);
    expect(sent).toContain(url);
  });

  test("streamed: web_search_call events and annotation.added before the text is done", async () => {
    const stream = client.responses.stream({ model: MODEL, input: "lighthouse", tools: [web] });
    const names: string[] = [];
    for await (const e of stream) names.push(e.type);
    const final = await stream.finalResponse();
    expect(names).toContain("response.web_search_call.in_progress");
    expect(names).toContain("response.web_search_call.searching");
    expect(names).toContain("response.web_search_call.completed");
    expect(names.indexOf("response.output_text.annotation.added")).toBeLessThan(names.indexOf("response.output_text.done"));
    expect(names.indexOf("response.output_text.annotation.added")).toBeGreaterThan(0);
    const text = (final.output[1] as any).content[0];
    expect(text.annotations.length).toBeGreaterThan(0);
  });

  test("image_search_call: absolute image URLs with title, source page and size", async () => {
    H.E.openai.queue.push({ toolCalls: [{ id: "c1", name: "image_search", arguments: '{"query":"lighthouse"}' }] });
    const r = await client.responses.create({ model: MODEL, input: "show a lighthouse", tools: [{ type: "image_search" } as any] });
    expect(types(r)).toEqual(["image_search_call" as any, "message"]);
    const call = r.output[0] as any;
    expect(call.status).toBe("completed");
    expect(call.results[0]).toMatchObject({ image_url: expect.stringMatching(/^https:\/\//), width: expect.any(Number), source_url: expect.any(String) });
    expect(searx.calls.at(-1)!.query.categories).toBe("images");
  });

  test("max_tool_calls: calls past it are not run, and the model is told", async () => {
    H.E.openai.queue.push({
      toolCalls: [
        { id: "c1", name: "web_search", arguments: '{"query":"lighthouse"}' },
        { id: "c2", name: "web_search", arguments: '{"query":"pharos"}' },
      ],
    });
    const before = searx.calls.length;
    // max_tool_calls is not in this client version's types: the body is cast.
    const body = { model: MODEL, input: "two searches", tools: [web], max_tool_calls: 1 } as OpenAI.Responses.ResponseCreateParamsNonStreaming;
    const r = await client.responses.create(body);
    expect((r as unknown as { max_tool_calls: number }).max_tool_calls).toBe(1);
    expect(types(r)).toEqual(["web_search_call", "web_search_call", "message"]);
    expect((r.output[1] as any).status).toBe("failed");
    expect(searx.calls.length).toBe(before + 1);
    const last = H.E.openai.calls.at(-1)!.body;
    expect(last.tool_choice).toBe("none");
  });

  test("the server's bound on model calls: the last one is told to answer (tool_choice none)", async () => {
    hosted.maxToolRounds = 2;
    try {
      H.E.openai.queue.push(
        { toolCalls: [{ id: "r1", name: "web_search", arguments: '{"query":"lighthouse"}' }] },
        { toolCalls: [{ id: "r2", name: "web_search", arguments: '{"query":"pharos"}' }] },
      );
      const calls = H.E.openai.calls.length;
      const r = await client.responses.create({ model: MODEL, input: "keep searching", tools: [web] });
      const sent = H.E.openai.calls.slice(calls).map((c) => c.body.tool_choice ?? "auto");
      expect(sent).toEqual(["auto", "none"]);
      // The model called a tool anyway on its last call: that call ran, and the turn ended there.
      expect(types(r)).toEqual(["web_search_call", "web_search_call"]);
      expect(r.status).toBe("completed");
    } finally {
      hosted.maxToolRounds = 16;
    }
  });

  for (const model of ["anthropic/claude-stand-in", "google/gemini-stand-in"]) {
    test(`${model}: text, a hosted call, and the answer after it (the model called again with both)`, async () => {
      H.fakeFor(model).queue.push({ text: "Let me look that up.", toolCalls: [{ id: "toolu_1", name: "web_search", arguments: '{"query":"lighthouse"}' }] });
      const r = await client.responses.create({ model, input: "lighthouse facts", tools: [web] });
      expect(types(r)).toEqual(["message", "web_search_call", "message"]);
      expect(r.status).toBe("completed");
      expect(r.output_text).toContain("Let me look that up.");
    });
  }

  test("parallel_tool_calls: false reaches the model", async () => {
    await client.responses.create({ model: MODEL, input: "lighthouse", tools: [web], parallel_tool_calls: false });
    expect(H.E.openai.calls.at(-2)!.body.parallel_tool_calls).toBe(false);
  });
});

describe("every transport", () => {
  test("background: the loop runs and the stored response holds its items", async () => {
    const queued = await client.responses.create({ model: MODEL, input: "Echo in the background", tools: [server()], background: true });
    const done = await until(
      () => client.responses.retrieve(queued.id),
      (r) => r.status === "completed" || r.status === "failed",
    );
    expect(done.status).toBe("completed");
    expect(types(done)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
  });
});

describe("WebSocket, billing, OpenUI", () => {
  test("WebSocket mode: the same loop, events one per frame", async () => {
    const ws = new (WebSocket as any)(`${H.base.replace("http", "ws")}/v1/embed/responses`, { headers: { authorization: `Bearer ${H.key}` } }) as WebSocket;
    const events: any[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => ws.send(JSON.stringify({ type: "response.create", model: MODEL, input: "Echo over the socket", tools: [server()] }));
      ws.onerror = () => reject(new Error("socket failed"));
      ws.onmessage = (m) => {
        const e = JSON.parse(String(m.data));
        events.push(e);
        if (e.type === "error" || /^response\.(completed|failed|incomplete)$/.test(e.type)) resolve();
      };
    });
    ws.close();
    const last = events.at(-1);
    expect(last.type).toBe("response.completed");
    expect(last.response.output.map((i: any) => i.type)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
    expect(events.map((e) => e.type)).toContain("response.mcp_call.completed");
  });

  test("TESSERA_TOOL_PRICE: charged per call that ran, not for one that failed to reach its tool", async () => {
    hosted.toolPrice = 3;
    try {
      const before = await H.E.h.credits("hosted");
      await client.responses.create({ model: MODEL, input: "lighthouse", tools: [{ type: "web_search" } as OpenAI.Responses.Tool] });
      expect(await H.E.h.credits("hosted")).toBe(before - 3);
      searx.jsonDisabled = true;
      const r = await client.responses.create({ model: MODEL, input: "lighthouse", tools: [{ type: "web_search" } as OpenAI.Responses.Tool] });
      expect((r.output[0] as any).status).toBe("failed");
      expect(r.output_text).toContain("search.formats");
      expect(await H.E.h.credits("hosted")).toBe(before - 3);
    } finally {
      hosted.toolPrice = 0;
      searx.jsonDisabled = false;
    }
  });

  test("an organization that cannot pay for a tool call: the call is not run, and the model is told", async () => {
    hosted.toolPrice = 3;
    try {
      const poor = new OpenAI({ baseURL: `${H.base}/v1/embed`, apiKey: await H.E.h.org("poor", 2), maxRetries: 0 });
      const before = searx.calls.length;
      const r = await poor.responses.create({ model: MODEL, input: "lighthouse", tools: [{ type: "web_search" } as OpenAI.Responses.Tool] });
      expect(r.status).toBe("completed");
      expect((r.output[0] as any).status).toBe("failed");
      expect(r.output_text).toContain("no credits left for hosted tool calls");
      expect(searx.calls.length).toBe(before);
      expect(await H.E.h.credits("poor")).toBe(2);
    } finally {
      hosted.toolPrice = 0;
    }
  });

  test("OpenUI's openAIResponsesAdapter reads a stream with MCP and search items", async () => {
    const { openAIResponsesAdapter, EventType } = await import("@openuidev/react-headless");
    H.E.openai.queue.push({
      toolCalls: [
        { id: "c1", name: "web_search", arguments: '{"query":"lighthouse"}' },
        { id: "c2", name: "tester__echo", arguments: '{"text":"hi"}' },
      ],
    });
    const res = await fetch(`${H.base}/v1/embed/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${H.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, input: "search and echo", stream: true, tools: [server(), { type: "web_search" }] }),
    });
    const seen: any[] = [];
    for await (const e of openAIResponsesAdapter().parse(res)) seen.push(e);
    const starts = seen.filter((e) => e.type === EventType.TOOL_CALL_START).map((e) => e.toolCallName);
    expect(starts).toEqual(["mcp_list_tools", "web_search", "echo"]);
    const results = seen.filter((e) => e.type === EventType.TOOL_CALL_RESULT);
    expect(results.map((e) => e.content)).toContain("echo: hi");
    expect(JSON.parse(results[0].content)).toEqual({ server_label: "tester", tool_count: 1, tools: ["echo"] });
    const args = seen
      .filter((e) => e.type === EventType.TOOL_CALL_ARGS)
      .map((e) => e.delta)
      .join("");
    expect(args).toContain('"query":"lighthouse"');
    const text = seen
      .filter((e) => e.type === EventType.TEXT_MESSAGE_CONTENT)
      .map((e) => e.delta)
      .join("");
    expect(text.startsWith("The tool answered:")).toBe(true);
    expect(seen.some((e) => e.type === EventType.RUN_ERROR)).toBe(false);
  });
});

test("the environment configures hosted tools; a half-made search backend stops the start", async () => {
  const { hostedToolsFromEnv } = await import("../../../../src/server/hosted/config.ts");
  const c = hostedToolsFromEnv({
    TESSERA_WEB_SEARCH_PROVIDER: "brave",
    TESSERA_WEB_SEARCH_KEY: "k",
    TESSERA_PRIVATE_HOSTS_ALLOWED: "mcp.internal:8080",
    TESSERA_TOOL_PRICE: "2",
    TESSERA_MCP_TIMEOUT_MS: "5000",
  });
  expect(c).toMatchObject({
    webSearch: { provider: "brave", url: "https://api.search.brave.com/res/v1", key: "k" },
    privateHostsAllowed: [{ host: "mcp.internal", port: "8080" }],
    toolPrice: 2,
    mcpTimeoutMs: 5000,
  });
  expect(hostedToolsFromEnv({}).webSearch).toBeNull();
  expect(() => hostedToolsFromEnv({ TESSERA_WEB_SEARCH_PROVIDER: "searxng" })).toThrow("TESSERA_WEB_SEARCH_URL");
});

test("a server that refuses the token and quotes it: 424, its error body without the token", async () => {
  const quoting = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => new Response(`token ${req.headers.get("authorization")} is not valid here`, { status: 401 }),
  });
  hosted.privateHostsAllowed.push(...parseAllowedHosts(`127.0.0.1:${quoting.port}`));
  try {
    const res = await fetch(`${H.base}/v1/embed/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${H.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, input: "x", tools: [server({ server_url: `http://127.0.0.1:${quoting.port}/mcp` })] }),
    });
    expect(res.status).toBe(424);
    const text = await res.text();
    expect(JSON.parse(text).error.message).toContain("Error retrieving tool list from MCP server 'tester'");
    expect(text.includes(SECRET)).toBe(false);
  } finally {
    hosted.privateHostsAllowed.pop();
    quoting.stop(true);
  }
});

// Last: every test above has stored and logged what it did.
describe("credentials", () => {
  test("absent from every stored row and every log line", async () => {
    const db = H.E.h.server.db;
    const dump: string[] = [];
    for (const table of ["responses", "response_items", "response_events", "conversation_items", "request_logs", "credit_ledger", "mcp_tool_lists"] as const) {
      dump.push(
        JSON.stringify(
          await db
            .selectFrom(table as any)
            .selectAll()
            .execute(),
        ),
      );
    }
    const all = dump.join("\n") + H.E.h.lines.join("\n");
    expect(all.includes("tester")).toBe(true); // the rows are there
    expect(all.includes(SECRET)).toBe(false);
    expect(all.includes(TENANT)).toBe(false);
  });
});
