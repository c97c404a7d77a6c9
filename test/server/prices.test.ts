// Every price is a credit amount like any other: a whole number within 10^15, read once at start.
// Anything else stops the start, naming the variable (1e20 used to be a price; a bad
// TESSERA_EMBED_PRICE was found only per request, and TESSERA_RESPONSES_PRICE was not bounded).
import { expect, test } from "bun:test";
import { configFromEnv } from "../../src/server/config.ts";
import { embedSuite } from "./embed-harness.ts";
import { post } from "./harness.ts";

const S = embedSuite("priced", 100);

const chat = () => post(S.E.h.base, "/v1/embed/chat/completions", S.key, { model: "openai/gpt-test", messages: [{ role: "user", content: "x" }] });

test("a price that is not a whole number of credits within 10^15 is refused at start, naming the variable", () => {
  for (const name of ["TESSERA_AUTOFIX_PRICE", "TESSERA_EMBED_PRICE", "TESSERA_RESPONSES_PRICE"]) {
    for (const price of ["1e20", "99999999999999999999", "1.5", "-1", "1000000000000001", "ten"]) {
      expect(() => configFromEnv({ [name]: price })).toThrow(name);
    }
    expect(configFromEnv({ [name]: "1000000000000000" })).toBeTruthy();
  }
});

test("a valid price is charged as before", async () => {
  S.E.h.server.config.embedPrice = 3;
  expect((await chat()).status).toBe(200);
  expect(await S.E.h.credits("priced")).toBe(97);
});
