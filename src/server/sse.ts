// The one server-sent-events writer (Embed chunks, Responses events, replays): `event:` and `data:`
// written together as one frame (a reader that splits a frame across reads may lose it), data
// split on line breaks, line breaks refused in event names.
const enc = new TextEncoder();

export function sseFrame(event: string | null, data: string): Uint8Array {
  return enc.encode(frameText(event, data));
}

function frameText(event: string | null, data: string): string {
  if (event !== null && /[\r\n]/.test(event)) throw new Error("an SSE event name cannot hold a line break");
  const lines = data
    .split(/\r\n|\r|\n/)
    .map((l) => `data: ${l}\n`)
    .join("");
  return `${event === null ? "" : `event: ${event}\n`}${lines}\n`;
}

const DONE_TEXT = frameText(null, "[DONE]");
export const SSE_DONE = enc.encode(DONE_TEXT);

/** Events one write of sseEvents carries at most. */
const SSE_BATCH = 64;
const WAITING = Symbol("waiting");
/**
 * Resolves after SETTLE_HOPS microtask hops: an event that is not made by then waits on I/O (an
 * async generator passes a ready event on within a few hops; the chain costs no event-loop turn).
 */
const SETTLE_HOPS = 24;
const afterReadyHops = (): Promise<typeof WAITING> => {
  let p: Promise<unknown> = Promise.resolve();
  for (let i = 0; i < SETTLE_HOPS; i++) p = p.then(() => {});
  return p.then(() => WAITING);
};

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
  // An event the source is still waiting for (its next chunk): the next write starts with it.
  let pending: Promise<IteratorResult<{ type: string }>> | null = null;
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      let r = await (pending ?? it.next());
      pending = null;
      // The events that follow without a wait (a turn's opening events, the several of one chunk)
      // go out with it as one write: one frame each, but one send and one read for all of them.
      // The stream's first event goes out alone, at once.
      let text = "";
      for (let n = 0; !r.done; n++) {
        text += frameText(r.value.type, JSON.stringify(r.value));
        if (first || n + 1 >= SSE_BATCH) break;
        const next = it.next();
        const got = await Promise.race([next, afterReadyHops()]);
        if (got === WAITING) {
          pending = next;
          break;
        }
        r = got;
      }
      first = false;
      if (r.done) text += DONE_TEXT;
      ctrl.enqueue(enc.encode(text));
      if (r.done) ctrl.close();
    },
    async cancel() {
      onCancel();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}
