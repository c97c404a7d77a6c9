// Nesting is bounded before JSON.parse (body.ts, config-block.ts): a deep body is a quick 400,
// not a blocked event loop and a 500 (or a 502 from a stack overflow on the way to a provider).
import { expect, test } from "bun:test";
import { MAX_JSON_DEPTH } from "../../src/client/json-depth.ts";
import { embedSuite } from "./embed-harness.ts";
import { CONFIG, post, SMALL_LIBRARY } from "./harness.ts";

const S = embedSuite("deep", 100);

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const TOO_DEEP = `request body nests arrays and objects more than ${MAX_JSON_DEPTH} deep`;

async function expectTooDeep(res: Response, message = TOO_DEEP) {
  expect(res.status).toBe(400);
  expect((await res.json()).error).toMatchObject({ type: "invalid_request_error", message });
}

test("400,000 nested brackets: 400 at once on every route with a body, four at a time, /health answering meanwhile", async () => {
  // Inside a message, where it used to cost most: four at once were 500s after 2 s, /health waited 1.1 s.
  const body = `{"messages":[{"role":"system","content":${JSON.stringify(CONFIG)}},{"role":"assistant","content":"x","extra":${deep(400_000)}}]}`;
  const started = performance.now();
  const deepOnes = Promise.all([
    post(S.E.h.base, "/v1/autofix", S.key, body),
    post(S.E.h.base, "/v1/embed/chat/completions", S.key, body),
    post(S.E.h.base, "/encryption/encrypt", S.key, body),
    post(S.E.h.base, "/v1/autofix", S.key, deep(400_000)),
  ]);
  const health = await fetch(`${S.E.h.base}/health`);
  const healthMs = performance.now() - started;
  expect(health.status).toBe(200);
  for (const res of await deepOnes) await expectTooDeep(res);
  const allMs = performance.now() - started;
  // Loose bounds, not a benchmark: before the bound the four took seconds and /health waited.
  expect(healthMs).toBeLessThan(1000);
  expect(allMs).toBeLessThan(1000);
});

test("inside Embed tools[].function.parameters: too deep is a 400; deep but within the bound reaches the provider", async () => {
  const nested = (n: number): unknown => (n === 0 ? { type: "string" } : { type: "array", items: nested(n - 1) });
  const tool = (n: number) => ({ type: "function", function: { name: "f", parameters: { type: "object", properties: { x: nested(n) } } } });
  const body = (n: number) => ({ model: "openai/gpt-test", messages: [{ role: "user", content: "hi" }], tools: [tool(n)] });
  // 400,000 brackets; JSON.stringify would overflow on the way, so the text is written by hand.
  const text = JSON.stringify(body(0)).replace('{"type":"string"}', deep(400_000));
  await expectTooDeep(await post(S.E.h.base, "/v1/embed/chat/completions", S.key, text));
  await expectTooDeep(await post(S.E.h.base, "/v1/embed/chat/completions", S.key, body(MAX_JSON_DEPTH)));
  const ok = await post(S.E.h.base, "/v1/embed/chat/completions", S.key, body(50));
  expect(ok.status).toBe(200);
  expect(JSON.stringify(S.E.openai.calls.at(-1)!.body).split('"items"').length - 1).toBe(50);
});

test("a library nested 20,000 deep in the config block: 400 for Autofix and Embed managed mode", async () => {
  // JSON.stringify itself recurses; the line is written by hand, as a client in any language could.
  const line = JSON.stringify({ chatLibrary: { ...SMALL_LIBRARY, schema: { $defs: { ...SMALL_LIBRARY.schema.$defs, Deep: "@" } } } }).replace(
    '"@"',
    `{"properties":{"x":${'{"type":"array","items":'.repeat(20_000)}{"type":"string"}${"}".repeat(20_000)}}}`,
  );
  const block = `]]>service:config\n${line}`;
  const message = `malformed config block: the config JSON nests arrays and objects more than ${MAX_JSON_DEPTH} deep`;
  const fix = await post(S.E.h.base, "/v1/autofix", S.key, {
    messages: [
      { role: "system", content: block },
      { role: "assistant", content: "root = Stack([])" },
    ],
  });
  await expectTooDeep(fix, message);
  const embed = await post(S.E.h.base, "/v1/embed/chat/completions", S.key, {
    model: "openai/gpt-test",
    messages: [
      { role: "system", content: block },
      { role: "user", content: "hi" },
    ],
  });
  await expectTooDeep(embed, message);
});

test("tool-call arguments (a JSON string) nested 400,000 deep: 400 before they are re-encoded for Anthropic", async () => {
  const messages = [
    { role: "user", content: "weather?" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: `{"a":${deep(400_000)}}` } }] },
    { role: "tool", tool_call_id: "c1", content: "sunny" },
  ];
  const res = await post(S.E.h.base, "/v1/embed/chat/completions", S.key, { model: "anthropic/claude-test", messages });
  await expectTooDeep(res, `arguments of tool call "f" nest arrays and objects more than ${MAX_JSON_DEPTH} deep`);
});
