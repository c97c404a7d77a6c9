// Autofix through the official openai npm client, configured only by baseURL and apiKey.
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { autofixBody, BROKEN, FIXED, startHarness, VALID, type Harness } from "./harness.ts";

let h: Harness;
let client: OpenAI;
beforeAll(async () => {
  h = await startHarness();
  client = new OpenAI({ baseURL: h.base + "/v1/autofix", apiKey: await h.org("sdk", 5) });
});
afterAll(() => h.close());

type WithSummary = OpenAI.ChatCompletion & { fix_summary: { status: string; fixed_errors: unknown[]; unfixed_errors: unknown[] } };

test("chat.completions.create repairs a broken generation", async () => {
  const completion = (await client.chat.completions.create(autofixBody(BROKEN) as never)) as WithSummary;
  expect(completion.id).toMatch(/^fix_/);
  expect(completion.model).toBe("service/autofix");
  expect(completion.choices[0].message.content).toBe(FIXED);
  expect(completion.fix_summary.status).toBe("fixed");
});

test("an already valid generation comes back unchanged", async () => {
  const completion = (await client.chat.completions.create(autofixBody(VALID) as never)) as WithSummary;
  expect(completion.fix_summary.status).toBe("already_valid");
  expect(completion.choices[0].message.content).toBe(VALID);
});

test("errors arrive as the SDK's typed errors", async () => {
  const err = await client.chat.completions.create({ ...autofixBody(VALID), stream: true } as never).catch((e) => e);
  expect(err).toBeInstanceOf(OpenAI.BadRequestError);
  expect(err.error?.type ?? err.type).toBe("invalid_request_error");
  const unauth = new OpenAI({ baseURL: h.base + "/v1/autofix", apiKey: "tsk_nope", maxRetries: 0 });
  expect(await unauth.chat.completions.create(autofixBody(VALID) as never).catch((e) => e)).toBeInstanceOf(OpenAI.AuthenticationError);
});
