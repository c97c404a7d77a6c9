// Small inputs that used to be taken: each is now a 400 in the documented error body that names
// the field, and nothing of it is stored. Also: Bun's advice to its own users ("pass `verbose:
// true`") never reaches a client in a provider error.
import { expect, test } from "bun:test";
import { deadUrl } from "../support/fake-providers.ts";
import { embedSuite } from "./embed-harness.ts";

const S = embedSuite("refusals", 100);

async function call(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  const res = await fetch(S.E.h.base + path, {
    method: "POST",
    headers: { authorization: `Bearer ${S.key}`, "content-type": "application/json", ...headers },
    body,
  });
  return { status: res.status, body: await res.json() };
}

const conversations = async () =>
  (await (await fetch(`${S.E.h.base}/v1/conversations?limit=100`, { headers: { authorization: `Bearer ${S.key}` } })).json()).data.length;

test.each([
  ["metadata as an array (conversation)", "/v1/conversations", { metadata: ["a"] }, "metadata", /metadata must be an object/],
  [
    "metadata as an empty array (response)",
    "/v1/embed/responses",
    { model: "openai/gpt-4o", input: "hi", metadata: [] },
    "metadata",
    /metadata must be an object/,
  ],
  ["user with a NUL (frontend token)", "/v1/frontend-tokens", { user: "a\u0000b" }, "user", /control characters/],
  ["user with a line break (conversation)", "/v1/conversations", { user: "a\nb" }, "user", /control characters/],
  ["user with a control character (response)", "/v1/embed/responses", { model: "openai/gpt-4o", input: "hi", user: "a\u0007" }, "user", /control characters/],
  ["a 100,000-character provider", "/encryption/encrypt", { provider: "a".repeat(100_000), apiKey: "sk-x" }, "provider", /at most 64/],
])("%s: 400 naming the field", async (_name, path, body, param, message) => {
  const before = await conversations();
  const r = await call(path, JSON.stringify(body));
  expect(r.status).toBe(400);
  expect(r.body.error).toMatchObject({ type: "invalid_request_error", param });
  expect(r.body.error.message).toMatch(message);
  expect(await conversations()).toBe(before);
});

test("a bare [] body creates nothing: 400, the body must be an object", async () => {
  const before = await conversations();
  const r = await call("/v1/conversations", "[]");
  expect(r.status).toBe(400);
  expect(r.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_body" });
  expect(await conversations()).toBe(before);
});

test("invalid UTF-8 is refused on every route with a body, not stored as U+FFFD", async () => {
  const bad = new Uint8Array([...new TextEncoder().encode('{"metadata":{"k":"'), 0xff, 0xfe, ...new TextEncoder().encode('"}}')]);
  const before = await conversations();
  for (const path of ["/v1/conversations", "/v1/embed/responses", "/v1/embed/chat/completions", "/v1/autofix", "/encryption/encrypt", "/v1/frontend-tokens"]) {
    const r = await call(path, bad);
    expect([path, r.status, r.body.error.code]).toEqual([path, 400, "invalid_utf8"]);
  }
  expect(await conversations()).toBe(before);
});

test("a provider that cannot be reached: a 502 without Bun's advice to its own users", async () => {
  const { providers } = S.E.h.server.config;
  const saved = providers.OPENAI_BASE_URL;
  providers.OPENAI_BASE_URL = `${deadUrl()}/v1`;
  try {
    const r = await call("/v1/embed/chat/completions", JSON.stringify({ model: "openai/gpt-4o", messages: [{ role: "user", content: "hi" }] }));
    expect(r.status).toBe(502);
    expect(r.body.error.message).toContain("could not be reached");
    expect(r.body.error.message).not.toContain("verbose");
  } finally {
    providers.OPENAI_BASE_URL = saved;
  }
});
