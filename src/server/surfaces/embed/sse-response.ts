// Chunks → a `text/event-stream` response: `data: {chunk}` events, then `data: [DONE]`.
// A provider that fails after the first byte ends the stream with an explicit error event and
// no [DONE], so a client can never take a broken answer for a finished one. [DONE] goes out only
// once the call is settled: a charge that cannot be recorded ends the stream with an error event.
import { errorBody } from "../../errors.ts";
import { troubleOf } from "../../../db/trouble.ts";
import { unavailable } from "../../unavailable.ts";
import { SSE_DONE, SSE_HEADERS, sseFrame } from "../../sse.ts";
import { ProviderError, type ChatCompletionChunk, type Usage } from "../../../providers/types.ts";

export interface StreamEnd {
  usage: Usage | null;
  finishReason: string | null;
  error: ProviderError | null;
  /** The client went away before the end. */
  cancelled: boolean;
}

export function sseResponse(
  chunks: AsyncIterable<ChatCompletionChunk>,
  opts: {
    includeUsage: boolean;
    /** Settles the call; what it throws ends the stream with an error event instead of [DONE] (and is passed to onEndFailed). */
    onEnd: (end: StreamEnd) => Promise<void> | void;
    onEndFailed?: (e: unknown) => void;
  },
): Response {
  const it = chunks[Symbol.asyncIterator]();
  const end: StreamEnd = { usage: null, finishReason: null, error: null, cancelled: false };
  let ended = false;
  /** The settlement's failure, or null once it is recorded. */
  const finish = async (): Promise<unknown | null> => {
    if (ended) return null;
    ended = true;
    try {
      await opts.onEnd(end);
      return null;
    } catch (e) {
      opts.onEndFailed?.(e);
      return e ?? new Error("settlement failed");
    }
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        for (;;) {
          const { value, done } = await it.next();
          if (done) {
            const failed = await finish();
            if (failed) {
              const trouble = troubleOf(failed);
              const message = trouble ? unavailable(trouble).message : "the answer's charge could not be recorded";
              ctrl.enqueue(sseFrame(null, JSON.stringify(errorBody(503, `${message}; nothing was charged`, { code: "service_unavailable" }))));
            } else ctrl.enqueue(SSE_DONE);
            ctrl.close();
            return;
          }
          if (value.usage) end.usage = value.usage;
          const choice = value.choices[0];
          if (choice?.finish_reason) end.finishReason = choice.finish_reason;
          if (!opts.includeUsage) {
            if (value.choices.length === 0) continue; // the usage-only chunk the client did not ask for
            if ("usage" in value) delete value.usage;
          }
          ctrl.enqueue(sseFrame(null, JSON.stringify(value)));
          return;
        }
      } catch (e) {
        const err = e instanceof ProviderError ? e : new ProviderError("the answer stream failed", 502, null);
        end.error = err;
        ctrl.enqueue(sseFrame(null, JSON.stringify(errorBody(502, err.message, { code: "upstream_stream_error" }))));
        ctrl.close();
        await finish();
      }
    },
    async cancel() {
      end.cancelled = true;
      await it.return?.();
      await finish();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}
