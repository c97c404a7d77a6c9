// Stream autofix for the server helper: wraps an upstream model stream, passes every chunk
// through as it comes, checks the whole answer once the stream has ended (while streaming,
// incomplete and unresolved are normal), and when it is invalid asks Autofix for the corrected
// generation and emits it as one last chunk carrying `autofix`. A failed repair errors the stream
// with StreamAutofixError (code "fix_failed"; `result` null when Autofix did not run).
//
// Two pass-throughs, matching the two browser adapters:
//   autofixSseStream     raw SSE bytes in (`data: {chunk}` … `data: [DONE]`), raw SSE bytes out
//   autofixChunkStream   chunk objects in (e.g. the openai client's Stream), NDJSON bytes out
//                        (the format of the openai client's Stream.toReadableStream())
import { writeConfigBlock, BUILTIN_LIBRARY_VERSION } from "./config-block.ts";
import { isValidGeneration } from "./index.ts";
import { defaultChatLibrary } from "../library/default-chat.ts";

export interface AutofixResult {
  id: string;
  model: string;
  choices: { index: number; message: { role: "assistant"; content: string | null }; finish_reason: string }[];
  fix_summary: { status: "already_valid" | "fixed" | "fix_failed"; fixed_errors: unknown[]; unfixed_errors: unknown[] };
}

export interface StreamAutofixOptions {
  /** The application's chatLibrary JSON; omitted: the built-in library. */
  library?: Record<string, unknown>;
  /** Where Autofix lives: the service's root URL (`http://host:8787`; `…/v1` and `…/v1/autofix` are taken too) and the API key. */
  autofix: { baseUrl: string; apiKey: string; fetch?: typeof fetch };
  /** Conversation before the answer (chat messages), sent as context to Autofix. */
  context?: { role: string; content: unknown }[];
  /** Free-form instructions for the config block. */
  instructions?: string;
}

export class StreamAutofixError extends Error {
  constructor(
    message: string,
    readonly result: AutofixResult | null,
    /** "fix_failed": the answer is invalid and could not be repaired; "upstream_error": the model stream broke. */
    readonly code: "fix_failed" | "upstream_error" = "fix_failed",
  ) {
    super(message);
    this.name = "StreamAutofixError";
  }
}

interface Chunk { id?: string; model?: string; created?: number; choices?: { delta?: { content?: string | null } }[] }

/** The last chunk: a chat.completion.chunk with no choices and the corrected generation. */
function fixChunk(last: Chunk, result: AutofixResult) {
  return {
    id: last.id ?? result.id, object: "chat.completion.chunk", created: last.created ?? Math.floor(Date.now() / 1000),
    model: last.model ?? "", choices: [],
    autofix: { status: result.fix_summary.status, content: result.choices[0]?.message.content ?? null, fixed_errors: result.fix_summary.fixed_errors },
  };
}

function autofixUrl(base: string): string {
  const b = base.replace(/\/+$/, "");
  if (b.endsWith("/v1/autofix")) return b;
  return b.endsWith("/v1") ? `${b}/autofix` : `${b}/v1/autofix`;
}

/** Checks the finished text; null when valid, else the Autofix answer (or an error). */
async function fixIfInvalid(text: string, opts: StreamAutofixOptions): Promise<AutofixResult | null> {
  const library = opts.library ?? defaultChatLibrary;
  if (await isValidGeneration(text, library)) return null;
  const block = writeConfigBlock(opts.library ? { chatLibrary: opts.library } : { libraryVersion: BUILTIN_LIBRARY_VERSION }, opts.instructions);
  const doFetch = opts.autofix.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(autofixUrl(opts.autofix.baseUrl), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${opts.autofix.apiKey}` },
      body: JSON.stringify({ messages: [{ role: "system", content: block }, ...(opts.context ?? []), { role: "assistant", content: text }] }),
    });
  } catch (e) {
    throw new StreamAutofixError(`Autofix could not be reached: ${(e as Error).message}`, null);
  }
  if (!res.ok) {
    const detail = await res.text().catch(() => "");
    throw new StreamAutofixError(`Autofix answered ${res.status}: ${detail.slice(0, 300)}`, null);
  }
  const result = (await res.json()) as AutofixResult;
  if (result.fix_summary?.status === "fix_failed" || result.choices?.[0]?.message.content == null) {
    throw new StreamAutofixError("Autofix could not repair the generation", result);
  }
  return result;
}

const enc = new TextEncoder();

/** Raw SSE pass-through. */
export function autofixSseStream(upstream: ReadableStream<Uint8Array>, opts: StreamAutofixOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  let text = "";
  let last: Chunk = {};
  let sawDone = false;
  // Reads whole events off the buffer, remembers their text, and holds back [DONE] for the end.
  const scan = (final: boolean): string => {
    let out = "";
    for (;;) {
      const m = /\r?\n\r?\n/.exec(buf);
      if (!m) break;
      const event = buf.slice(0, m.index);
      buf = buf.slice(m.index + m[0].length);
      const data = event.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
      if (data === "[DONE]") { sawDone = true; continue; }
      if (data) {
        try {
          const c = JSON.parse(data) as Chunk & { error?: { message?: string } };
          if (c.error) throw new StreamAutofixError(`upstream stream failed: ${c.error.message ?? "error"}`, null, "upstream_error");
          last = c;
          text += c.choices?.[0]?.delta?.content ?? "";
        } catch (e) {
          if (e instanceof StreamAutofixError) throw e;
        }
      }
      out += `${event}\n\n`;
    }
    if (final && buf.trim()) { out += buf; buf = ""; }
    return out;
  };
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const { value, done } = await reader.read();
        if (!done) {
          buf += decoder.decode(value, { stream: true });
          const out = scan(false);
          if (out) ctrl.enqueue(enc.encode(out));
          return;
        }
        buf += decoder.decode();
        const rest = scan(true);
        if (rest) ctrl.enqueue(enc.encode(rest));
        if (!sawDone) throw new StreamAutofixError("upstream stream ended without [DONE]", null, "upstream_error");
        const result = await fixIfInvalid(text, opts);
        if (result) ctrl.enqueue(enc.encode(`data: ${JSON.stringify(fixChunk(last, result))}\n\n`));
        ctrl.enqueue(enc.encode("data: [DONE]\n\n"));
        ctrl.close();
      } catch (e) {
        ctrl.error(e);
        reader.cancel().catch(() => {});
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Readable-stream pass-through: chunk objects (or an NDJSON byte stream of them) in, NDJSON out. */
export function autofixChunkStream(upstream: AsyncIterable<Chunk> | ReadableStream<Uint8Array>, opts: StreamAutofixOptions): ReadableStream<Uint8Array> {
  const source = upstream instanceof ReadableStream ? ndjson(upstream) : upstream;
  const it = source[Symbol.asyncIterator]();
  let text = "";
  let last: Chunk = {};
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const { value, done } = await it.next();
        if (!done) {
          last = value;
          text += value.choices?.[0]?.delta?.content ?? "";
          ctrl.enqueue(enc.encode(`${JSON.stringify(value)}\n`));
          return;
        }
        const result = await fixIfInvalid(text, opts);
        if (result) ctrl.enqueue(enc.encode(`${JSON.stringify(fixChunk(last, result))}\n`));
        ctrl.close();
      } catch (e) {
        ctrl.error(e instanceof StreamAutofixError ? e : new StreamAutofixError(`upstream stream failed: ${(e as Error).message}`, null, "upstream_error"));
      }
    },
    async cancel() {
      await it.return?.();
    },
  });
}

async function* ndjson(stream: ReadableStream<Uint8Array>): AsyncGenerator<Chunk> {
  const decoder = new TextDecoder();
  let buf = "";
  for await (const bytes of stream as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(bytes, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line) yield JSON.parse(line);
    }
  }
  if (buf.trim()) yield JSON.parse(buf);
}
