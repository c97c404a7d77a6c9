// The OpenAI Agents SDK (@openai/agents) against Tessera: OpenAIConversationsSession on the
// Conversations routes (it lists all items with order asc, reads the last N with order desc, adds
// and deletes items, deletes the conversation), and an agent run with a tool on the Responses
// route with that session as its memory. Tracing is off: nothing leaves loopback.
process.env.OPENAI_AGENTS_DISABLE_TRACING = "1";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Agent, OpenAIConversationsSession, OpenAIProvider, Runner, setTracingDisabled, tool, type AgentInputItem } from "@openai/agents";
import OpenAI from "openai";
import { z } from "zod";
import { startResponsesHarness, type ResponsesHarness } from "../../responses-harness.ts";

setTracingDisabled(true);
let H: ResponsesHarness;
beforeAll(async () => {
  H = await startResponsesHarness("agents");
});
afterAll(() => H.close());

const user = (text: string): AgentInputItem => ({ type: "message", role: "user", content: text });
const assistant = (text: string): AgentInputItem => ({ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] });

/** What a person reads from an item: who said what, or which call / result. */
function describeItem(item: any): string {
  if (item.type === "function_call") return `call ${item.name} ${item.arguments}`;
  if (item.type === "function_call_result")
    return `result ${typeof item.output === "string" ? item.output : (item.output?.text ?? JSON.stringify(item.output))}`;
  const content = typeof item.content === "string" ? item.content : item.content.map((c: any) => c.text ?? "").join("");
  return `${item.role}: ${content}`;
}

const sessions: [string, () => OpenAIConversationsSession][] = [
  // An openai client whose baseURL is <base>/v1, as the brief of the SDK says.
  ["with an OpenAI client", () => new OpenAIConversationsSession({ client: new OpenAI({ baseURL: `${H.base}/v1`, apiKey: H.key, maxRetries: 0 }) as never })],
  // The SDK's own client (its openai dependency), from baseURL and apiKey.
  ["with baseURL and apiKey", () => new OpenAIConversationsSession({ baseURL: `${H.base}/v1`, apiKey: H.key })],
];

for (const [how, make] of sessions) {
  test(`OpenAIConversationsSession ${how}: add, read all and the last N, pop, clear`, async () => {
    const session = make();
    const id = await session.getSessionId();
    expect((await H.conversations.conversations.retrieve(id)).id).toBe(id);
    expect(await session.getItems()).toEqual([]);

    await session.addItems([
      user("What's the weather in SF?"),
      { type: "function_call", callId: "call_1", name: "get_weather", arguments: '{"location":"San Francisco"}', status: "completed" },
      { type: "function_call_result", callId: "call_1", name: "get_weather", status: "completed", output: { type: "text", text: "18 C" } },
      assistant("It is 18 C in San Francisco."),
    ]);
    // 25 more, in two calls (the API takes at most 20 items per call), so reading all of them pages.
    const more = Array.from({ length: 25 }, (_, i) => (i % 2 ? assistant(`answer ${i}`) : user(`question ${i}`)));
    await session.addItems(more.slice(0, 20));
    await session.addItems(more.slice(20));

    const all = await session.getItems();
    const expected = [
      "user: What's the weather in SF?",
      'call get_weather {"location":"San Francisco"}',
      "result 18 C",
      "assistant: It is 18 C in San Francisco.",
      ...more.map(describeItem),
    ];
    expect(all.map(describeItem)).toEqual(expected);
    expect(new Set(all.map((i: any) => i.id)).size).toBe(29);

    expect((await session.getItems(3)).map(describeItem)).toEqual(expected.slice(-3));
    expect((await session.getItems(27)).map(describeItem)).toEqual(expected.slice(-27));

    const popped = await session.popItem();
    expect(describeItem(popped)).toBe(expected.at(-1)!);
    expect((await session.getItems()).map(describeItem)).toEqual(expected.slice(0, -1));
    expect(describeItem(await session.popItem())).toBe(expected.at(-2)!);
    expect((await session.getItems(1)).map(describeItem)).toEqual([expected.at(-3)!]);

    await session.clearSession();
    expect(session.sessionId).toBeUndefined();
    expect(await H.conversations.conversations.retrieve(id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });
}

test("an agent with a tool, run twice on the Responses route with a conversation session as memory", async () => {
  const calls: string[] = [];
  const getWeather = tool({
    name: "get_weather",
    description: "The weather now at a place",
    parameters: z.object({ location: z.string() }),
    execute: async ({ location }) => {
      calls.push(location);
      return `18 C in ${location}`;
    },
  });
  const agent = new Agent({ name: "Weather", instructions: "Answer weather questions.", model: "openai/gpt-stand-in", tools: [getWeather] });
  const runner = new Runner({ modelProvider: new OpenAIProvider({ baseURL: `${H.base}/v1/embed`, apiKey: H.key, useResponses: true }), tracingDisabled: true });
  const session = new OpenAIConversationsSession({ baseURL: `${H.base}/v1`, apiKey: H.key });

  const first = await runner.run(agent, "What's the weather in SF?", { session });
  expect(calls).toEqual(["San Francisco"]);
  expect(first.finalOutput).toBe("The tool answered: 18 C in San Francisco");

  H.E.openai.calls.length = 0;
  const second = await runner.run(agent, "And in San Francisco tomorrow?", { session });
  // The stand-in calls the offered tool for every user question.
  expect(calls).toEqual(["San Francisco", "San Francisco"]);
  expect(second.finalOutput).toBe("The tool answered: 18 C in San Francisco");
  // The second run's first model call carried the first run's turns, read back from the conversation.
  const sent = JSON.stringify(H.E.openai.calls[0]!.body.messages);
  expect(sent).toContain("What's the weather in SF?");
  expect(sent).toContain("The tool answered: 18 C in San Francisco");

  const items = await session.getItems();
  const turn = (q: string) => [
    `user: ${q}`,
    'call get_weather {"location":"San Francisco"}',
    "result 18 C in San Francisco",
    "assistant: The tool answered: 18 C in San Francisco",
  ];
  expect(items.map(describeItem)).toEqual([...turn("What's the weather in SF?"), ...turn("And in San Francisco tomorrow?")]);
});

function weatherAgent(calls: string[], model = "openai/gpt-stand-in") {
  const getWeather = tool({
    name: "get_weather",
    description: "The weather now at a place",
    parameters: z.object({ location: z.string() }),
    execute: async ({ location }) => {
      calls.push(location);
      return `18 C in ${location}`;
    },
  });
  return new Agent({ name: "Weather", instructions: "Answer weather questions.", model, tools: [getWeather] });
}
const runnerFor = () =>
  new Runner({ modelProvider: new OpenAIProvider({ baseURL: `${H.base}/v1/embed`, apiKey: H.key, useResponses: true }), tracingDisabled: true });

test("server-managed state: two runs on one conversation id", async () => {
  const calls: string[] = [];
  const agent = weatherAgent(calls);
  const runner = runnerFor();
  const c = await H.conversations.conversations.create();
  const first = await runner.run(agent, "What's the weather in SF?", { conversationId: c.id });
  expect(first.finalOutput).toBe("The tool answered: 18 C in San Francisco");
  const second = await runner.run(agent, "And in San Francisco tomorrow?", { conversationId: c.id });
  expect(second.finalOutput).toBe("The tool answered: 18 C in San Francisco");
  expect(calls).toEqual(["San Francisco", "San Francisco"]);
  // The second run's first model call carried the first run, read from the conversation.
  expect(JSON.stringify(H.E.openai.calls.at(-2)!.body.messages)).toContain("What's the weather in SF?");
  const items: any[] = [];
  for await (const item of H.conversations.conversations.items.list(c.id, { order: "asc" })) items.push(item);
  const turn = ["user", "function_call", "function_call_output", "assistant"];
  expect(items.map((i) => (i.type === "message" ? `${i.role}` : i.type))).toEqual([...turn, ...turn]);
});

test("server-managed state: a run continued by previousResponseId (lastResponseId)", async () => {
  const calls: string[] = [];
  const agent = weatherAgent(calls);
  const runner = runnerFor();
  const first = await runner.run(agent, "What's the weather in SF?");
  expect(first.finalOutput).toBe("The tool answered: 18 C in San Francisco");
  const next = await runner.run(agent, "And in San Francisco tomorrow?", { previousResponseId: first.lastResponseId });
  expect(next.finalOutput).toBe("The tool answered: 18 C in San Francisco");
  expect(calls).toEqual(["San Francisco", "San Francisco"]);
  // The chain carried the first run: the model saw its question.
  expect(JSON.stringify(H.E.openai.calls.at(-1)!.body.messages)).toContain("What's the weather in SF?");
});

for (const model of ["openai/gpt-stand-in", "anthropic/claude-stand-in", "google/gemini-stand-in"]) {
  test(`a streamed agent run with a tool on ${model}`, async () => {
    const calls: string[] = [];
    const stream = await runnerFor().run(weatherAgent(calls, model), "What's the weather in SF?", { stream: true });
    const kinds = new Set<string>();
    let text = "";
    for await (const event of stream) {
      kinds.add(event.type);
      if (event.type === "raw_model_stream_event" && event.data.type === "output_text_delta") text += event.data.delta;
    }
    await stream.completed;
    expect(stream.error ?? null).toBeNull();
    expect(calls).toEqual(["San Francisco"]);
    expect(stream.finalOutput).toBe("The tool answered: 18 C in San Francisco");
    expect(text).toBe("The tool answered: 18 C in San Francisco");
    expect(kinds.has("raw_model_stream_event") && kinds.has("run_item_stream_event")).toBe(true);
  });
}
