// Chunks → a `text/event-stream` response: `data: {chunk}` events, then `data: [DONE]`.
// A provider that fails after the first byte ends the stream with an explicit error event and
// no [DONE], so a client can never take a broken answer for a finished one.
import { errorBody } from "../../errors.ts";
import { SSE_DONE, SSE_HEADERS, sseFrame } from "../../sse.ts";
import { ProviderError, type ChatCompletionChunk, type Usage } from "../../../providers/types.ts";

export interface StreamEnd {
  usage: Usage | null;
  /** Text the assistant wrote, when asked to keep it (managed UI checks it at the end). */
  content: string;
  finishReason: string | null;
  error: ProviderError | null;
  /** The client went away before the end. */
  cancelled: boolean;
}


export function sseResponse(
  chunks: AsyncIterable<ChatCompletionChunk>,
  opts: { includeUsage: boolean; keepContent: boolean; onEnd: (end: StreamEnd) => Promise<void> | void },
): Response {
  const it = chunks[Symbol.asyncIterator]();
  const end: StreamEnd = { usage: null, content: "", finishReason: null, error: null, cancelled: false };
  let ended = false;
  const finish = async () => {
    if (ended) return;
    ended = true;
    await opts.onEnd(end);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        for (;;) {
          const { value, done } = await it.next();
          if (done) {
            ctrl.enqueue(SSE_DONE);
            ctrl.close();
            await finish();
            return;
          }
          if (value.usage) end.usage = value.usage;
          const choice = value.choices[0];
          if (choice?.finish_reason) end.finishReason = choice.finish_reason;
          if (opts.keepContent && choice?.delta.content) end.content += choice.delta.content;
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
