// truncation "auto" through the official openai client: a conversation longer than the model's
// context window (each stand-in answers its provider's own context-length 400 past its limit)
// reaches the model without its oldest turns, the instructions and the turn being answered kept.
// Without it, the client gets OpenAI's 400 context_length_exceeded, which it does not retry.
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { startResponsesHarness, type ResponsesHarness } from "../../responses-harness.ts";

let H: ResponsesHarness;
beforeAll(async () => {
  H = await startResponsesHarness("truncation");
});
afterAll(() => H.close());

const turn = (i: number) => `Turn ${i}: ${"words of a long conversation ".repeat(12)}`;

for (const model of ["openai/gpt-stand-in", "anthropic/claude-stand-in", "google/gemini-stand-in", "meta/llama-stand-in"]) {
  test(`${model}: the oldest turns are left out until the conversation fits; disabled, a 400 the client does not retry`, async () => {
    const fake = H.fakeFor(model);
    fake.contextLimit = null;
    // Eight turns chained by previous_response_id, stored as they went.
    let previous: string | undefined;
    for (let i = 1; i <= 8; i++) {
      const r = await H.responses.responses.create({ model, input: turn(i), instructions: "Keep it short.", previous_response_id: previous });
      previous = r.id;
    }
    fake.contextLimit = 2_500; // about three turns with their answers
    const calls = fake.calls.length;
    const auto = await H.responses.responses.create({
      model,
      input: "And now?",
      instructions: "Keep it short.",
      previous_response_id: previous,
      truncation: "auto",
    });
    expect(auto.status).toBe("completed");
    expect(auto.truncation).toBe("auto");
    expect(auto.output_text).toBe("Stand-in answer to: And now?");
    // The first try was refused; the last one fit, with the instructions, the newest turns and the question.
    expect(fake.calls.length - calls).toBeGreaterThan(1);
    const sent = JSON.stringify(fake.calls.at(-1)!.body);
    expect(sent.length).toBeLessThan(2_500 + 1_000);
    expect(sent).toContain("Keep it short.");
    expect(sent).toContain("And now?");
    expect(sent).toContain("Turn 8:");
    expect(sent).not.toContain("Turn 1:");

    const refused = await H.responses.responses.create({ model, input: "And now?", previous_response_id: previous }).catch((e) => e);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused.status).toBe(400);
    expect(refused.code).toBe("context_length_exceeded");
    fake.contextLimit = null;
  });
}

test("a single turn longer than the window is refused even with truncation auto: nothing older is left to leave out", async () => {
  const fake = H.fakeFor("openai/gpt-stand-in");
  fake.contextLimit = 200;
  const err = await H.responses.responses.create({ model: "openai/gpt-stand-in", input: "x".repeat(1_000), truncation: "auto" }).catch((e) => e);
  fake.contextLimit = null;
  expect(err).toBeInstanceOf(OpenAI.BadRequestError);
  expect(err.code).toBe("context_length_exceeded");
});
