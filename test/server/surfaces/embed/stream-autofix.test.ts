// The server helper's stream repair over a real Embed stream and the real Autofix endpoint:
// raw SSE pass-through and readable-stream (NDJSON) pass-through. Lines are repaired as they pass;
// Autofix is asked only when the repaired answer is still invalid.
import { expect, test } from "bun:test";
import { autofixChunkStream, autofixSseStream, StreamAutofixError } from "../../../../src/client/stream-autofix.ts";
import { deadUrl } from "../../../support/fake-providers.ts";
import { embedSuite } from "../../embed-harness.ts";
import { BROKEN, HOPELESS, post, SMALL_LIBRARY, VALID } from "../../harness.ts";

const S = embedSuite("stream-fix", 100);

const body = { model: "openai/gpt-test", messages: [{ role: "user", content: "Greet me" }], stream: true };
const opts = () => ({ library: SMALL_LIBRARY, autofix: { baseUrl: S.E.h.base, apiKey: S.key } });

async function sseFrom(text: string) {
  S.E.openai.queue.push({ text });
  const res = await post(S.E.h.base, "/v1/embed/chat/completions", S.key, body);
  return res.body!;
}

test("SSE: a valid answer passes through untouched and ends in [DONE]", async () => {
  const out = await new Response(autofixSseStream(await sseFrom(VALID), opts())).text();
  expect(out).not.toContain('"autofix"');
  expect(out.trim().endsWith("data: [DONE]")).toBe(true);
  const text = out
    .split("\n\n")
    .filter((e) => e.startsWith("data: {"))
    .map((e) => JSON.parse(e.slice(6)).choices[0]?.delta.content ?? "")
    .join("");
  expect(text).toBe(VALID);
});

const deltas = (out: string) =>
  out
    .split("\n\n")
    .filter((e) => e.startsWith("data: {"))
    .map((e) => JSON.parse(e.slice(6)).choices[0]?.delta.content ?? "")
    .join("");

test("SSE: an invalid answer arrives repaired line by line, Autofix not asked", async () => {
  let asked = 0;
  const spy = (async (input: RequestInfo | URL, init?: RequestInit) => (asked++, fetch(input, init))) as typeof fetch;
  const out = await new Response(
    autofixSseStream(await sseFrom(BROKEN), { library: SMALL_LIBRARY, autofix: { baseUrl: S.E.h.base, apiKey: S.key, fetch: spy } }),
  ).text();
  const events = out.trim().split("\n\n");
  expect(events.at(-1)).toBe("data: [DONE]");
  expect(out).not.toContain("TEXT(");
  expect(deltas(out)).toBe(VALID);
  expect(out).not.toContain('"autofix"');
  expect(asked).toBe(0);
});

test("autofix.baseUrl may be the service's root, its /v1 or the Autofix URL itself (openai's baseURL for Autofix)", async () => {
  for (const baseUrl of [S.E.h.base, `${S.E.h.base}/`, `${S.E.h.base}/v1`, `${S.E.h.base}/v1/autofix`, `${S.E.h.base}/v1/autofix/`]) {
    // An answer the stream repair cannot mend goes to Autofix: its own answer (not "unreachable") comes back.
    const e = await new Response(autofixSseStream(await sseFrom(HOPELESS), { library: SMALL_LIBRARY, autofix: { baseUrl, apiKey: S.key } }))
      .text()
      .catch((x) => x);
    expect([baseUrl, e.result?.fix_summary.status]).toEqual([baseUrl, "fix_failed"]);
  }
});

test("SSE: Autofix cannot repair → fix_failed with its result; Autofix unreachable → result null", async () => {
  const e1 = await new Response(autofixSseStream(await sseFrom(HOPELESS), opts())).text().catch((e) => e);
  expect(e1).toBeInstanceOf(StreamAutofixError);
  expect(e1.code).toBe("fix_failed");
  expect(e1.result.fix_summary.status).toBe("fix_failed");
  const e2 = await new Response(autofixSseStream(await sseFrom(HOPELESS), { library: SMALL_LIBRARY, autofix: { baseUrl: deadUrl(), apiKey: S.key } }))
    .text()
    .catch((e) => e);
  expect(e2).toBeInstanceOf(StreamAutofixError);
  expect(e2.code).toBe("fix_failed");
  expect(e2.result).toBeNull();
});

test("readable stream: the openai client's chunks in, NDJSON out, repaired as they pass", async () => {
  S.E.openai.queue.push({ text: BROKEN });
  const stream = await S.client.chat.completions.create({ model: "openai/gpt-test", messages: [{ role: "user", content: "x" }], stream: true });
  const lines = (await new Response(autofixChunkStream(stream, opts())).text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => l.choices[0]?.delta?.content ?? "").join("")).toBe(VALID);
  expect(lines.some((l) => l.autofix)).toBe(false);

  // The same through the client's own readable stream (NDJSON bytes in).
  S.E.openai.queue.push({ text: VALID });
  const s2 = await S.client.chat.completions.create({ model: "openai/gpt-test", messages: [{ role: "user", content: "x" }], stream: true });
  const out2 = await new Response(autofixChunkStream(s2.toReadableStream() as ReadableStream<Uint8Array>, opts())).text();
  expect(out2).not.toContain('"autofix"');
});

test("a model stream that breaks is an upstream_error, not a fix", async () => {
  const res = await sseFrom("a b c");
  S.E.openai.queue.length = 0;
  S.E.openai.queue.push({ text: "partial answer", failMidStream: "close" });
  await new Response(res).text();
  const broken = (await post(S.E.h.base, "/v1/embed/chat/completions", S.key, body)).body!;
  const e = await new Response(autofixSseStream(broken, opts())).text().catch((x) => x);
  expect(e).toBeInstanceOf(StreamAutofixError);
  expect(e.code).toBe("upstream_error");
  expect(e.result).toBeNull();
});
