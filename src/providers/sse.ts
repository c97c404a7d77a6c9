// Server-sent events off a byte stream, for every provider. Follows the SSE framing rules:
// lines end in \n, \r\n or \r; `data:` lines of one event join with \n; a blank line ends the event;
// lines starting with `:` are comments (keep-alives).

import type { SseEvent } from "./types.ts";

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buf = "";
  let event = "";
  let data: string[] = [];
  let sawData = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buf += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      for (;;) {
        const nl = nextLineEnd(buf, start);
        if (nl < 0) break;
        // A lone \r at the very end may be the first half of \r\n: wait for more bytes.
        if (buf[nl] === "\r" && nl === buf.length - 1 && !done) break;
        const line = buf.slice(start, nl);
        start = nl + (buf[nl] === "\r" && buf[nl + 1] === "\n" ? 2 : 1);
        if (line === "") {
          if (sawData) yield { event: event || "message", data: data.join("\n") };
          event = "";
          data = [];
          sawData = false;
          continue;
        }
        if (line.charCodeAt(0) === 58 /* : */) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? "" : line.slice(colon + 1);
        if (val.charCodeAt(0) === 32) val = val.slice(1);
        if (field === "data") {
          data.push(val);
          sawData = true;
        } else if (field === "event") event = val;
      }
      buf = buf.slice(start);
      if (done) break;
    }
    // A stream that ends without the final blank line still delivers its last event.
    if (buf !== "") {
      const colon = buf.indexOf(":");
      if (colon >= 0 && buf.slice(0, colon) === "data") {
        let val = buf.slice(colon + 1);
        if (val.charCodeAt(0) === 32) val = val.slice(1);
        data.push(val);
        sawData = true;
      }
    }
    if (sawData) yield { event: event || "message", data: data.join("\n") };
  } finally {
    // Stops the upstream body too when the consumer gives up early (client went away).
    reader.cancel().catch(() => {});
  }
}

function nextLineEnd(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return -1;
}
