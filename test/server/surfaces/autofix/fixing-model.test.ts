// Autofix attempt 2 against a stand-in OpenAI-compatible fixing model on loopback, and against a
// closed port: unreachable or failing model is 500 internal_server_error and nothing is charged.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { autofixBody, HOPELESS, post, startHarness, VALID, type Harness } from "../../harness.ts";

const MODEL_KEY = "sk-standin-secret-123";

/** What the stand-in answers next: a program (returned as content) or an HTTP status. */
let next: { content: string } | { status: number } = { content: VALID };
const seen: { auth: string | null; body: any }[] = [];

const standIn = Bun.serve({
  port: 0,
  async fetch(req) {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") return new Response("not found", { status: 404 });
    const body = await req.json();
    seen.push({ auth: req.headers.get("authorization"), body });
    if ("status" in next) return Response.json({ error: { message: "boom", type: "server_error" } }, { status: next.status });
    return Response.json({
      id: "chatcmpl-standin",
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", content: next.content, refusal: null } }],
      usage: { prompt_tokens: 321, completion_tokens: 45, total_tokens: 366 },
    });
  },
});

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness({
    fixingModel: { provider: "openai", model: "fixer-1", baseUrl: `http://127.0.0.1:${standIn.port}/v1`, apiKey: MODEL_KEY },
  });
  key = await h.org("acme", 10);
});
afterAll(async () => {
  await h.close();
  standIn.stop(true);
});

test("what the sanitizer cannot fix goes to the model; its answer is checked and rewrapped", async () => {
  next = { content: "```ui\n" + VALID + "\n```" }; // models fence despite being told not to
  const context = [
    { role: "user", content: "Show a greeting" },
    { role: "tool", tool_call_id: "x", content: "tool output" },
  ];
  const generation = `Sure:\n\`\`\`\n${HOPELESS}\n\`\`\`\nDone.`;
  const res = await post(h.base, "/v1/autofix", key, autofixBody(generation, {}, context));
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.fix_summary.status).toBe("fixed");
  expect(body.choices[0].message.content).toBe(`Sure:\n\`\`\`\n${VALID}\n\`\`\`\nDone.`);
  expect(body.usage).toEqual({ prompt_tokens: 321, completion_tokens: 45, total_tokens: 366 });
  expect(body.fix_summary.fixed_errors.length).toBeGreaterThan(0);
  expect(await h.credits("acme")).toBe(9);

  const call = seen.at(-1)!;
  expect(call.auth).toBe(`Bearer ${MODEL_KEY}`);
  expect(call.body.model).toBe("fixer-1");
  const prompt = call.body.messages.map((m: { content: string }) => m.content).join("\n");
  expect(prompt).toContain('Text(text: string, size?: "small" | "large")');
  expect(prompt).toContain(HOPELESS);
  expect(prompt).toContain("Show a greeting");
  expect(prompt).not.toContain("tool output");
});

test("a model answer that is still invalid is fix_failed, charged", async () => {
  next = { content: "I cannot help with that." };
  const body = await (await post(h.base, "/v1/autofix", key, autofixBody(HOPELESS))).json();
  expect(body.fix_summary.status).toBe("fix_failed");
  expect(body.choices[0].message.content).toBeNull();
  expect(body.fix_summary.unfixed_errors.length).toBeGreaterThan(0);
  expect(body.usage.total_tokens).toBe(366);
  expect(await h.credits("acme")).toBe(8);
});

test("the model failing (HTTP 500) is 500 internal_server_error, nothing charged", async () => {
  next = { status: 500 };
  const res = await post(h.base, "/v1/autofix", key, autofixBody(HOPELESS));
  expect(res.status).toBe(500);
  expect((await res.json()).error.type).toBe("internal_server_error");
  expect(await h.credits("acme")).toBe(8);
});

test("already valid never calls the model", async () => {
  const calls = seen.length;
  expect((await post(h.base, "/v1/autofix", key, autofixBody(VALID))).status).toBe(200);
  expect(seen.length).toBe(calls);
});

test("the model's key never reaches the logs", async () => {
  const logged = h.lines.join("\n");
  await h.server.idle();
  const rows = await h.server.db.selectFrom("request_logs").selectAll().execute();
  expect(logged).not.toContain(MODEL_KEY);
  expect(JSON.stringify(rows)).not.toContain(MODEL_KEY);
  expect(JSON.stringify(rows)).not.toContain(key);
});

test("fixing model on a closed port: 500 internal_server_error, nothing charged, logged as error", async () => {
  const closed = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = closed.port;
  closed.stop(true);
  const down = await startHarness({ fixingModel: { provider: "openai", model: "fixer-1", baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: MODEL_KEY } });
  try {
    const k = await down.org("down", 3);
    const res = await post(down.base, "/v1/autofix", k, autofixBody(HOPELESS));
    expect(res.status).toBe(500);
    expect((await res.json()).error).toMatchObject({ type: "internal_server_error" });
    expect(await down.credits("down")).toBe(3);
    const ledger = await down.server.db.selectFrom("credit_ledger").selectAll().where("reason", "=", "autofix").execute();
    expect(ledger).toHaveLength(0);
    await down.server.idle(); // the log is queued, written just after the answer
    const log = await down.server.db.selectFrom("request_logs").selectAll().executeTakeFirstOrThrow();
    expect(log).toMatchObject({ status: 500, charge: 0, outcome: "error" });
  } finally {
    await down.close();
  }
});

test("the fixing model can be any provider: an Anthropic stand-in speaking the Messages API", async () => {
  const { startFakeAnthropic } = await import("../../../support/fake-providers.ts");
  const anthropic = startFakeAnthropic();
  anthropic.requireKey = "sk-ant-fixer";
  anthropic.fallback = { text: VALID, usage: { input: 50, output: 9 } };
  const viaAnthropic = await startHarness({
    fixingModel: { provider: "anthropic", model: "claude-fixer", baseUrl: anthropic.url, apiKey: "sk-ant-fixer" },
  });
  try {
    const k = await viaAnthropic.org("globex", 3);
    const res = await post(viaAnthropic.base, "/v1/autofix", k, autofixBody(HOPELESS));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.fix_summary.status).toBe("fixed");
    expect(body.choices[0].message.content).toBe(VALID);
    expect(body.usage).toEqual({ prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 });
    const call = anthropic.calls.at(-1)!;
    expect(call.body.model).toBe("claude-fixer");
    expect(typeof call.body.system).toBe("string"); // the fix prompt's system turn went top-level
  } finally {
    await viaAnthropic.close();
    anthropic.stop();
  }
});
