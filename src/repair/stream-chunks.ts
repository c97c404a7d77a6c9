// Chat-completion chunks repaired as they stream (pure): their text runs through the stream
// repair (stream-repair.ts), so each line goes on already repaired, and the statements only the
// end can tell go out in one more chunk before the answer's finish (or a tool call that follows
// the text). `result()` is the repair's outcome once the text has ended: the stored answer and
// what reliability monitoring records. Used by the server's managed UI (Embed SSE and every
// Responses transport) and by tessera/client's stream helpers.
import type { Library } from "../lang/index.ts";
import { createStreamRepair, type StreamRepairEnd } from "./stream-repair.ts";
import type { ChatCompletionChunk } from "../providers/types.ts";

export interface RepairedChunks {
  chunks: AsyncIterable<ChatCompletionChunk>;
  /** Null until the text has ended (or when the stream broke first). */
  result(): StreamRepairEnd | null;
}

export function repairedChunks(source: AsyncIterable<ChatCompletionChunk>, library: Library): RepairedChunks {
  const repair = createStreamRepair(library);
  let result: StreamRepairEnd | null = null;
  // The end's statements, as a chunk like `like`'s carrying only text (none when there is nothing to add).
  const finish = (like: ChatCompletionChunk): ChatCompletionChunk | null => {
    if (result) return null;
    result = repair.end();
    if (!result.text) return null;
    return {
      id: like.id,
      object: "chat.completion.chunk",
      created: like.created,
      model: like.model,
      choices: [{ index: 0, delta: { content: result.text }, finish_reason: null }],
    };
  };
  let sawText = false;
  async function* chunks(): AsyncGenerator<ChatCompletionChunk> {
    let last: ChatCompletionChunk | null = null;
    for await (const chunk of source) {
      last = chunk;
      const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
      if (!choice || result) {
        yield chunk;
        continue;
      }
      const ends = Boolean(choice.finish_reason || choice.delta?.tool_calls?.length);
      const text = choice.delta?.content;
      if (typeof text === "string" && text !== "") {
        sawText = true;
        const sent = repair.push(text);
        if (ends) {
          // The chunk's own text first, then the end's statements, then the rest of the chunk.
          const { content: _content, ...rest } = choice.delta;
          const { usage: _usage, ...head } = chunk;
          if (sent) yield { ...head, choices: [{ ...choice, delta: { content: sent }, finish_reason: null }] };
          choice.delta = rest;
        } else if (sent === "" && !chunk.usage)
          continue; // held: nothing to send yet
        else choice.delta = { ...choice.delta, content: sent };
      }
      if (ends && sawText) {
        const ending = finish(chunk);
        if (ending) yield ending;
      }
      yield chunk;
    }
    if (last && sawText && !result) {
      const ending = finish(last);
      if (ending) yield ending;
    }
  }
  return { chunks: chunks(), result: () => result };
}
