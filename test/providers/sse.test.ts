import { expect, test } from "bun:test";
import { readSse } from "../../src/providers/sse.ts";

function streamOf(pieces: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const p of pieces) c.enqueue(enc.encode(p));
      c.close();
    },
  });
}

async function all(pieces: string[]) {
  const out = [];
  for await (const e of readSse(streamOf(pieces))) out.push(e);
  return out;
}

test("events split across reads, CRLF and CR line ends, comments, multi-line data", async () => {
  const evs = await all(["event: a\r", '\ndata: {"x"', ":1}\r\n\r\n: keep-alive\n\ndata: one\ndata: two\n\n", "data: three\r\r"]);
  expect(evs).toEqual([
    { event: "a", data: '{"x":1}' },
    { event: "message", data: "one\ntwo" },
    { event: "message", data: "three" },
  ]);
});

test("a last event without the closing blank line still arrives", async () => {
  expect(await all(["data: [DONE]"])).toEqual([{ event: "message", data: "[DONE]" }]);
});

test("multi-byte characters split between reads", async () => {
  const bytes = new TextEncoder().encode("data: héllo ✓\n\n");
  const s = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes.slice(0, 8));
      c.enqueue(bytes.slice(8));
      c.close();
    },
  });
  const out = [];
  for await (const e of readSse(s)) out.push(e.data);
  expect(out).toEqual(["héllo ✓"]);
});
