// Responses and Conversations through the official openai client (6.x), configured only by base URL
// and key, against the real server and the agent stand-ins. What is asserted is what a user of the
// client checks: texts, ids, item order, statuses, and the client's typed errors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { PROVIDER_MODELS, startResponsesHarness, until, WEATHER_TOOL, type ResponsesHarness } from "../../responses-harness.ts";

let H: ResponsesHarness;
let client: OpenAI;
let conv: OpenAI;
beforeAll(async () => {
  H = await startResponsesHarness();
  client = H.responses;
  conv = H.conversations;
});
afterAll(() => H.close());

const MODEL = "openai/gpt-stand-in";
const functionCalls = (r: OpenAI.Responses.Response) => r.output.filter((i): i is OpenAI.Responses.ResponseFunctionToolCall => i.type === "function_call");

describe("responses.create", () => {
  test("text: a completed response with the model's answer, usage and the request's fields", async () => {
    const r = await client.responses.create({ model: MODEL, input: "Hello there", instructions: "Be brief.", metadata: { ticket: "T-1" } });
    expect(typeof r.id).toBe("string");
    expect(r.object).toBe("response");
    expect(r.status).toBe("completed");
    expect(r.model).toBe(MODEL);
    expect(r.output_text).toBe("Stand-in answer to: Hello there");
    expect(r.instructions).toBe("Be brief.");
    expect(r.metadata).toEqual({ ticket: "T-1" });
    const msg = r.output[0] as OpenAI.Responses.ResponseOutputMessage;
    expect(msg.type).toBe("message");
    expect(msg.role).toBe("assistant");
    expect(msg.status).toBe("completed");
    expect(typeof msg.id).toBe("string");
    expect(r.usage!.total_tokens).toBe(r.usage!.input_tokens + r.usage!.output_tokens);
    expect(r.usage!.total_tokens).toBeGreaterThan(0);
  });

  test("an array of messages of every role reaches the model in order", async () => {
    const r = await client.responses.create({
      model: MODEL,
      input: [
        { role: "developer", content: "Answer in English." },
        { role: "user", content: "First question" },
        { role: "assistant", content: "First answer" },
        {
          role: "user",
          content: [
            { type: "input_text", text: "Second " },
            { type: "input_text", text: "question" },
          ],
        },
      ],
    });
    expect(r.output_text).toBe("Stand-in answer to: Second question");
    const sent = H.E.openai.calls.at(-1)!.body.messages;
    expect(["developer", "system"]).toContain(sent[0].role);
    expect(sent.slice(1).map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(sent[2].content)).toContain("First answer");
  });

  test("tools: the model's call comes back as a function_call item", async () => {
    const r = await client.responses.create({ model: MODEL, input: "What's the weather in SF?", tools: [WEATHER_TOOL] });
    expect(r.status).toBe("completed");
    const [call] = functionCalls(r);
    expect(call!.name).toBe("get_weather");
    expect(JSON.parse(call!.arguments)).toEqual({ location: "San Francisco" });
    expect(typeof call!.call_id).toBe("string");
    expect(call!.status).toBe("completed");
    expect(r.tools.map((t) => (t as OpenAI.Responses.FunctionTool).name)).toEqual(["get_weather"]);
  });

  test("text.format json_schema: the schema reaches the model and the JSON comes back as output_text", async () => {
    H.E.openai.queue.push({ text: '{"city":"Paris","temperature":21}' });
    const schema = {
      type: "object",
      properties: { city: { type: "string" }, temperature: { type: "number" } },
      required: ["city", "temperature"],
      additionalProperties: false,
    };
    const r = await client.responses.create({
      model: MODEL,
      input: "Weather in Paris as JSON",
      text: { format: { type: "json_schema", name: "weather", schema, strict: true } },
    });
    expect(JSON.parse(r.output_text)).toEqual({ city: "Paris", temperature: 21 });
    expect(r.text?.format).toMatchObject({ type: "json_schema", name: "weather" });
    const sent = H.E.openai.calls.at(-1)!.body;
    expect(sent.response_format?.type).toBe("json_schema");
    expect(sent.response_format?.json_schema?.schema).toEqual(schema);
  });

  test("errors arrive as the client's typed errors", async () => {
    const bad = await client.responses.create({ model: "no-provider-prefix", input: "x" }).catch((e) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    const hosted = await client.responses.create({ model: MODEL, input: "x", tools: [{ type: "web_search" }] }).catch((e) => e);
    expect(hosted).toBeInstanceOf(OpenAI.BadRequestError);
    expect(hosted.message).toContain("web_search");
    const nokey = await new OpenAI({ baseURL: `${H.base}/v1/embed`, apiKey: "sk-wrong", maxRetries: 0 }).responses
      .create({ model: MODEL, input: "x" })
      .catch((e) => e);
    expect(nokey).toBeInstanceOf(OpenAI.AuthenticationError);
    const c = await conv.conversations.create();
    const both = await client.responses.create({ model: MODEL, input: "x", conversation: c.id, previous_response_id: "resp_x" }).catch((e) => e);
    expect(both).toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe("responses.stream() on every provider", () => {
  for (const model of PROVIDER_MODELS) {
    test(`${model}: text`, async () => {
      const stream = client.responses.stream({ model, input: "Count to three please" });
      const types: string[] = [];
      let deltas = "";
      for await (const e of stream) {
        types.push(e.type);
        if (e.type === "response.output_text.delta") deltas += e.delta;
      }
      const final = await stream.finalResponse();
      expect(types[0]).toBe("response.created");
      expect(types.at(-1)).toBe("response.completed");
      expect(types.filter((t) => t === "response.completed" || t === "response.failed" || t === "response.incomplete")).toHaveLength(1);
      expect(final.status).toBe("completed");
      expect(final.output_text).toBe("Stand-in answer to: Count to three please");
      expect(deltas).toBe(final.output_text);
      expect(final.model).toBe(model);
      const again = await client.responses.retrieve(final.id);
      expect(again.output_text).toBe(final.output_text);
    });

    test(`${model}: tool call`, async () => {
      const stream = client.responses.stream({ model, input: "Weather in SF?", tools: [WEATHER_TOOL] });
      const types: string[] = [];
      for await (const e of stream) types.push(e.type);
      const final = await stream.finalResponse();
      expect(final.status).toBe("completed");
      const [call] = functionCalls(final);
      expect(call!.name).toBe("get_weather");
      expect(JSON.parse(call!.arguments)).toEqual({ location: "San Francisco" });
      expect(types).toContain("response.function_call_arguments.done");
      expect(types.at(-1)).toBe("response.completed");
    });
  }
});

describe("stored responses", () => {
  test("retrieve gives the stored response; store:false is not retrievable", async () => {
    const r = await client.responses.create({ model: MODEL, input: "Remember me" });
    const got = await client.responses.retrieve(r.id);
    expect(got.id).toBe(r.id);
    expect(got.status).toBe("completed");
    expect(got.output_text).toBe("Stand-in answer to: Remember me");
    expect(got.output.map((i) => i.id)).toEqual(r.output.map((i) => i.id));
    const transient = await client.responses.create({ model: MODEL, input: "Forget me", store: false });
    expect(transient.output_text).toBe("Stand-in answer to: Forget me");
    expect(await client.responses.retrieve(transient.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    const cont = await client.responses.create({ model: MODEL, input: "x", previous_response_id: transient.id }).catch((e) => e);
    expect(cont).toBeInstanceOf(OpenAI.APIError);
    expect(cont.status).toBeGreaterThanOrEqual(400);
  });

  test("delete removes the response and its input items", async () => {
    const r = await client.responses.create({ model: MODEL, input: "Delete me" });
    await client.responses.delete(r.id);
    expect(await client.responses.retrieve(r.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await client.responses.inputItems.list(r.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await client.responses.delete(r.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  test("a background response runs to completion; GET shows it", async () => {
    const r = await client.responses.create({ model: MODEL, input: "In the background", background: true });
    expect(["queued", "in_progress"]).toContain(r.status!);
    expect(r.background).toBe(true);
    const done = await until(
      () => client.responses.retrieve(r.id),
      (x) => x.status === "completed",
    );
    expect(done.output_text).toBe("Stand-in answer to: In the background");
  });

  test("cancel of a running background response: cancelled, idempotent, a 400 for a foreground one", async () => {
    H.E.openai.queue.push({ text: "Too late.", delayMs: 3000 });
    const r = await client.responses.create({ model: MODEL, input: "Slow work", background: true });
    expect(["queued", "in_progress"]).toContain(r.status!);
    const cancelled = await client.responses.cancel(r.id);
    expect(cancelled.id).toBe(r.id);
    expect(cancelled.status).toBe("cancelled");
    expect((await client.responses.cancel(r.id)).status).toBe("cancelled");
    expect((await client.responses.retrieve(r.id)).status).toBe("cancelled");
    const fg = await client.responses.create({ model: MODEL, input: "Foreground" });
    expect(await client.responses.cancel(fg.id).catch((e) => e)).toBeInstanceOf(OpenAI.BadRequestError);
    expect(await client.responses.cancel("resp_does_not_exist").catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  test("inputItems.list pages automatically over 150 items, both orders, each item once", async () => {
    const input = Array.from({ length: 150 }, (_, i) => ({ role: "user" as const, content: `message ${i}` }));
    const r = await client.responses.create({ model: MODEL, input });
    const textOfItem = (i: any) => i.content?.[0]?.text;
    const desc: any[] = [];
    for await (const item of client.responses.inputItems.list(r.id, { limit: 100 })) desc.push(item);
    expect(desc).toHaveLength(150);
    expect(desc.map(textOfItem)).toEqual(input.map((m) => m.content).reverse());
    const asc: any[] = [];
    for await (const item of client.responses.inputItems.list(r.id, { order: "asc", limit: 7 })) asc.push(item);
    expect(asc.map(textOfItem)).toEqual(input.map((m) => m.content));
    expect(new Set(asc.map((i) => i.id)).size).toBe(150);
    const first = await client.responses.inputItems.list(r.id, { order: "asc" });
    expect(first.data).toHaveLength(20);
    expect(first.has_more).toBe(true);
  });
});

describe("conversations.*", () => {
  test("create, retrieve, update, delete", async () => {
    const c = await conv.conversations.create({ metadata: { topic: "demo" }, items: [{ type: "message", role: "user", content: "Hi" }] });
    expect(c.object).toBe("conversation");
    expect(typeof c.id).toBe("string");
    expect(c.metadata).toEqual({ topic: "demo" });
    expect((await conv.conversations.retrieve(c.id)).id).toBe(c.id);
    const updated = await conv.conversations.update(c.id, { metadata: { topic: "changed" } });
    expect(updated.metadata).toEqual({ topic: "changed" });
    expect((await conv.conversations.retrieve(c.id)).metadata).toEqual({ topic: "changed" });
    const gone = await conv.conversations.delete(c.id);
    expect(gone).toMatchObject({ id: c.id, object: "conversation.deleted", deleted: true });
    expect(await conv.conversations.retrieve(c.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await conv.conversations.items.list(c.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  test("items: create, list in both orders with paging, retrieve, delete", async () => {
    const c = await conv.conversations.create({});
    const texts = Array.from({ length: 45 }, (_, i) => `item ${i}`);
    for (let i = 0; i < texts.length; i += 20) {
      const added = await conv.conversations.items.create(c.id, {
        items: texts.slice(i, i + 20).map((t) => ({ type: "message" as const, role: "user" as const, content: t })),
      });
      expect(added.data.map((x: any) => x.content[0].text)).toEqual(texts.slice(i, i + 20));
      expect(added.data.every((x) => typeof x.id === "string")).toBe(true);
    }
    const textOfItem = (i: any) => i.content?.[0]?.text;
    const asc: any[] = [];
    for await (const item of conv.conversations.items.list(c.id, { order: "asc", limit: 10 })) asc.push(item);
    expect(asc.map(textOfItem)).toEqual(texts);
    const desc: any[] = [];
    for await (const item of conv.conversations.items.list(c.id, { limit: 100 })) desc.push(item);
    expect(desc.map(textOfItem)).toEqual([...texts].reverse());
    const page = await conv.conversations.items.list(c.id, { limit: 3, order: "desc" });
    expect(page.data.map(textOfItem)).toEqual(["item 44", "item 43", "item 42"]);
    expect(page.has_more).toBe(true);
    expect(page.last_id).toBe(page.data[2]!.id!);
    expect((await page.getNextPage()).data.map(textOfItem)).toEqual(["item 41", "item 40", "item 39"]);

    const one = await conv.conversations.items.retrieve(asc[5].id, { conversation_id: c.id });
    expect(textOfItem(one)).toBe("item 5");
    const after = await conv.conversations.items.delete(asc[5].id, { conversation_id: c.id });
    expect(after.id).toBe(c.id);
    expect(after.object).toBe("conversation");
    expect(await conv.conversations.items.retrieve(asc[5].id, { conversation_id: c.id }).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    const left: any[] = [];
    for await (const item of conv.conversations.items.list(c.id, { order: "asc", limit: 100 })) left.push(item);
    expect(left.map(textOfItem)).toEqual(texts.filter((_, i) => i !== 5));
  });

  test("list parameters out of range are 400s", async () => {
    const c = await conv.conversations.create();
    for (const q of [{ limit: 0 }, { limit: 101 }, { order: "sideways" as never }]) {
      expect(await conv.conversations.items.list(c.id, q).catch((e) => e)).toBeInstanceOf(OpenAI.BadRequestError);
    }
    const r = await client.responses.create({ model: MODEL, input: "x" });
    expect(await client.responses.inputItems.list(r.id, { limit: 101 }).catch((e) => e)).toBeInstanceOf(OpenAI.BadRequestError);
  });

  test("GET /v1/conversations lists the organization's conversations, newest first", async () => {
    const a = await conv.conversations.create({ metadata: { n: "a" } });
    const b = await conv.conversations.create({ metadata: { n: "b" } });
    const res = await fetch(`${H.base}/v1/conversations?limit=100`, { headers: { authorization: `Bearer ${H.key}` } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { object: string; data: { id: string }[] };
    expect(page.object).toBe("list");
    const ids = page.data.map((x) => x.id);
    expect(ids.indexOf(b.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
  });
});

describe("function-call round trips", () => {
  test("through previous_response_id and function_call_output", async () => {
    const first = await client.responses.create({ model: MODEL, input: "Weather in SF?", tools: [WEATHER_TOOL] });
    const [call] = functionCalls(first);
    expect(call!.name).toBe("get_weather");
    const second = await client.responses.create({
      model: MODEL,
      previous_response_id: first.id,
      tools: [WEATHER_TOOL],
      input: [{ type: "function_call_output", call_id: call!.call_id, output: "18 C and sunny" }],
    });
    expect(second.status).toBe("completed");
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output_text).toBe("The tool answered: 18 C and sunny");
    // The model saw the whole chain: the question, its own call, the result.
    const sent = H.E.openai.calls.at(-1)!.body.messages;
    expect(sent.map((m: any) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(sent[1].tool_calls[0].id).toBe(call!.call_id);
    expect(sent[2].tool_call_id).toBe(call!.call_id);
  });

  test("through a conversation: the items are appended in order", async () => {
    const c = await conv.conversations.create();
    const first = await client.responses.create({ model: MODEL, conversation: c.id, input: "Weather in SF?", tools: [WEATHER_TOOL] });
    expect(first.conversation?.id).toBe(c.id);
    const [call] = functionCalls(first);
    const second = await client.responses.create({
      model: MODEL,
      conversation: { id: c.id },
      tools: [WEATHER_TOOL],
      input: [{ type: "function_call_output", call_id: call!.call_id, output: "18 C and sunny" }],
    });
    expect(second.output_text).toBe("The tool answered: 18 C and sunny");
    const items: any[] = [];
    for await (const item of conv.conversations.items.list(c.id, { order: "asc" })) items.push(item);
    expect(items.map((i) => (i.type === "message" ? `message:${i.role}` : i.type))).toEqual([
      "message:user",
      "function_call",
      "function_call_output",
      "message:assistant",
    ]);
    expect(items[1].call_id).toBe(call!.call_id);
    expect(items[2].call_id).toBe(call!.call_id);
    expect(items[3].content[0].text).toBe("The tool answered: 18 C and sunny");
  });
});

describe("streams a user relies on", () => {
  for (const model of PROVIDER_MODELS) {
    test(`${model}: a message and two tool calls in one turn land at output_index 0, 1, 2`, async () => {
      H.fakeFor(model).queue.push({
        text: "Let me check both.",
        toolCalls: [
          { id: "call_a", name: "get_weather", arguments: '{"location":"Paris"}' },
          { id: "call_b", name: "get_weather", arguments: '{"location":"Rome"}' },
        ],
      });
      const stream = client.responses.stream({ model, input: "Weather in Paris and Rome?", tools: [WEATHER_TOOL] });
      const added: number[] = [];
      for await (const e of stream) if (e.type === "response.output_item.added") added.push(e.output_index);
      const final = await stream.finalResponse();
      expect(added).toEqual([0, 1, 2]);
      expect(final.output.map((i) => i.type)).toEqual(["message", "function_call", "function_call"]);
      expect(final.output_text).toBe("Let me check both.");
      expect(functionCalls(final).map((c) => JSON.parse(c.arguments).location)).toEqual(["Paris", "Rome"]);
      const stored = await client.responses.retrieve(final.id);
      expect(stored.output.map((i) => i.type)).toEqual(["message", "function_call", "function_call"]);
    });

    for (const how of ["close", "event"] as const) {
      test(`${model}: a provider that fails mid-stream (${how}) gives response.failed, never a silent end`, async () => {
        H.fakeFor(model).queue.push({ text: "This answer breaks off", failMidStream: how });
        const stream = client.responses.stream({ model, input: "Tell me something" });
        const types: string[] = [];
        for await (const e of stream) types.push(e.type);
        const final = await stream.finalResponse();
        expect(types.at(-1)).toBe("response.failed");
        expect(types.filter((t) => t === "response.completed" || t === "response.failed" || t === "response.incomplete")).toEqual(["response.failed"]);
        expect(final.status).toBe("failed");
        expect(final.error?.message).toBeTruthy();
        expect((await client.responses.retrieve(final.id)).status).toBe("failed");
      });
    }

    test(`${model}: a function-call round trip through previous_response_id`, async () => {
      const first = await client.responses.create({ model, input: "Weather in SF?", tools: [WEATHER_TOOL] });
      const [call] = functionCalls(first);
      expect(call!.name).toBe("get_weather");
      const stream = client.responses.stream({
        model,
        previous_response_id: first.id,
        tools: [WEATHER_TOOL],
        input: [{ type: "function_call_output", call_id: call!.call_id, output: '{"temperature":18}' }],
      });
      const second = await stream.finalResponse();
      expect(second.status).toBe("completed");
      expect(second.output_text).toBe('The tool answered: {"temperature":18}');
      // A third turn on the chain: the model sees all of it (Anthropic's roles still alternate).
      const third = await client.responses.create({ model, previous_response_id: second.id, input: "And tomorrow?" });
      expect(third.status).toBe("completed");
      expect(third.output.filter((i) => i.type === "function_call")).toHaveLength(0);
    });
  }

  test("a failed turn in a conversation appends nothing", async () => {
    const c = await conv.conversations.create();
    await client.responses.create({ model: MODEL, conversation: c.id, input: "first" });
    H.E.openai.queue.push({ text: "breaks off here", failMidStream: "close" });
    const stream = client.responses.stream({ model: MODEL, conversation: c.id, input: "second" });
    expect((await stream.finalResponse()).status).toBe("failed");
    const items: any[] = [];
    for await (const item of conv.conversations.items.list(c.id, { order: "asc" })) items.push(item);
    expect(items.map((i) => `${i.role}:${i.content[0].text}`)).toEqual(["user:first", "assistant:Stand-in answer to: first"]);
  });

  test("a background stream is replayed by retrieve(stream) and resumed after starting_after", async () => {
    const live = await client.responses.create({ model: MODEL, input: "Replay me", background: true, stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const e of live) events.push(e);
    expect(events[0]!.type).toBe("response.created");
    expect(events.at(-1)!.type).toBe("response.completed");
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const id = (events[0] as OpenAI.Responses.ResponseCreatedEvent).response.id;

    const replay: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const e of await client.responses.retrieve(id, { stream: true })) replay.push(e);
    expect(replay.map((e) => e.type)).toEqual(events.map((e) => e.type));

    const resumed: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const e of await client.responses.retrieve(id, { stream: true, starting_after: 3 })) resumed.push(e);
    expect(resumed.map((e) => e.sequence_number)).toEqual(events.slice(4).map((e) => e.sequence_number));

    // The client's stream helper resumes by id too.
    const helper = client.responses.stream({ response_id: id, starting_after: 3 });
    expect((await helper.finalResponse()).output_text).toBe("Stand-in answer to: Replay me");
  });
});

describe("the rest of the surface", () => {
  test("inputTokens.count gives an estimate", async () => {
    const small = await client.responses.inputTokens.count({ model: MODEL, input: "Hi" });
    const big = await client.responses.inputTokens.count({ model: MODEL, input: "Hi ".repeat(500) });
    expect(small.object).toBe("response.input_tokens");
    expect(small.input_tokens).toBeGreaterThan(0);
    expect(big.input_tokens).toBeGreaterThan(small.input_tokens);
  });

  test("compact, and the compacted output as the input of a later response", async () => {
    const compacted = await client.responses.compact({
      model: MODEL,
      input: [
        { role: "user", content: "My name is Ada." },
        { role: "assistant", content: "Hello Ada." },
      ],
    });
    expect(compacted.object).toBe("response.compaction");
    const item = compacted.output.find((i) => i.type === "compaction") as { type: "compaction"; id: string; encrypted_content: string } | undefined;
    expect(typeof item?.encrypted_content).toBe("string");
    const next = await client.responses.create({ model: MODEL, input: [...(compacted.output as never[]), { role: "user", content: "What is my name?" }] });
    expect(next.output_text).toBe("Stand-in answer to: What is my name?");
  });

  test("metadata over the limits is a 400; so are more than 20 items in one conversations call", async () => {
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"]));
    expect(await client.responses.create({ model: MODEL, input: "x", metadata: many }).catch((e) => e)).toBeInstanceOf(OpenAI.BadRequestError);
    expect(await client.responses.create({ model: MODEL, input: "x", metadata: { ["k".repeat(65)]: "v" } }).catch((e) => e)).toBeInstanceOf(
      OpenAI.BadRequestError,
    );
    expect(await client.responses.create({ model: MODEL, input: "x", metadata: { k: "v".repeat(513) } }).catch((e) => e)).toBeInstanceOf(
      OpenAI.BadRequestError,
    );
    const c = await conv.conversations.create();
    const items = Array.from({ length: 21 }, (_, i) => ({ type: "message" as const, role: "user" as const, content: `m${i}` }));
    expect(await conv.conversations.items.create(c.id, { items }).catch((e) => e)).toBeInstanceOf(OpenAI.BadRequestError);
    expect(await conv.conversations.create({ items }).catch((e) => e)).toBeInstanceOf(OpenAI.BadRequestError);
  });

  test("another organization's ids answer 404, as ids that never existed; each still reaches its own", async () => {
    const other = await H.E.h.org("someone-else", 1000);
    const them = new OpenAI({ baseURL: `${H.base}/v1/embed`, apiKey: other, maxRetries: 0 });
    const theirConv = new OpenAI({ baseURL: `${H.base}/v1`, apiKey: other, maxRetries: 0 });
    const r = await client.responses.create({ model: MODEL, input: "mine" });
    const bg = await client.responses.create({ model: MODEL, input: "mine too", background: true });
    const c = await conv.conversations.create({ items: [{ type: "message", role: "user", content: "mine" }] });
    const [item] = (await conv.conversations.items.list(c.id)).data;
    const refused = [
      await them.responses.retrieve(r.id).catch((e) => e),
      await them.responses.inputItems.list(r.id).catch((e) => e),
      await them.responses.delete(r.id).catch((e) => e),
      await them.responses.cancel(bg.id).catch((e) => e),
      await them.responses.create({ model: MODEL, input: "x", conversation: c.id }).catch((e) => e),
      await theirConv.conversations.retrieve(c.id).catch((e) => e),
      await theirConv.conversations.update(c.id, { metadata: { x: "y" } }).catch((e) => e),
      await theirConv.conversations.items.list(c.id).catch((e) => e),
      await theirConv.conversations.items.create(c.id, { items: [{ type: "message", role: "user", content: "x" }] }).catch((e) => e),
      await theirConv.conversations.items.retrieve(item!.id!, { conversation_id: c.id }).catch((e) => e),
      await theirConv.conversations.items.delete(item!.id!, { conversation_id: c.id }).catch((e) => e),
      await theirConv.conversations.delete(c.id).catch((e) => e),
    ];
    expect(refused.map((e) => e?.status ?? e)).toEqual(refused.map(() => 404));
    // A previous_response_id in a body: the same answer as for an id that never existed.
    const foreign = await them.responses.create({ model: MODEL, input: "x", previous_response_id: r.id }).catch((e) => e);
    const never = await them.responses.create({ model: MODEL, input: "x", previous_response_id: "resp_never_existed" }).catch((e) => e);
    expect([foreign.status, foreign.code]).toEqual([never.status, never.code]);
    expect(foreign.message).not.toContain("mine");
    const list = (await fetch(`${H.base}/v1/conversations?limit=100`, { headers: { authorization: `Bearer ${other}` } }).then((x) => x.json())) as {
      data: { id: string }[];
    };
    expect(list.data.map((x) => x.id)).not.toContain(c.id);
    expect((await client.responses.retrieve(r.id)).output_text).toBe("Stand-in answer to: mine");
    expect((await conv.conversations.items.list(c.id)).data.map((x: any) => x.content[0].text)).toEqual(["mine"]);
    expect((await conv.conversations.retrieve(c.id)).metadata).toEqual({});
  });
});

describe("endings and helpers", () => {
  const LENGTH: Record<string, string> = { openai: "length", anthropic: "max_tokens", google: "MAX_TOKENS", meta: "length", local: "length" };
  for (const model of PROVIDER_MODELS) {
    test(`${model}: an answer cut by max_output_tokens ends incomplete, streamed and not`, async () => {
      const fake = H.fakeFor(model);
      const finish = LENGTH[model.split("/")[0]!]!;
      fake.queue.push({ text: "This answer is cut", finish }, { text: "This answer is cut", finish });
      const whole = await client.responses.create({ model, input: "Write a lot", max_output_tokens: 16 });
      expect(whole.status).toBe("incomplete");
      expect(whole.incomplete_details?.reason).toBe("max_output_tokens");
      expect(whole.output_text).toBe("This answer is cut");
      const stream = client.responses.stream({ model, input: "Write a lot", max_output_tokens: 16 });
      const types: string[] = [];
      for await (const e of stream) types.push(e.type);
      expect(types.at(-1)).toBe("response.incomplete");
      const final = await stream.finalResponse();
      expect(final.status).toBe("incomplete");
      expect(final.output_text).toBe("This answer is cut");
    });
  }

  test("responses.parse with a zod text format", async () => {
    const { zodTextFormat } = await import("openai/helpers/zod");
    const { z } = await import("zod");
    H.E.openai.queue.push({ text: '{"city":"Paris","temperature":21}' });
    const parsed = await client.responses.parse({
      model: MODEL,
      input: "Weather in Paris as JSON",
      text: { format: zodTextFormat(z.object({ city: z.string(), temperature: z.number() }), "weather") },
    });
    expect(parsed.output_parsed).toEqual({ city: "Paris", temperature: 21 });
  });

  test("inputItems of a turn in a conversation are that turn's own input", async () => {
    const c = await conv.conversations.create({ items: [{ type: "message", role: "user", content: "earlier" }] });
    const r = await client.responses.create({ model: MODEL, conversation: c.id, input: "now" });
    const items = (await client.responses.inputItems.list(r.id)).data as any[];
    expect(items.map((i) => i.content[0].text)).toEqual(["now"]);
    expect(JSON.stringify(H.E.openai.calls.at(-1)!.body.messages)).toContain("earlier");
  });
});

describe("provider errors as the client's defaults meet them", () => {
  test("a provider that refuses the request (its 400) is not retried by a client with default retries; its 429 is", async () => {
    const defaults = new OpenAI({ baseURL: `${H.base}/v1/embed`, apiKey: H.key }); // maxRetries: 2, as users have it
    const fake = H.E.anthropic;
    fake.queue.push(
      { status: 400, errorMessage: "prompt is too long" },
      { status: 400, errorMessage: "prompt is too long" },
      { status: 400, errorMessage: "prompt is too long" },
    );
    const before = fake.calls.length;
    const refused = await defaults.responses.create({ model: "anthropic/claude-stand-in", input: "x".repeat(100) }).catch((e) => e);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect(refused.message).toContain("prompt is too long");
    const calls = fake.calls.length - before;
    fake.queue.length = 0;
    expect(`${calls} provider call(s), answered ${refused.status} with x-should-retry: ${refused.headers?.get("x-should-retry")}`).toMatch(
      /^1 provider call\(s\)/,
    );

    fake.queue.push({ status: 429, errorMessage: "slow down" });
    const retried = await defaults.responses.create({ model: "anthropic/claude-stand-in", input: "again" });
    expect(retried.output_text).toBe("Stand-in answer to: again");
  });
});

describe("slow models", () => {
  const slowText = Array.from({ length: 12 }, (_, i) => `word${i} `)
    .join("")
    .trim();

  test("a background stream cancelled mid-answer ends with one terminal event; the response is cancelled and its conversation untouched", async () => {
    const c = await conv.conversations.create();
    H.E.openai.queue.push({ text: slowText, pieceDelayMs: 80 });
    const live = await client.responses.create({ model: MODEL, input: "Write slowly", background: true, stream: true, conversation: c.id });
    const types: string[] = [];
    let id = "";
    let cancelled: OpenAI.Responses.Response | null = null;
    for await (const e of live) {
      types.push(e.type);
      if (e.type === "response.created") id = e.response.id;
      if (e.type === "response.output_text.delta" && !cancelled) cancelled = await client.responses.cancel(id);
    }
    expect(cancelled!.status).toBe("cancelled");
    expect(types.filter((t) => t === "response.completed" || t === "response.failed" || t === "response.incomplete")).toHaveLength(1);
    expect(types.at(-1)).not.toBe("response.completed");
    expect(types.filter((t) => t === "response.output_text.delta").length).toBeLessThan(12);
    expect((await client.responses.retrieve(id)).status).toBe("cancelled");
    expect((await conv.conversations.items.list(c.id)).data).toEqual([]);
  });

  test("a client that stops reading a foreground stream: the turn ends, nothing is appended, a retrieve does not hang", async () => {
    const c = await conv.conversations.create();
    H.E.anthropic.queue.push({ text: slowText, pieceDelayMs: 80 });
    const stream = client.responses.stream({ model: "anthropic/claude-stand-in", input: "Write slowly", conversation: c.id });
    let id = "";
    for await (const e of stream) {
      if (e.type === "response.created") id = e.response.id;
      if (e.type === "response.output_text.delta") break; // leaves the loop: the helper aborts the request
    }
    const ended = await until(
      () => client.responses.retrieve(id),
      (r) => r.status !== "in_progress" && r.status !== "queued",
      5000,
    );
    expect(["cancelled", "failed", "incomplete"]).toContain(ended.status!);
    expect((await conv.conversations.items.list(c.id)).data).toEqual([]);
  });

  test("GET of a background response in flight shows it in progress, then the whole result", async () => {
    H.E.gemini.queue.push({ text: slowText, pieceDelayMs: 40 });
    const r = await client.responses.create({ model: "google/gemini-stand-in", input: "Write slowly", background: true });
    const during = await until(
      () => client.responses.retrieve(r.id),
      (x) => x.status === "in_progress",
    );
    expect(during.status).toBe("in_progress");
    const done = await until(
      () => client.responses.retrieve(r.id),
      (x) => x.status === "completed",
    );
    expect(done.output_text).toBe(slowText);
  });
});

describe("usable the moment it is announced", () => {
  for (const model of ["openai/gpt-stand-in", "anthropic/claude-stand-in"]) {
    test(`${model}: continued, retrieved and listed from inside the response.completed handler, before the stream closes`, async () => {
      const c = await conv.conversations.create();
      const raw = await client.responses.create({ model, input: "First", stream: true, conversation: c.id });
      let checked: { retrieved: string; items: number; continued: string } | null = null;
      for await (const e of raw) {
        if (e.type !== "response.completed") continue;
        // A client reacts to the event at once, while the server may still be writing the stream.
        const [retrieved, items, next] = await Promise.all([
          client.responses.retrieve(e.response.id),
          conv.conversations.items.list(c.id),
          client.responses.create({ model, input: "Second", conversation: c.id }),
        ]);
        // The first turn's input and answer are there (the second turn, sent at the same time, may
        // have appended its own by the time the list is read).
        const firstTurn = items.data.filter((item) => /"(First|Stand-in answer to: First)"/.test(JSON.stringify(item))).length;
        checked = { retrieved: retrieved.status!, items: firstTurn, continued: next.output_text };
        const chained = await client.responses.create({ model, input: "Third", previous_response_id: e.response.id, store: false });
        expect(chained.status).toBe("completed");
      }
      expect(checked).toEqual({ retrieved: "completed", items: 2, continued: "Stand-in answer to: Second" });
    });
  }
});
