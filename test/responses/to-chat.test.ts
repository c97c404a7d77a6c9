// Responses input → chat request: every input kind, the order rule, and the refusals.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { UnsupportedRequestError } from "../../src/providers/types.ts";
import { CreateBody } from "../../src/responses/schema.ts";
import { normalizeInput, toChatRequest, type ChatOptions } from "../../src/responses/to-chat.ts";
import type { Item } from "../../src/responses/types.ts";

const opts: ChatOptions = { model: "openai/x", summaryOf: () => "the user likes tea" };
const items = (input: unknown) => normalizeInput(v.parse(CreateBody, { model: "openai/x", input }).input) as Item[];

test("a string is one user message; instructions come first as a system message", () => {
  const req = toChatRequest(items("Hello"), { ...opts, instructions: "Be brief." });
  expect(req.messages).toEqual([
    { role: "system", content: "Be brief." },
    { role: "user", content: [{ type: "text", text: "Hello" }] },
  ]);
  expect(req.stream).toBe(true);
  expect(req.stream_options).toEqual({ include_usage: true });
});

test("every role, parts, images, PDFs; function calls of one turn merge into one assistant message", () => {
  const input = items([
    { role: "developer", content: "dev rule" },
    {
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: "look" },
        { type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "low" },
        { type: "input_file", file_data: "JVBERi0=", filename: "a.pdf" },
      ],
    },
    { type: "message", role: "assistant", phase: "commentary", content: [{ type: "output_text", text: "checking", annotations: [] }] },
    { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
    { type: "function_call", call_id: "c2", name: "g", arguments: '{"x":1}' },
    { type: "function_call_output", call_id: "c1", output: "one" },
    { type: "function_call_output", call_id: "c2", output: [{ type: "input_text", text: "two" }] },
    { type: "reasoning", summary: [] },
  ]);
  expect(input.every((i) => typeof i.id === "string" && i.id.length > 4)).toBe(true);
  const req = toChatRequest(input, opts);
  expect(req.messages).toEqual([
    { role: "developer", content: "dev rule" },
    {
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA", detail: "low" } },
        { type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0=", filename: "a.pdf" } },
      ],
    },
    {
      role: "assistant",
      content: "checking",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "f", arguments: "{}" } },
        { id: "c2", type: "function", function: { name: "g", arguments: '{"x":1}' } },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "one" },
    { role: "tool", tool_call_id: "c2", content: "two" },
  ]);
});

test("a function_call_output with no call before it is refused by call_id", () => {
  expect(() => toChatRequest(items([{ type: "function_call_output", call_id: "nope", output: "x" }]), opts)).toThrow(UnsupportedRequestError);
  expect(() => toChatRequest(items([{ type: "function_call_output", call_id: "nope", output: "x" }]), opts)).toThrow(/call_id nope/);
});

test("a compaction item stands for its summary", () => {
  const req = toChatRequest(
    items([
      { type: "compaction", encrypted_content: "sealed" },
      { role: "user", content: "go on" },
    ]),
    opts,
  );
  expect(req.messages[0]).toEqual({ role: "system", content: "Summary of the conversation so far:\nthe user likes tea" });
});

test("tools, tool_choice (named and allowed_tools), sampling, limits and formats reach the chat request", () => {
  const tools = [
    { type: "function" as const, name: "a", description: "A", parameters: { type: "object" }, strict: true },
    { type: "function" as const, name: "b", description: null, parameters: null, strict: null },
  ];
  const req = toChatRequest(items("hi"), {
    ...opts,
    tools,
    toolChoice: { type: "allowed_tools", mode: "required", tools: [{ type: "function", name: "b" }] },
    parallelToolCalls: false,
    temperature: 0.2,
    topP: 0.9,
    maxOutputTokens: 99,
    user: "u1",
    format: { type: "json_schema", name: "out", schema: { type: "object" }, strict: true },
  });
  expect(req.tools).toEqual([{ type: "function", function: { name: "b" } }]);
  expect(req.tool_choice).toBe("required");
  expect(req).toMatchObject({ parallel_tool_calls: false, temperature: 0.2, top_p: 0.9, max_completion_tokens: 99, user: "u1" });
  expect(req.response_format).toEqual({ type: "json_schema", json_schema: { name: "out", schema: { type: "object" }, strict: true } });
  const named = toChatRequest(items("hi"), { ...opts, tools, toolChoice: { type: "function", name: "a" } });
  expect(named.tool_choice).toEqual({ type: "function", function: { name: "a" } });
  expect(named.tools).toHaveLength(2);
});

test("the edge refuses hosted tools it has no runner for by name, malformed items, metadata over its limits", () => {
  const bad = (body: Record<string, unknown>) => {
    const r = v.safeParse(CreateBody, { model: "openai/x", ...body });
    return r.success ? null : r.issues[0].message;
  };
  expect(bad({ tools: [{ type: "file_search" }] })).toMatch(/tool type "file_search" is not available/);
  expect(bad({ tools: [{ type: "web_search" }] })).toBeNull();
  expect(bad({ tools: [{ type: "mcp", server_label: "x" }] })).toMatch(/server_url/);
  expect(bad({ tools: [{ type: "mcp", server_label: "x", server_url: "not a url" }] })).toMatch(/absolute URL/);
  expect(bad({ input: [{ type: "mcp_approval_response", approve: true }] })).toMatch(/input\[0\]\.approval_request_id/);
  expect(bad({ input: [{ type: "shell_call" }] })).toMatch(/"shell_call" is not supported/);
  expect(bad({ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])) })).toMatch(/16 pairs/);
  expect(bad({ metadata: { ["k".repeat(65)]: "v" } })).toMatch(/64/);
  expect(bad({ metadata: { k: "v".repeat(513) } })).toMatch(/512/);
  expect(bad({ model: "gpt-4o" })).toMatch(/provider/);
  expect(bad({ input: [{ id: "msg_1" }] })).toBeNull(); // an item reference
});

test("an input_image without a URL and an input_file without data are refused with the field", () => {
  const noUrl = items([{ role: "user", content: [{ type: "input_image", file_id: "file_1", detail: "auto" }] }]);
  expect(() => toChatRequest(noUrl, opts)).toThrow(/image_url/);
  const noData = items([{ role: "user", content: [{ type: "input_file", file_id: "file_1" }] }]);
  expect(() => toChatRequest(noData, opts)).toThrow(/file_data/);
});
