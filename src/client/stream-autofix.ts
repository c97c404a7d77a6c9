// Stream repair for the server helper: wraps an upstream model stream and passes it on repaired
// as it arrives, as the service does for managed UI: each line of the program when it ends (a
// misspelt component renamed, a value coerced, a broken line mended or held back), and what only
// the end tells (references to nothing, orphans, a missing root) as statements in one more
// chunk before the end. The deltas add up to the repaired answer. Only when that answer is still
// not a valid program is Autofix asked (its fixing model may do more): its corrected generation
// comes as one last chunk carrying `autofix`. A failed repair errors the stream with
// StreamAutofixError (code "fix_failed"; `result` null when Autofix did not run).
//
// Two pass-throughs, matching the two browser adapters:
//   autofixSseStream     raw SSE bytes in (`data: {chunk}` … `data: [DONE]`), raw SSE bytes out
//   autofixChunkStream   chunk objects in (e.g. the openai client's Stream), NDJSON bytes out
//                        (the format of the openai client's Stream.toReadableStream())
import { writeConfigBlock, BUILTIN_LIBRARY_VERSION } from "./config-block.ts";
import { compileLibrary, loadLanguage, type Library } from "../lang/index.ts";
import { defaultChatLibrary } from "../library/default-chat.ts";
import { repairedChunks } from "../repair/stream-chunks.ts";
import type { ChatCompletionChunk } from "../providers/types.ts";

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

interface Chunk {
  id?: string;
  model?: string;
  created?: number;
  choices?: { delta?: { content?: string | null } }[];
}

/** The last chunk: a chat.completion.chunk with no choices and the corrected generation. */
function fixChunk(last: Chunk, result: AutofixResult) {
  return {
    id: last.id ?? result.id,
    object: "chat.completion.chunk",
    created: last.created ?? Math.floor(Date.now() / 1000),
    model: last.model ?? "",
    choices: [],
    autofix: { status: result.fix_summary.status, content: result.choices[0]?.message.content ?? null, fixed_errors: result.fix_summary.fixed_errors },
  };
}

function autofixUrl(base: string): string {
  const b = base.replace(/\/+$/, "");
  if (b.endsWith("/v1/autofix")) return b;
  return b.endsWith("/v1") ? `${b}/autofix` : `${b}/v1/autofix`;
}

const enc = new TextEncoder();

const compiled = new WeakMap<object, Library>();
async function libraryOf(opts: StreamAutofixOptions): Promise<Library> {
  await loadLanguage();
  const json = opts.library ?? defaultChatLibrary;
  let lib = compiled.get(json);
  if (!lib) compiled.set(json, (lib = compileLibrary(json)));
  return lib;
}

/** The model's whole answer to Autofix: its corrected generation, or StreamAutofixError. */
async function askAutofix(text: string, opts: StreamAutofixOptions): Promise<AutofixResult> {
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

/**
 * The repaired stream's bytes: each chunk written by `write`, then, when the repaired answer is
 * still invalid, Autofix's chunk, then `done` (SSE's [DONE]).
 */
function repairedBytes(source: AsyncIterable<Chunk>, opts: StreamAutofixOptions, write: (chunk: unknown) => string, done = ""): ReadableStream<Uint8Array> {
  let it: AsyncIterator<ChatCompletionChunk> | null = null;
  let repaired: ReturnType<typeof repairedChunks> | null = null;
  let original = "";
  let last: Chunk = {};
  // The model's own text, kept for Autofix.
  async function* watched(): AsyncGenerator<ChatCompletionChunk> {
    for await (const chunk of source) {
      last = chunk;
      original += chunk.choices?.[0]?.delta?.content ?? "";
      yield chunk as ChatCompletionChunk;
    }
  }
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        if (!it) {
          repaired = repairedChunks(watched(), await libraryOf(opts));
          it = repaired.chunks[Symbol.asyncIterator]();
        }
        const { value, done: ended } = await it.next();
        if (!ended) {
          ctrl.enqueue(enc.encode(write(value)));
          return;
        }
        const result = repaired!.result();
        if (result?.outcome === "fix_failed") ctrl.enqueue(enc.encode(write(fixChunk(last, await askAutofix(original, opts)))));
        if (done) ctrl.enqueue(enc.encode(done));
        ctrl.close();
      } catch (e) {
        ctrl.error(e instanceof StreamAutofixError ? e : new StreamAutofixError(`upstream stream failed: ${(e as Error).message}`, null, "upstream_error"));
      }
    },
    async cancel(reason) {
      await it?.return?.(reason);
    },
  });
}

/** Raw SSE pass-through. */
export function autofixSseStream(upstream: ReadableStream<Uint8Array>, opts: StreamAutofixOptions): ReadableStream<Uint8Array> {
  return repairedBytes(sseChunks(upstream), opts, (chunk) => `data: ${JSON.stringify(chunk)}\n\n`, "data: [DONE]\n\n");
}

/** Readable-stream pass-through: chunk objects (or an NDJSON byte stream of them) in, NDJSON out. */
export function autofixChunkStream(upstream: AsyncIterable<Chunk> | ReadableStream<Uint8Array>, opts: StreamAutofixOptions): ReadableStream<Uint8Array> {
  return repairedBytes(upstream instanceof ReadableStream ? ndjson(upstream) : upstream, opts, (chunk) => `${JSON.stringify(chunk)}\n`);
}

/** The chunks of an SSE byte stream; an error event, or an end without [DONE], is an upstream_error. */
async function* sseChunks(upstream: ReadableStream<Uint8Array>): AsyncGenerator<Chunk> {
  const decoder = new TextDecoder();
  let buf = "";
  let sawDone = false;
  const events = function* (final: boolean): Generator<Chunk> {
    for (;;) {
      const m = /\r?\n\r?\n/.exec(buf);
      if (!m && !(final && buf.trim())) return;
      const event = m ? buf.slice(0, m.index) : buf;
      buf = m ? buf.slice(m.index + m[0].length) : "";
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n");
      if (data === "[DONE]") sawDone = true;
      else if (data) {
        let c: Chunk & { error?: { message?: string } };
        try {
          c = JSON.parse(data);
        } catch {
          continue; // not a chunk: nothing to pass on
        }
        if (c.error) throw new StreamAutofixError(`upstream stream failed: ${c.error.message ?? "error"}`, null, "upstream_error");
        yield c;
      }
    }
  };
  for await (const bytes of upstream as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(bytes, { stream: true });
    yield* events(false);
  }
  buf += decoder.decode();
  yield* events(true);
  if (!sawDone) throw new StreamAutofixError("upstream stream ended without [DONE]", null, "upstream_error");
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
