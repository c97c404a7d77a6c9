// Every 400 rule of Autofix (spec 4.1, 8), invalid JSON, 413, and that none of them is charged.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeConfigBlock } from "../../../../src/client/config-block.ts";
import { autofixBody, BROKEN, CONFIG, post, SMALL_LIBRARY, startHarness, VALID, type Harness } from "../../harness.ts";

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  key = await h.org("rules", 100);
});
afterAll(() => h.close());

async function expect400(body: unknown, messagePart: RegExp, param?: string) {
  const res = await post(h.base, "/v1/autofix", key, body);
  const json = await res.json();
  expect(res.status).toBe(400);
  expect(json.error.type).toBe("invalid_request_error");
  expect(json.error.message).toMatch(messagePart);
  if (param !== undefined) expect(json.error.param).toBe(param);
  return json;
}

const sys = (content: unknown) => ({ role: "system", content });
const user = (content: unknown) => ({ role: "user", content });
const asst = (content: unknown) => ({ role: "assistant", content });

test("stream: true is 400 naming the stream param", async () => {
  await expect400(autofixBody(BROKEN, { stream: true }), /stream/, "stream");
});

test("invalid JSON is 400", async () => {
  const res = await post(h.base, "/v1/autofix", key, "{not json");
  expect(res.status).toBe(400);
  expect((await res.json()).error.type).toBe("invalid_request_error");
});

test("body over 1 MB is 413", async () => {
  const res = await post(h.base, "/v1/autofix", key, { messages: [], pad: "x".repeat(1024 * 1024) });
  expect(res.status).toBe(413);
  expect((await res.json()).error.type).toBe("invalid_request_error");
});

test("a much larger body, declared or streamed, is still the wire-format 413", async () => {
  const big = "x".repeat(20 * 1024 * 1024);
  const declared = await post(h.base, "/v1/autofix", key, big);
  expect(declared.status).toBe(413);
  expect((await declared.json()).error.type).toBe("invalid_request_error");
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  let sent = 0;
  const stream = new ReadableStream({
    pull(c) {
      if (sent++ < 40) c.enqueue(chunk);
      else c.close();
    },
  });
  const streamed = await fetch(h.base + "/v1/autofix", {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: stream,
    duplex: "half",
  } as RequestInit);
  expect(streamed.status).toBe(413);
});

test("body that is not the request shape is 400", async () => {
  await expect400({}, /messages/);
  await expect400({ messages: "hi" }, /messages/);
  await expect400({ messages: [{ role: "wizard", content: "x" }] }, /role/);
  await expect400([1, 2], /./);
});

test("first message must be a system turn with the config block", async () => {
  await expect400({ messages: [user(CONFIG), asst(VALID)] }, /first message/, "messages[0]");
  await expect400({ messages: [sys("You are helpful."), asst(VALID)] }, /first message/);
  await expect400({ messages: [asst(VALID)] }, /messages/);
});

test("malformed config blocks are 400", async () => {
  const bad = [
    "]]>service:config",
    "]]>service:config\n{not json",
    "]]>service:config\n[1,2]",
    ']]>service:config\n{"somethingElse":1}',
    ']]>service:config\n{"chatLibrary":{"schema":{"$defs":{}}}}',
    ']]>service:config\n{"chatLibrary":{"root":"Nope","schema":{"$defs":{"Stack":{"type":"object","properties":{}}}}}}',
    writeConfigBlock({ chatLibrary: SMALL_LIBRARY, systemPromptOptions: { temperature: 2 } }),
  ];
  for (const block of bad) await expect400({ messages: [sys(block), asst(VALID)] }, /config block/, undefined);
});

test("libraryVersion names the built-in library; an unknown version is a 400 that says so", async () => {
  const builtin = (v: string) => sys(`]]>service:config\n{"libraryVersion":"${v}"}`);
  const ok = await post(h.base, "/v1/autofix", key, { messages: [builtin("0.1.0"), asst(`root = Card([t])\nt = TextContent("Hi")`)] });
  expect(ok.status).toBe(200);
  expect((await ok.json()).fix_summary.status).toBe("already_valid");
  await expect400({ messages: [builtin("9.9.9"), asst(VALID)] }, /no built-in library of libraryVersion "9.9.9"/);
});

test("last message must be an assistant turn with text", async () => {
  await expect400({ messages: [sys(CONFIG), user(VALID)] }, /last message/, "messages[1]");
  await expect400({ messages: [sys(CONFIG), asst("")] }, /last message/);
  await expect400({ messages: [sys(CONFIG), asst("   \n")] }, /last message/);
  await expect400({ messages: [sys(CONFIG), { role: "assistant", content: null, tool_calls: [] }] }, /last message/);
  await expect400({ messages: [sys(CONFIG), asst([{ type: "image_url", image_url: { url: "x" } }])] }, /last message/);
});

test("generation over 100,000 characters is 400; exactly 100,000 is accepted", async () => {
  await expect400(autofixBody("x".repeat(100_001)), /100000/);
  const padded = VALID + "\n" + "#".repeat(100_000 - VALID.length - 1); // a comment line pads it
  const res = await post(h.base, "/v1/autofix", key, autofixBody(padded));
  expect(res.status).not.toBe(400);
});

test("context over 20 usable turns is 400; history is never dropped", async () => {
  const turns = Array.from({ length: 21 }, (_, i) => (i % 2 ? asst(`a${i}`) : user(`u${i}`)));
  await expect400(autofixBody(VALID, {}, turns), /21 usable turns/);
  const ok = await post(h.base, "/v1/autofix", key, autofixBody(VALID, {}, turns.slice(1)));
  expect(ok.status).toBe(200);
});

test("tool turns, non-text parts and config blocks do not count toward the limits", async () => {
  const turns = [
    ...Array.from({ length: 20 }, (_, i) => user(`question ${i}`)),
    { role: "tool", tool_call_id: "t1", content: "x".repeat(9000) },
    user([{ type: "image_url", image_url: { url: "data:," } }]),
    sys(CONFIG),
    {
      role: "developer",
      content: [
        { type: "text", text: "short" },
        { type: "image_url", image_url: { url: "x" } },
      ],
    },
  ].slice(0, 23);
  const res = await post(h.base, "/v1/autofix", key, autofixBody(VALID, {}, turns));
  expect(res.status).toBe(200);
  // The developer turn has text, so with it there are 21 usable turns.
  const withDev = [...turns.slice(0, 20), { role: "developer", content: [{ type: "text", text: "short" }] }];
  await expect400(autofixBody(VALID, {}, withDev), /21 usable turns/);
});

test("context over 8,000 characters is 400; exactly 8,000 is accepted", async () => {
  await expect400(autofixBody(VALID, {}, [user("x".repeat(4000)), asst("y".repeat(4001))]), /8001 characters/);
  const ok = await post(h.base, "/v1/autofix", key, autofixBody(VALID, {}, [user("x".repeat(4000)), asst("y".repeat(4000))]));
  expect(ok.status).toBe(200);
});

test("no 400 is charged", async () => {
  expect(await h.credits("rules")).toBe(100);
});
