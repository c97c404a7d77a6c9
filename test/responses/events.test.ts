// The chunk → event bridge on its own: the orders the client's stream helper depends on, for
// text, tool calls (several, after text, with arguments in pieces), cut-off answers and replays.
import { expect, test } from "bun:test";
import type { ChatCompletionChunk } from "../../src/providers/types.ts";
import { EventBridge, endStatus, replay } from "../../src/responses/events.ts";
import { responseObject, settingsOf } from "../../src/responses/object.ts";
import type { ResponseEvent } from "../../src/responses/stream-events.ts";

type Delta = ChatCompletionChunk["choices"][0]["delta"];
const chunk = (delta: Delta, finish: ChatCompletionChunk["choices"][0]["finish_reason"] = null): ChatCompletionChunk => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 0,
  model: "m",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function run(chunks: ChatCompletionChunk[], bridge = new EventBridge()) {
  const events = chunks.flatMap((c) => bridge.push(c));
  events.push(...bridge.end(endStatus(bridge.finish).status));
  return { events, bridge };
}

/** What the client's `responses.stream()` helper checks, as it rebuilds the output from events. */
function accumulate(events: ResponseEvent[]) {
  const output: any[] = [];
  const done = new Set<number>();
  for (const e of events as any[]) {
    switch (e.type) {
      case "response.output_item.added":
        expect(e.output_index).toBe(output.length);
        if (e.item.type === "message") expect(e.item.content).toEqual([]);
        if (e.item.type === "function_call") expect(e.item.arguments).toBe("");
        output.push(structuredClone(e.item));
        break;
      case "response.content_part.added":
        expect(output[e.output_index].id).toBe(e.item_id);
        output[e.output_index].content.push(structuredClone(e.part));
        break;
      case "response.output_text.delta":
        expect(done.has(e.output_index)).toBe(false);
        expect(output[e.output_index].id).toBe(e.item_id);
        output[e.output_index].content[e.content_index].text += e.delta;
        break;
      case "response.function_call_arguments.delta":
        expect(done.has(e.output_index)).toBe(false);
        expect(output[e.output_index].id).toBe(e.item_id);
        output[e.output_index].arguments += e.delta;
        break;
      case "response.output_text.done":
        // The final text replaces what the deltas built (a managed answer may have been repaired).
        output[e.output_index].content[e.content_index].text = e.text;
        break;
      case "response.function_call_arguments.done":
        expect(output[e.output_index].arguments).toBe(e.arguments);
        break;
      case "response.output_item.done":
        done.add(e.output_index);
        output[e.output_index] = structuredClone(e.item);
        break;
    }
  }
  expect(done.size).toBe(output.length); // every item opened was closed
  return output;
}

test("text: one message item opened on the first text, deltas, then its done events", () => {
  const { events, bridge } = run([chunk({ role: "assistant", content: "" }), chunk({ content: "Hel" }), chunk({ content: "lo" }), chunk({}, "stop")]);
  expect(events.map((e) => e.type)).toEqual([
    "response.output_item.added",
    "response.content_part.added",
    "response.output_text.delta",
    "response.output_text.delta",
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.done",
  ]);
  const output = accumulate(events);
  expect(output).toEqual(bridge.output as any[]);
  expect(output[0]).toMatchObject({
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: "Hello", annotations: [], logprobs: [] }],
  });
});

test("text then two tool calls: indexes in order, the message closed before the first call opens, arguments in pieces", () => {
  const { events, bridge } = run([
    chunk({ content: "Let me check." }),
    chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "weather", arguments: "" } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
    chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "time", arguments: '{"tz":"UTC"}' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
    chunk({}, "tool_calls"),
  ]);
  const output = accumulate(events);
  expect(output.map((o) => [o.type, o.call_id ?? null, o.arguments ?? null])).toEqual([
    ["message", null, null],
    ["function_call", "call_a", '{"city":"Oslo"}'],
    ["function_call", "call_b", '{"tz":"UTC"}'],
  ]);
  const messageDone = events.findIndex((e) => e.type === "response.output_item.done");
  const firstCall = events.findIndex((e) => e.type === "response.output_item.added" && (e.item as any).type === "function_call");
  expect(messageDone).toBeLessThan(firstCall);
  expect(output).toEqual(bridge.output as any[]);
  expect(output.every((o) => o.status === "completed")).toBe(true);
});

test("finish_reason length ends incomplete, items included", () => {
  const { events, bridge } = run([chunk({ content: "Once upon" }), chunk({}, "length")]);
  expect(endStatus(bridge.finish)).toEqual({ status: "incomplete", reason: "max_output_tokens" });
  expect(accumulate(events)[0].status).toBe("incomplete");
});

test("a tool call alone: no message item at all", () => {
  const { events } = run([
    chunk({ role: "assistant" }),
    chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: "{}" } }] }),
    chunk({}, "tool_calls"),
  ]);
  const output = accumulate(events);
  expect(output.map((o) => o.type)).toEqual(["function_call"]);
});

test("finalizeText has the last word on a text answer (managed UI), never on one with tool calls", () => {
  const upper = new EventBridge({ finalizeText: (t) => t.toUpperCase() });
  const { events } = run([chunk({ content: "fixed" }), chunk({}, "stop")], upper);
  expect(accumulate(events)[0].content[0].text).toBe("FIXED");
  const withCall = new EventBridge({ finalizeText: (t) => t.toUpperCase() });
  const r = run(
    [chunk({ content: "kept" }), chunk({ tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: "{}" } }] }), chunk({}, "tool_calls")],
    withCall,
  );
  expect(accumulate(r.events)[0].content[0].text).toBe("kept");
});

test("usage is taken from the usage chunk", () => {
  const bridge = new EventBridge();
  bridge.push({ ...chunk({}), choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } });
  expect(bridge.usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
});

test("replay of a stored response: created first with empty output, the same items, one terminal event", () => {
  const { bridge } = run([
    chunk({ content: "Hi" }),
    chunk({ tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: '{"a":1}' } }] }),
    chunk({}, "tool_calls"),
  ]);
  const settings = settingsOf({ model: "openai/x" } as any, "resp_1", 1, null);
  const response = responseObject(settings, { status: "completed", output: bridge.output, completedAt: 2 });
  const events = replay(response);
  expect(events[0]).toMatchObject({ type: "response.created", response: { output: [], status: "in_progress" } });
  expect(accumulate(events)).toEqual(response.output as any[]);
  expect(events.filter((e) => /^response\.(completed|failed|incomplete)$/.test(e.type)).length).toBe(1);
  expect(events.at(-1)).toMatchObject({ type: "response.completed", response: { id: "resp_1" } });
});
