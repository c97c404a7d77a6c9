// Managed UI streams repaired as they arrive, on every streaming transport (Embed SSE, Responses
// SSE and WebSocket): the deltas a client reads add up to the stored answer, which is repaired and
// valid; no mistake of the model's reaches the client; the first line goes out while the model is
// still writing; reliability monitoring records the repaired stream under the model id.
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { writeConfigBlock } from "../../../src/client/config-block.ts";
import { compileLibrary, isValid, loadLanguage, parse } from "../../../src/lang/index.ts";
import { builtInLibraries } from "../../../src/library/index.ts";
import { startEmbedHarness, type EmbedHarness } from "../embed-harness.ts";
import { eventually } from "../../support/eventually.ts";

let E: EmbedHarness;
let key: string;
await loadLanguage();
// react-ui's openuiChatLibrary (root Card), a built-in library.
const LIBRARY = "react-ui/openui-chat";
const lib = compileLibrary(builtInLibraries[LIBRARY]!.chatLibrary);
const BLOCK = writeConfigBlock({ libraryVersion: LIBRARY });

// A program with a model's mistakes: a misspelt component, an enum in the wrong case, a reference
// to nothing.
const MISTAKEN = [
  "root = Card([header, note, ghost])",
  'header = CardHeadr("Quarterly revenue", "2025")',
  'note = Callout("SUCCESS", "Q3", "Q3 is the best quarter so far.")',
].join("\n");
// What must never reach the client. (The reference to nothing is known only at the end: root is
// then sent again without it.)
const MISTAKES = ["CardHeadr", '"SUCCESS"'];

beforeAll(async () => {
  E = await startEmbedHarness();
  key = await E.h.org("managed-stream", 1000);
});
afterAll(() => E.close());

/** Pieces of a few characters, as a model's tokens come. */
const pieces = (text: string) => text.match(/[\s\S]{1,4}/g)!;

async function eventsOf(model: string, endpoint: string) {
  return E.h.server.db.selectFrom("reliability_events").selectAll().where("model", "=", model).where("endpoint", "=", endpoint).execute();
}
function expectRepaired(text: string) {
  expect(parse(text, lib).errors).toEqual([]);
  for (const m of MISTAKES) expect(text).not.toContain(m);
  expect(text).toContain('header = CardHeader("Quarterly revenue", "2025")');
  expect(text.endsWith("root = Card([header, note])\n")).toBe(true);
}

test("Embed SSE: the deltas are the repaired answer; monitoring records the repaired stream under the model id", async () => {
  E.openai.queue.push({ text: MISTAKEN, pieces: pieces(MISTAKEN) });
  const client = new OpenAI({ baseURL: `${E.h.base}/v1/embed`, apiKey: key, maxRetries: 0 });
  const stream = await client.chat.completions.create({
    model: "openai/gpt-embed-stream",
    stream: true,
    messages: [
      { role: "system", content: BLOCK },
      { role: "user", content: "Revenue" },
    ],
  });
  let text = "";
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta.content ?? "";
    for (const m of MISTAKES) expect(delta).not.toContain(m);
    text += delta;
  }
  expectRepaired(text);
  const events = await eventually(
    () => eventsOf("openai/gpt-embed-stream", "/v1/embed/chat/completions"),
    (r) => r.length > 0,
  );
  expect(events[0]).toMatchObject({ outcome: "fixed" });
  expect(JSON.parse(events[0]!.corrected_codes)).toContain("unknown-component");
});

test("Responses SSE: deltas == output_text.done == the stored response == the conversation's item", async () => {
  E.openai.queue.push({ text: MISTAKEN, pieces: pieces(MISTAKEN) });
  const conv = await (
    await fetch(`${E.h.base}/v1/conversations`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: "{}" })
  ).json();
  const client = new OpenAI({ baseURL: `${E.h.base}/v1/embed`, apiKey: key, maxRetries: 0 });
  const stream = await client.responses.create({
    model: "openai/gpt-responses-stream",
    instructions: BLOCK,
    input: "Revenue",
    stream: true,
    conversation: conv.id,
  });
  let deltas = "";
  let done = "";
  let id = "";
  for await (const e of stream) {
    if (e.type === "response.output_text.delta") deltas += e.delta;
    if (e.type === "response.output_text.done") done = e.text;
    if (e.type === "response.completed") id = e.response.id;
  }
  expectRepaired(deltas);
  expect(done).toBe(deltas);
  const stored = await client.responses.retrieve(id);
  expect(stored.output_text).toBe(deltas);
  const items = await (await fetch(`${E.h.base}/v1/conversations/${conv.id}/items?order=asc`, { headers: { authorization: `Bearer ${key}` } })).json();
  expect(items.data[1].content[0].text).toBe(deltas);
  const events = await eventually(
    () => eventsOf("openai/gpt-responses-stream", "/v1/embed/responses"),
    (r) => r.length > 0,
  );
  expect(events[0]).toMatchObject({ outcome: "fixed" });
});

test("Responses over WebSocket: the same repaired deltas", async () => {
  E.openai.queue.push({ text: MISTAKEN, pieces: pieces(MISTAKEN) });
  const ws = new WebSocket(`${E.h.base.replace("http", "ws")}/v1/embed/responses`, { headers: { authorization: `Bearer ${key}` } } as any);
  await new Promise((resolve) => ws.addEventListener("open", resolve, { once: true }));
  const frames: any[] = [];
  const finished = new Promise<void>((resolve) =>
    ws.addEventListener("message", (m) => {
      const e = JSON.parse(String(m.data));
      frames.push(e);
      if (e.type === "response.completed" || e.type === "error" || e.type === "response.failed") resolve();
    }),
  );
  ws.send(JSON.stringify({ type: "response.create", model: "openai/gpt-ws-stream", instructions: BLOCK, input: "Revenue" }));
  await finished;
  ws.close();
  const deltas = frames
    .filter((e) => e.type === "response.output_text.delta")
    .map((e) => e.delta)
    .join("");
  expectRepaired(deltas);
  expect(frames.find((e) => e.type === "response.completed").response.output[0].content[0].text).toBe(deltas);
});

test("the first line reaches the client, repaired, while the model is still writing the second", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const enc = new TextEncoder();
  const frame = (content: string | null, finish: string | null = null) =>
    enc.encode(
      `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`,
    );
  const model = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(
        new ReadableStream({
          async start(ctrl) {
            ctrl.enqueue(frame('root = Card([hdr, t])\nhdr = CardHeadr("Hi")\nt = TextCon'));
            await gate;
            ctrl.enqueue(frame('tent("Hello")\n'));
            ctrl.enqueue(frame(null, "stop"));
            ctrl.enqueue(enc.encode("data: [DONE]\n\n"));
            ctrl.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      ),
  });
  const providers = E.h.server.config.providers;
  const saved = providers.LOCAL_BASE_URL;
  providers.LOCAL_BASE_URL = `http://127.0.0.1:${model.port}/v1`;
  try {
    const res = await fetch(`${E.h.base}/v1/embed/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "local/gated",
        stream: true,
        messages: [
          { role: "system", content: BLOCK },
          { role: "user", content: "Hi" },
        ],
      }),
    });
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let seen = "";
    // Both whole lines arrive, repaired, before the model is let go on.
    expect(res.status).toBe(200);
    while (!seen.includes('hdr = CardHeader(\\"Hi\\")\\n')) {
      const r = await reader.read();
      if (r.done) throw new Error(`the stream ended before its first lines: ${seen}`);
      seen += dec.decode(r.value, { stream: true });
    }
    expect(seen).toContain("root = Card([hdr, t])\\n");
    expect(seen).not.toContain("TextCon");
    release();
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen += dec.decode(r.value!, { stream: true });
    expect(seen).toContain('t = TextContent(\\"Hello\\")');
    expect(seen).toContain("[DONE]");
  } finally {
    providers.LOCAL_BASE_URL = saved;
    model.stop(true);
  }
});

test("a valid program streams through untouched", async () => {
  const program = 'root = Card([t])\nt = TextContent("Hello")';
  E.openai.queue.push({ text: program, pieces: pieces(program) });
  const client = new OpenAI({ baseURL: `${E.h.base}/v1/embed`, apiKey: key, maxRetries: 0 });
  const stream = await client.chat.completions.create({
    model: "openai/gpt-valid-stream",
    stream: true,
    messages: [
      { role: "system", content: BLOCK },
      { role: "user", content: "Hi" },
    ],
  });
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
  expect(text).toBe(program);
  expect(isValid(parse(text, lib))).toBe(true);
});
