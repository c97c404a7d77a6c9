// Responses calls leave the same request logs as Autofix and Embed: a refused request (400, 413,
// 429), over HTTP or as a WebSocket frame, keeps a bounded excerpt of its input; a compaction keeps
// the input it summarised.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { findOrganizationByName } from "../../../../src/db/index.ts";
import { REJECTED_EXCERPT_BYTES } from "../../../../src/server/logged-conversation.ts";
import { startEmbedHarness, type EmbedHarness } from "../../embed-harness.ts";
import { post } from "../../harness.ts";

let e: EmbedHarness;
beforeAll(async () => {
  e = await startEmbedHarness();
});
afterAll(() => e.close());

async function logsOf(name: string) {
  await e.h.server.idle();
  const org = (await findOrganizationByName(e.h.server.db, name))!;
  return e.h.server.db.selectFrom("request_logs").selectAll().where("organization_id", "=", org.id).orderBy("id").execute();
}

const create = (key: string, body: unknown) => post(e.h.base, "/v1/embed/responses", key, body);

test("refused Responses requests (400, 413, 429) are logged with an excerpt of their input; nothing is charged", async () => {
  const key = await e.h.org("responses-refused", 0);
  const long = "é".repeat(150_000);
  expect((await create(key, { model: "openai/gpt-test", input: long, previous_response_id: "resp_nothing" })).status).toBe(400);
  expect((await create(key, "x".repeat(1024 * 1024 + 1))).status).toBe(413);
  e.h.server.config.responsesPrice = 1;
  try {
    expect((await create(key, { model: "openai/gpt-test", input: "hello there" })).status).toBe(429);
  } finally {
    e.h.server.config.responsesPrice = 0;
  }
  const logs = await logsOf("responses-refused");
  expect(logs.map((l) => [l.status, l.outcome, l.endpoint, l.charge])).toEqual([
    [400, "rejected", "/v1/embed/responses", 0],
    [413, "rejected", "/v1/embed/responses", 0],
    [429, "rejected", "/v1/embed/responses", 0],
  ]);
  for (const log of logs) expect(Buffer.byteLength(log.conversation, "utf8")).toBeLessThanOrEqual(REJECTED_EXCERPT_BYTES);
  expect(logs[0]!.model).toBe("openai/gpt-test");
  expect(logs[0]!.conversation).toStartWith(JSON.stringify(long).slice(0, 100));
  expect(logs[0]!.conversation).toContain("excerpt");
  expect(logs[1]!.model).toBe("unknown");
  expect(logs[2]!.conversation).toContain("hello there");
  expect(await e.h.credits("responses-refused")).toBe(0);
});

test("a refused WebSocket frame is logged as a refused request is", async () => {
  const key = await e.h.org("responses-refused-ws", 10);
  const error = await new Promise<any>((resolve, reject) => {
    const ws = new (WebSocket as any)(`${e.h.base.replace("http", "ws")}/v1/embed/responses`, { headers: { authorization: `Bearer ${key}` } }) as WebSocket;
    ws.onopen = () =>
      ws.send(JSON.stringify({ type: "response.create", model: "openai/gpt-test", input: "on the socket", previous_response_id: "resp_nothing" }));
    ws.onerror = () => reject(new Error("socket failed"));
    ws.onmessage = (m) => {
      ws.close();
      resolve(JSON.parse(String(m.data)));
    };
  });
  expect(error).toMatchObject({ type: "error", status: 400 });
  const logs = await logsOf("responses-refused-ws");
  expect(logs.map((l) => [l.status, l.outcome, l.endpoint, l.model])).toEqual([[400, "rejected", "/v1/embed/responses", "openai/gpt-test"]]);
  expect(logs[0]!.conversation).toContain("on the socket");
});

test("a compaction's log keeps the input it summarised (it logged the string null)", async () => {
  const key = await e.h.org("responses-compact", 10);
  const res = await post(e.h.base, "/v1/embed/responses/compact", key, { model: "openai/gpt-test", input: "remember the code word tangerine" });
  expect(res.status).toBe(200);
  const logs = await logsOf("responses-compact");
  expect(logs.map((l) => [l.status, l.outcome, l.endpoint])).toEqual([[200, "ok", "/v1/embed/responses/compact"]]);
  expect(logs[0]!.conversation).toContain("tangerine");
});
