// Responses and Conversations through the official openai client (6.x), configured only by base URL
// and key, against the real server and the agent stand-ins. What is asserted is what a user of the
// client checks: texts, ids, item order, statuses, and the client's typed errors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { PROVIDER_MODELS, startResponsesHarness, until, WEATHER_TOOL, type ResponsesHarness } from "./responses-harness.ts";

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
        { role: "user", content: [{ type: "input_text", text: "Second " }, { type: "input_text", text: "question" }] },
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
    const schema = { type: "object", properties: { city: { type: "string" }, temperature: { type: "number" } }, required: ["city", "temperature"], additionalProperties: false };
    const r = await client.responses.create({
      model: MODEL, input: "Weather in Paris as JSON",
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
    const nokey = await new OpenAI({ baseURL: `${H.base}/v1/embed`, apiKey: "sk-wrong", maxRetries: 0 }).responses.create({ model: MODEL, input: "x" }).catch((e) => e);
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
    const done = await until(() => client.responses.retrieve(r.id), (x) => x.status === "completed");
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
      const added = await conv.conversations.items.create(c.id, { items: texts.slice(i, i + 20).map((t) => ({ type: "message" as const, role: "user" as const, content: t })) });
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
      model: MODEL, previous_response_id: first.id, tools: [WEATHER_TOOL],
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
      model: MODEL, conversation: { id: c.id }, tools: [WEATHER_TOOL],
      input: [{ type: "function_call_output", call_id: call!.call_id, output: "18 C and sunny" }],
    });
    expect(second.output_text).toBe("The tool answered: 18 C and sunny");
    const items: any[] = [];
    for await (const item of conv.conversations.items.list(c.id, { order: "asc" })) items.push(item);
    expect(items.map((i) => (i.type === "message" ? `message:${i.role}` : i.type))).toEqual(["message:user", "function_call", "function_call_output", "message:assistant"]);
    expect(items[1].call_id).toBe(call!.call_id);
    expect(items[2].call_id).toBe(call!.call_id);
    expect(items[3].content[0].text).toBe("The tool answered: 18 C and sunny");
  });
});
