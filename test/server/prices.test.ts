// TESSERA_EMBED_PRICE is a credit amount like any other: a whole number within 10^15. Anything
// else is the operator's error, said as such, and no credit moves (1e20 used to be a price).
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { startEmbedHarness, type EmbedHarness } from "./embed-harness.ts";
import { post } from "./harness.ts";

let E: EmbedHarness;
let key: string;
beforeAll(async () => {
  E = await startEmbedHarness();
  key = await E.h.org("priced", 100);
});
afterAll(async () => {
  process.env.TESSERA_EMBED_PRICE = "0";
  await E.close();
});
beforeEach(() => E.reset());

const chat = () => post(E.h.base, "/v1/embed/chat/completions", key, { model: "openai/gpt-test", messages: [{ role: "user", content: "x" }] });

test("a price that is not a whole number of credits within 10^15 is a 500 naming the variable; nothing is charged or sent", async () => {
  for (const price of ["1e20", "99999999999999999999", "1.5", "-1", "1000000000000001", "ten"]) {
    process.env.TESSERA_EMBED_PRICE = price;
    const res = await chat();
    expect([price, res.status]).toEqual([price, 500]);
    const { error } = await res.json();
    expect(error.code).toBe("server_misconfigured");
    expect(error.message).toContain("TESSERA_EMBED_PRICE");
  }
  expect(E.openai.calls).toHaveLength(0);
  expect(await E.h.credits("priced")).toBe(100);
});

test("a valid price is charged as before", async () => {
  process.env.TESSERA_EMBED_PRICE = "3";
  expect((await chat()).status).toBe(200);
  expect(await E.h.credits("priced")).toBe(97);
});
