// Inputs and access a client library sends that the plain text tests do not: images and PDFs on
// every provider, `include[]` in queries (qs bracket arrays), item_reference, and the browser's
// way in: the openai client with a frontend token on the Conversations routes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { PROVIDER_MODELS, startResponsesHarness, until, type ResponsesHarness } from "../../responses-harness.ts";

let H: ResponsesHarness;
let client: OpenAI;
let conv: OpenAI;
beforeAll(async () => {
  H = await startResponsesHarness("inputs");
  client = H.responses;
  conv = H.conversations;
});
afterAll(() => H.close());

const MODEL = "openai/gpt-stand-in";
// A 1×1 PNG and a minimal PDF, base64.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
).toString("base64");
const providerName = (model: string) => model.split("/")[0]!;

describe("images and files on every provider", () => {
  for (const model of PROVIDER_MODELS) {
    test(`${model}: a data-URL image reaches the provider in its own wire format`, async () => {
      const fake = H.fakeFor(model);
      const r = await client.responses.create({
        model,
        input: [
          {
            role: "user",
            content: [
              { type: "input_text", text: "What is in this image?" },
              { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
            ],
          },
        ],
      });
      expect(r.status).toBe("completed");
      expect(r.output_text).toBe("Stand-in answer to: What is in this image?");
      // The base64 bytes arrived, whatever the wire calls the part.
      expect(JSON.stringify(fake.calls.at(-1)!.body)).toContain(PNG);
    });

    test(`${model}: a base64 PDF is taken, or refused with a 400 that names the provider (also when streamed)`, async () => {
      const fake = H.fakeFor(model);
      const before = fake.calls.length;
      const input = [
        {
          role: "user" as const,
          content: [
            { type: "input_text" as const, text: "Summarize this file" },
            { type: "input_file" as const, filename: "doc.pdf", file_data: `data:application/pdf;base64,${PDF}` },
          ],
        },
      ];
      const r = await client.responses.create({ model, input }).catch((e) => e);
      if (r instanceof OpenAI.APIError) {
        expect(r).toBeInstanceOf(OpenAI.BadRequestError);
        expect(r.message.toLowerCase()).toContain(providerName(model));
        expect(fake.calls.length).toBe(before);
        // Streamed: the same 400 before any event, not a stream that fails.
        const streamed = await (async () => {
          const s = client.responses.stream({ model, input });
          for await (const _ of s) {
            /* drain */
          }
          return s.finalResponse();
        })().catch((e) => e);
        expect(streamed).toBeInstanceOf(OpenAI.BadRequestError);
        // Background: refused at once too, not queued to fail later.
        expect(await client.responses.create({ model, input, background: true }).catch((e) => e)).toBeInstanceOf(OpenAI.BadRequestError);
      } else {
        expect(r.status).toBe("completed");
        expect(JSON.stringify(fake.calls.at(-1)!.body)).toContain(PDF);
      }
    });
  }

  test("what a provider cannot take is the same 400 in the foreground, streamed, and in the background (not queued to fail later)", async () => {
    // Gemini takes images only as data: URLs.
    const input = [{ role: "user" as const, content: [{ type: "input_image" as const, detail: "auto" as const, image_url: "https://example.com/cat.png" }] }];
    const model = "google/gemini-stand-in";
    const whole = await client.responses.create({ model, input }).catch((e) => e);
    expect(whole).toBeInstanceOf(OpenAI.BadRequestError);
    expect(whole.message).toContain("google");
    const streamed = await (async () => {
      const s = client.responses.stream({ model, input });
      for await (const _ of s) {
        /* drain */
      }
      return s.finalResponse();
    })().catch((e) => e);
    expect(streamed).toBeInstanceOf(OpenAI.BadRequestError);
    const background = await client.responses.create({ model, input, background: true }).catch((e) => e);
    expect(
      background instanceof OpenAI.BadRequestError
        ? "400"
        : `${background.status}, ends ${JSON.stringify(
            (
              await until(
                () => client.responses.retrieve(background.id),
                (x) => x.status !== "queued" && x.status !== "in_progress",
              )
            ).error,
          )}`,
    ).toBe("400");
  });

  test("an http image URL reaches OpenAI as a URL", async () => {
    await client.responses.create({
      model: MODEL,
      input: [
        {
          role: "user",
          content: [
            { type: "input_image", image_url: "https://example.com/cat.png", detail: "low" },
            { type: "input_text", text: "Cat?" },
          ],
        },
      ],
    });
    expect(JSON.stringify(H.E.openai.calls.at(-1)!.body)).toContain("https://example.com/cat.png");
  });
});

describe("what the client puts in queries and bodies", () => {
  test("include[] in the query of retrieve, inputItems.list and the conversation item calls is accepted", async () => {
    const r = await client.responses.create({ model: MODEL, input: "With include", include: ["message.output_text.logprobs"] });
    expect(r.status).toBe("completed");
    expect((await client.responses.retrieve(r.id, { include: ["message.output_text.logprobs", "reasoning.encrypted_content"] })).id).toBe(r.id);
    expect((await client.responses.inputItems.list(r.id, { include: ["message.input_image.image_url"] })).data).toHaveLength(1);
    const c = await conv.conversations.create({ items: [{ type: "message", role: "user", content: "hello" }] });
    const page = await conv.conversations.items.list(c.id, { include: ["message.input_image.image_url"] });
    expect(page.data).toHaveLength(1);
    const added = await conv.conversations.items.create(c.id, {
      items: [{ type: "message", role: "user", content: "more" }],
      include: ["message.input_image.image_url"],
    });
    expect(added.data).toHaveLength(1);
    expect((await conv.conversations.items.retrieve(page.data[0]!.id!, { conversation_id: c.id, include: ["message.input_image.image_url"] })).id).toBe(
      page.data[0]!.id,
    );
  });

  test("item_reference: an earlier response's output item used by id", async () => {
    const first = await client.responses.create({ model: MODEL, input: "Remember the number four." });
    const msg = first.output[0]!;
    const second = await client.responses.create({
      model: MODEL,
      input: [
        { type: "item_reference", id: msg.id! },
        { role: "user", content: "Which number?" },
      ],
    });
    expect(second.output_text).toBe("Stand-in answer to: Which number?");
    const sent = H.E.openai.calls.at(-1)!.body.messages;
    expect(sent.map((m: any) => m.role)).toEqual(["assistant", "user"]);
    expect(JSON.stringify(sent[0].content)).toContain("Stand-in answer to: Remember the number four.");
    const missing = await client.responses.create({ model: MODEL, input: [{ type: "item_reference", id: "msg_does_not_exist" }] }).catch((e) => e);
    expect(missing).toBeInstanceOf(OpenAI.APIError);
    expect([400, 404]).toContain(missing.status);
  });

  test("a developer/system input item, instructions and tool_choice naming a function", async () => {
    const r = await client.responses.create({
      model: MODEL,
      instructions: "Use tools.",
      input: [
        { role: "system", content: "Be terse." },
        { role: "user", content: "Weather in SF?" },
      ],
      tools: [
        { type: "function", name: "get_time", parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] }, strict: false },
        {
          type: "function",
          name: "get_weather",
          parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
          strict: false,
        },
      ],
      tool_choice: { type: "function", name: "get_weather" },
    });
    const calls = r.output.filter((i) => i.type === "function_call") as OpenAI.Responses.ResponseFunctionToolCall[];
    expect(calls.map((c) => c.name)).toEqual(["get_weather"]);
    expect(r.tool_choice).toEqual({ type: "function", name: "get_weather" });
  });
});

describe("the browser's way in: a frontend token with the openai client", () => {
  async function mint(body: Record<string, unknown>): Promise<string> {
    const res = await fetch(`${H.base}/v1/frontend-tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${H.key}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const out = (await res.json()) as { token: string; expires_at: number };
    expect(out.expires_at).toBeGreaterThan(Date.now() / 1000);
    return out.token;
  }
  const browser = (token: string, path = "/v1") => new OpenAI({ baseURL: `${H.base}${path}`, apiKey: token, maxRetries: 0, dangerouslyAllowBrowser: true });

  test("a user's token reaches that user's conversations only; read-only tokens cannot write; other routes are 403", async () => {
    const alice = browser(await mint({ user: "alice" }));
    const bob = browser(await mint({ user: "bob" }));
    const aliceReadOnly = browser(await mint({ user: "alice", scopes: ["conversations:read"], ttl_seconds: 60 }));

    const mine = await alice.conversations.create({ metadata: { title: "Alice's" }, items: [{ type: "message", role: "user", content: "hi from alice" }] });
    const byServer = await conv.conversations.create({ user: "alice", metadata: { title: "made by the server" } } as never);
    const bobs = await bob.conversations.create({ metadata: { title: "Bob's" } });

    expect((await alice.conversations.retrieve(mine.id)).metadata).toEqual({ title: "Alice's" });
    expect((await alice.conversations.retrieve(byServer.id)).id).toBe(byServer.id);
    expect(await alice.conversations.retrieve(bobs.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await bob.conversations.items.list(mine.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await bob.conversations.delete(mine.id).catch((e) => e)).toBeInstanceOf(OpenAI.NotFoundError);

    const listed = (await fetch(`${H.base}/v1/conversations?limit=100`, { headers: { authorization: `Bearer ${(alice as any).apiKey}` } }).then((r) =>
      r.json(),
    )) as { data: { id: string }[] };
    expect(listed.data.map((c) => c.id).sort()).toEqual([mine.id, byServer.id].sort());

    await alice.conversations.items.create(mine.id, { items: [{ type: "message", role: "user", content: "second" }] });
    const items = await aliceReadOnly.conversations.items.list(mine.id, { order: "asc" });
    expect(items.data.map((i: any) => i.content[0].text)).toEqual(["hi from alice", "second"]);
    expect(
      await aliceReadOnly.conversations.items.create(mine.id, { items: [{ type: "message", role: "user", content: "x" }] }).catch((e) => e),
    ).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(await aliceReadOnly.conversations.create().catch((e) => e)).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(await aliceReadOnly.conversations.delete(mine.id).catch((e) => e)).toBeInstanceOf(OpenAI.PermissionDeniedError);

    const token = (alice as any).apiKey as string;
    expect(
      await browser(token, "/v1/embed")
        .responses.create({ model: MODEL, input: "x" })
        .catch((e) => e),
    ).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(
      await browser(token, "/v1/embed")
        .chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "x" }] })
        .catch((e) => e),
    ).toBeInstanceOf(OpenAI.PermissionDeniedError);
    const minted = await fetch(`${H.base}/v1/frontend-tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ user: "mallory" }),
    });
    expect(minted.status).toBe(403);

    const altered = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    expect(
      await browser(altered)
        .conversations.retrieve(mine.id)
        .catch((e) => e),
    ).toBeInstanceOf(OpenAI.AuthenticationError);
    // Refused, each still reaches its own.
    expect((await bob.conversations.retrieve(bobs.id)).id).toBe(bobs.id);
    expect((await alice.conversations.retrieve(mine.id)).id).toBe(mine.id);
  });
});
