// The only place that talks HTTP to providers: sends what an adapter built, turns transport
// failures and error statuses into ProviderError, and hands answers back to the adapter.
// A provider that stays silent is cut (504): a stream whose answer has not started within the
// connect timeout, a whole answer not received within the idle timeout, or a stream that sends
// nothing for the idle timeout between two chunks.

import { readSse } from "./sse.ts";
import { ProviderError, type ChatCompletion, type ChatCompletionChunk, type ChatRequest, type ProviderAdapter, type Target } from "./types.ts";

export interface CallLimits {
  /** A stream's answer must start (status and headers) within this (TESSERA_PROVIDER_CONNECT_TIMEOUT_MS). */
  connectMs: number;
  /**
   * The longest a provider may send nothing: between two chunks of a stream, or before a whole
   * (non-streamed) answer, which comes only when the model is done (TESSERA_PROVIDER_IDLE_TIMEOUT_MS).
   * Reasoning models think for minutes before they write: the default leaves them that.
   */
  idleMs: number;
}

export const DEFAULT_CALL_LIMITS: CallLimits = { connectMs: 30_000, idleMs: 300_000 };

let limits: CallLimits = DEFAULT_CALL_LIMITS;

/** The process's limits, from its configuration (main.ts, once at start). */
export function setCallLimits(l: CallLimits): void {
  limits = l;
}

const secondsText = (ms: number) => `${ms / 1000} s`;

/** Aborts the call when the provider has been silent too long, saying so. */
class Watchdog {
  readonly controller = new AbortController();
  reason: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  arm(ms: number, reason: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.reason = reason;
      this.controller.abort();
    }, ms);
  }

  disarm(): void {
    clearTimeout(this.timer);
  }

  /** The error to throw for a failure `err`: the timeout's, when it was the cause. */
  error(name: string, err: unknown, otherwise: (message: string) => ProviderError): ProviderError {
    if (this.reason) return new ProviderError(`provider ${name} ${this.reason}`, 504, null);
    if (err instanceof ProviderError) return err;
    return otherwise(withoutBunHint((err as Error)?.message ?? "network error"));
  }
}

async function send(adapter: ProviderAdapter, req: ChatRequest, target: Target, stream: boolean, dog: Watchdog, signal?: AbortSignal): Promise<Response> {
  const out = adapter.toRequest(req, target, stream);
  let res: Response;
  if (stream) dog.arm(limits.connectMs, `did not start its answer within ${secondsText(limits.connectMs)}`);
  else dog.arm(limits.idleMs, `sent no answer within ${secondsText(limits.idleMs)}`);
  try {
    res = await fetch(out.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...out.headers },
      body: JSON.stringify(out.body),
      signal: signal ? AbortSignal.any([signal, dog.controller.signal]) : dog.controller.signal,
    });
  } catch (err) {
    dog.disarm();
    // Never echo the URL's query or headers: keys may sit there; nor Bun's hint for its own users.
    throw dog.error(adapter.name, err, (m) => new ProviderError(`provider ${adapter.name} could not be reached: ${m}`, 502, null));
  }
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    dog.disarm();
    const msg = adapter.errorMessage(res.status, text);
    throw new ProviderError(`${adapter.name} returned ${res.status}: ${msg}`, res.status === 429 ? 429 : 502, res.status);
  }
  return res;
}

export async function complete(adapter: ProviderAdapter, req: ChatRequest, target: Target, signal?: AbortSignal): Promise<ChatCompletion> {
  const dog = new Watchdog();
  const res = await send(adapter, req, target, false, dog, signal);
  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    throw dog.error(adapter.name, err, () => new ProviderError(`${adapter.name} answered with a body that is not JSON`, 502, res.status));
  } finally {
    dog.disarm();
  }
  return adapter.fromResponse(body, req.model);
}

/**
 * Opens the stream; errors before the first byte throw here (so the caller can still answer
 * with a status), errors later are thrown by the iterator.
 */
export async function openStream(
  adapter: ProviderAdapter,
  req: ChatRequest,
  target: Target,
  ids: { id: string; created: number },
  signal?: AbortSignal,
): Promise<AsyncIterable<ChatCompletionChunk>> {
  const dog = new Watchdog();
  const res = await send(adapter, req, target, true, dog, signal);
  if (!res.body) {
    dog.disarm();
    throw new ProviderError(`${adapter.name} sent an empty stream`, 502, res.status);
  }
  const events = guardTransport(adapter.name, readSse(res.body), dog);
  return adapter.fromStream(events, { ...ids, model: req.model });
}

/**
 * The whole answer (one request, not streamed) as the one chunk a stream of it adds up to: for a
 * caller that reads chunks but answers only at the end. Its errors are complete()'s.
 */
export async function completeAsChunk(
  adapter: ProviderAdapter,
  req: ChatRequest,
  target: Target,
  ids: { id: string; created: number },
  signal?: AbortSignal,
): Promise<ChatCompletionChunk> {
  const whole = await complete(adapter, req, target, signal);
  const choice = whole.choices[0];
  const calls = choice?.message.tool_calls;
  return {
    id: ids.id,
    object: "chat.completion.chunk",
    created: ids.created,
    model: whole.model,
    choices: choice
      ? [
          {
            index: 0,
            delta: {
              role: "assistant",
              content: choice.message.content,
              ...(calls?.length ? { tool_calls: calls.map((c, index) => ({ index, id: c.id, type: c.type, function: { ...c.function } })) } : {}),
            },
            finish_reason: choice.finish_reason,
          },
        ]
      : [],
    usage: whole.usage ?? null,
  };
}

/** Bun ends its fetch() errors with advice for the program's author ("pass `verbose: true` …"): not for our clients. */
export function withoutBunHint(message: string): string {
  return message.replace(/\s*For more information, pass `verbose: true`[^.]*\.?/g, "").trim() || "network error";
}

/**
 * A connection dropped mid-stream surfaces as a ProviderError, not a raw socket error; a stream
 * silent for the idle timeout is cut (its watchdog re-armed at every event).
 */
async function* guardTransport<T>(name: string, it: AsyncIterable<T>, dog: Watchdog): AsyncGenerator<T> {
  const idle = () => dog.arm(limits.idleMs, `sent nothing for ${secondsText(limits.idleMs)} in the middle of its answer`);
  idle();
  try {
    for await (const item of it) {
      dog.disarm();
      yield item;
      idle();
    }
  } catch (err) {
    throw dog.error(name, err, (m) => new ProviderError(`${name} stream broke: ${m}`, 502, null));
  } finally {
    dog.disarm();
  }
}
