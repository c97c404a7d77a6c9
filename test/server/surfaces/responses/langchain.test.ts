// LangChain's ChatOpenAI with useResponsesApi: true against Tessera, configured only by base URL
// and key: invoke, stream, a bindTools round trip (the model's call, the tool's result, the answer),
// and structured output.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import { startResponsesHarness, type ResponsesHarness } from "../../responses-harness.ts";

let H: ResponsesHarness;
const chat = (model: string) =>
  new ChatOpenAI({ model, apiKey: H.key, configuration: { baseURL: `${H.base}/v1/embed` }, useResponsesApi: true, maxRetries: 0 });
beforeAll(async () => {
  H = await startResponsesHarness("langchain");
});
afterAll(() => H.close());

const getWeather = tool(async ({ location }) => `18 C and sunny in ${location}`, {
  name: "get_weather",
  description: "The weather now at a place",
  schema: z.object({ location: z.string().describe("A city") }),
});

test("invoke: the answer as an AIMessage with usage", async () => {
  const out = await chat("openai/gpt-stand-in").invoke([new SystemMessage("Be brief."), new HumanMessage("Hello from LangChain")]);
  expect(out).toBeInstanceOf(AIMessage);
  expect(out.text).toBe("Stand-in answer to: Hello from LangChain");
  expect(out.usage_metadata!.total_tokens).toBeGreaterThan(0);
  // Stored by Tessera: the response's id is in the message's metadata and can be read back.
  const id = String(out.response_metadata.id ?? out.id);
  expect((await H.responses.responses.retrieve(id)).output_text).toBe(out.text);
});

for (const model of ["openai/gpt-stand-in", "anthropic/claude-stand-in", "google/gemini-stand-in"]) {
  test(`stream on ${model}: chunks that add up to the answer`, async () => {
    const chunks: string[] = [];
    let whole: any = null;
    for await (const chunk of await chat(model).stream("Stream this to LangChain")) {
      chunks.push(chunk.text);
      whole = whole ? whole.concat(chunk) : chunk;
    }
    expect(whole.usage_metadata.total_tokens).toBeGreaterThan(0);
    expect(chunks.filter((c) => c !== "").length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe("Stand-in answer to: Stream this to LangChain");
  });
}

test("bindTools round trip: a tool call, the tool's result as a ToolMessage, the final answer", async () => {
  const llm = chat("openai/gpt-stand-in").bindTools([getWeather]);
  const question = new HumanMessage("What's the weather in San Francisco?");
  const ai = await llm.invoke([question]);
  expect(ai.tool_calls).toHaveLength(1);
  const call = ai.tool_calls![0]!;
  expect(call.name).toBe("get_weather");
  expect(call.args).toEqual({ location: "San Francisco" });
  expect(typeof call.id).toBe("string");
  const result = await getWeather.invoke(call);
  expect(result).toBeInstanceOf(ToolMessage);
  const final = await llm.invoke([question, ai, result]);
  expect(final.tool_calls ?? []).toEqual([]);
  expect(final.text).toBe("The tool answered: 18 C and sunny in San Francisco");
});

test("bindTools streamed on Gemini: the call is put together from chunks", async () => {
  const llm = chat("google/gemini-stand-in").bindTools([getWeather]);
  let whole: any = null;
  for await (const chunk of await llm.stream("Weather in SF?")) whole = whole ? whole.concat(chunk) : chunk;
  expect(whole.tool_calls.map((c: any) => [c.name, c.args])).toEqual([["get_weather", { location: "San Francisco" }]]);
});

test("withStructuredOutput (text.format json_schema)", async () => {
  H.E.openai.queue.push({ text: '{"city":"Paris","temperature":21}' });
  const structured = chat("openai/gpt-stand-in").withStructuredOutput(z.object({ city: z.string(), temperature: z.number() }), {
    name: "weather",
    method: "jsonSchema",
  });
  expect(await structured.invoke("Weather in Paris as JSON")).toEqual({ city: "Paris", temperature: 21 });
  expect(H.E.openai.calls.at(-1)!.body.response_format?.type).toBe("json_schema");
});

test("bindTools round trip with zdrEnabled (store: false: LangChain sends the whole history itself)", async () => {
  const llm = new ChatOpenAI({
    model: "anthropic/claude-stand-in",
    apiKey: H.key,
    configuration: { baseURL: `${H.base}/v1/embed` },
    useResponsesApi: true,
    zdrEnabled: true,
    maxRetries: 0,
  }).bindTools([getWeather]);
  const question = new HumanMessage("What's the weather in San Francisco?");
  const ai = await llm.invoke([question]);
  expect(ai.tool_calls!.map((c) => c.name)).toEqual(["get_weather"]);
  const final = await llm.invoke([question, ai, await getWeather.invoke(ai.tool_calls![0]!)]);
  expect(final.text).toBe("The tool answered: 18 C and sunny in San Francisco");
});

test("a second turn by previous_response_id (a call option): only the new message is sent, the model sees both", async () => {
  const model = chat("google/gemini-stand-in");
  const first = await model.invoke("My name is Ada");
  const id = String(first.response_metadata.id ?? first.id);
  const second = await model.invoke("What is my name?", { previous_response_id: id });
  expect(second.text).toBe("Stand-in answer to: What is my name?");
  const contents = H.E.gemini.calls.at(-1)!.body.contents;
  expect(contents.map((c: any) => c.role)).toEqual(["user", "model", "user"]);
  expect(JSON.stringify(contents[0])).toContain("My name is Ada");
});
