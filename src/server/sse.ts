// The one server-sent-events writer (Embed chunks, Responses events, replays): `event:` and `data:`
// written together as one frame (a reader that splits a frame across reads may lose it), data
// split on line breaks, line breaks refused in event names.
const enc = new TextEncoder();

export function sseFrame(event: string | null, data: string): Uint8Array {
  if (event !== null && /[\r\n]/.test(event)) throw new Error("an SSE event name cannot hold a line break");
  const lines = data
    .split(/\r\n|\r|\n/)
    .map((l) => `data: ${l}\n`)
    .join("");
  return enc.encode(`${event === null ? "" : `event: ${event}\n`}${lines}\n`);
}

export const SSE_DONE = sseFrame(null, "[DONE]");

export const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" };

/**
 * Typed events (`event:` equal to the JSON `type`) from an async source, then `data: [DONE]`.
 * `onCancel` runs when the client goes away first.
 */
export function sseEvents(events: AsyncIterable<{ type: string }> | Iterable<{ type: string }>, onCancel: () => void = () => {}): Response {
  const it =
    Symbol.asyncIterator in events
      ? events[Symbol.asyncIterator]()
      : (async function* () {
          yield* events;
        })();
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      const { value, done } = await it.next();
      if (done) {
        ctrl.enqueue(SSE_DONE);
        ctrl.close();
        return;
      }
      ctrl.enqueue(sseFrame(value.type, JSON.stringify(value)));
    },
    async cancel() {
      onCancel();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}
