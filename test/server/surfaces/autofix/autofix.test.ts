// Autofix outcomes through real HTTP: already_valid, fixed, fix_failed, wrapping round trips,
// the alias path, billing of each outcome, request logs and monitoring.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { autofixBody, BROKEN, FIXED, HOPELESS, post, startHarness, VALID, type Harness } from "../../harness.ts";

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  key = await h.org("acme", 10);
});
afterAll(() => h.close());

async function autofix(generation: string, path = "/v1/autofix") {
  const res = await post(h.base, path, key, autofixBody(generation));
  expect(res.status).toBe(200);
  return res.json();
}

test("already_valid: content is the input unchanged, nothing charged, model is service/autofix", async () => {
  const before = await h.credits("acme");
  const body = await autofix(VALID);
  expect(body.id).toMatch(/^fix_/);
  expect(body.object).toBe("chat.completion");
  expect(body.model).toBe("service/autofix");
  expect(Number.isInteger(body.created)).toBe(true);
  expect(body.choices).toHaveLength(1);
  expect(body.choices[0]).toMatchObject({ index: 0, finish_reason: "stop", message: { role: "assistant", content: VALID } });
  expect(body.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  expect(body.fix_summary).toEqual({ status: "already_valid", fixed_errors: [], unfixed_errors: [] });
  expect(await h.credits("acme")).toBe(before);
});

test("fixed: the whole corrected program, fixed_errors listed, one credit charged and ledgered", async () => {
  const before = await h.credits("acme");
  const body = await autofix(BROKEN);
  expect(body.fix_summary.status).toBe("fixed");
  expect(body.choices[0].message.content).toBe(FIXED);
  expect(body.fix_summary.fixed_errors.map((e: { code: string }) => e.code)).toContain("unknown-component");
  expect(body.fix_summary.unfixed_errors).toEqual([]);
  expect(await h.credits("acme")).toBe(before - 1);
  const ledger = await h.server.db.selectFrom("credit_ledger").selectAll().where("reason", "=", "autofix").execute();
  expect(ledger.at(-1)).toMatchObject({ delta: -1 });
  await h.server.idle(); // the log is queued, written just after the answer
  const log = await h.server.db.selectFrom("request_logs").selectAll().where("request_id", "=", ledger.at(-1)!.request_id!).executeTakeFirstOrThrow();
  expect(log).toMatchObject({ outcome: "fixed", charge: 1, status: 200, model: "service/autofix", endpoint: "/v1/autofix" });
  expect(JSON.parse(log.conversation).at(-1).content).toBe(BROKEN);
});

test("the alias /v1/autofix/chat/completions answers the same way", async () => {
  const body = await autofix(BROKEN, "/v1/autofix/chat/completions");
  expect(body.fix_summary.status).toBe("fixed");
  expect(body.choices[0].message.content).toBe(FIXED);
});

test("fix_failed without a fixing model: content null, unfixed_errors listed, charged", async () => {
  const before = await h.credits("acme");
  const body = await autofix(HOPELESS);
  expect(body.fix_summary.status).toBe("fix_failed");
  expect(body.choices[0].message.content).toBeNull();
  expect(body.fix_summary.unfixed_errors.length).toBeGreaterThan(0);
  expect(body.fix_summary.fixed_errors).toEqual([]);
  expect(await h.credits("acme")).toBe(before - 1);
});

test("fenced generation: prose and fence lines come back byte for byte", async () => {
  const wrap = (p: string) => `Here is the page:\r\n\n\`\`\`ui\n${p}\n\`\`\`\nTell me if you want changes.\n`;
  const body = await autofix(wrap(BROKEN));
  expect(body.choices[0].message.content).toBe(wrap(FIXED));
  const valid = await autofix(wrap(VALID));
  expect(valid.fix_summary.status).toBe("already_valid");
  expect(valid.choices[0].message.content).toBe(wrap(VALID));
});

test("envelope: header, context section and end marker come back byte for byte (LF and CRLF)", async () => {
  for (const nl of ["\n", "\r\n"]) {
    const wrap = (p: string) =>
      `]]>service:content?libraryVersion=0.1.0&x=1${nl}${p.split("\n").join(nl)}${nl}]]>service:context${nl}[{"signup":{"name":{"value":"Ada"}}}]${nl}]]>service:end`;
    const body = await autofix(wrap(BROKEN));
    expect(body.fix_summary.status).toBe("fixed");
    expect(body.choices[0].message.content).toBe(wrap(FIXED));
  }
});

test("content given as text parts is read; model and other chat fields are ignored", async () => {
  const res = await post(h.base, "/v1/autofix", key, {
    ...autofixBody(""),
    messages: [autofixBody("").messages[0], { role: "assistant", content: [{ type: "text", text: VALID }] }],
    model: "openai/gpt-whatever",
    temperature: 0.3,
    tools: [{ type: "function", function: { name: "f" } }],
  });
  const body = await res.json();
  expect(body.model).toBe("service/autofix");
  expect(body.fix_summary.status).toBe("already_valid");
  expect(body.choices[0].message.content).toBe(VALID);
});

test("monitoring: per model requests, outcomes and corrections by code for the caller's org only", async () => {
  const other = await h.org("other", 5);
  await post(h.base, "/v1/autofix", other, autofixBody(BROKEN));
  await h.server.idle();
  const res = await fetch(h.base + "/v1/monitoring/reliability", { headers: { authorization: `Bearer ${key}` } });
  const body = await res.json();
  const autofixRow = body.models.find((m: { model: string }) => m.model === "service/autofix");
  expect(autofixRow.requests).toBe(9);
  expect(autofixRow.outcomes).toEqual({ already_valid: 3, fixed: 5, fix_failed: 1 });
  expect(autofixRow.corrections.total).toBe(5);
  expect(autofixRow.corrections.byCode["unknown-component"]).toBeGreaterThanOrEqual(5);
});
