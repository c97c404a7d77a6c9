// Autofix's limits count characters as people do (Unicode code points), not UTF-16 units.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { autofixBody, post, startHarness, VALID, type Harness } from "./harness.ts";

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  key = await h.org("limits", 10);
});
afterAll(() => h.close());

const EMOJI = "\u{1F600}"; // one code point, two UTF-16 units

test("100,000 code points of emoji (200,000 UTF-16 units) are within the generation limit; 100,001 are not, and the message says how it counts", async () => {
  const comment = "#" + EMOJI.repeat(100_000 - VALID.length - 2); // a comment line pads it
  const exactly = VALID + "\n" + comment;
  expect([...exactly].length).toBe(100_000);
  expect(exactly.length).toBeGreaterThan(199_000);
  const ok = await post(h.base, "/v1/autofix", key, autofixBody(exactly));
  expect(ok.status).toBe(200);

  const res = await post(h.base, "/v1/autofix", key, autofixBody(exactly + EMOJI));
  expect(res.status).toBe(400);
  const { error } = await res.json();
  expect(error.message).toBe("the generation is 100001 characters (Unicode code points); the limit is 100000");
  expect(error.param).toBe("messages[1]");
});

test("the context limit counts code points too", async () => {
  const turn = (n: number) => [{ role: "user", content: EMOJI.repeat(n) }];
  expect((await post(h.base, "/v1/autofix", key, autofixBody(VALID, {}, turn(8_000)))).status).toBe(200);
  const res = await post(h.base, "/v1/autofix", key, autofixBody(VALID, {}, turn(8_001)));
  expect(res.status).toBe(400);
  expect((await res.json()).error.message).toBe("the context has 8001 characters (Unicode code points) of text; the limit is 8000");
});
