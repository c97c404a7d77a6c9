// The only place that talks HTTP to providers: sends what an adapter built, turns transport
// failures and error statuses into ProviderError, and hands answers back to the adapter.

import { readSse } from "./sse.ts";
import {
  ProviderError,
  type ChatCompletion, type ChatCompletionChunk, type ChatRequest, type ProviderAdapter, type Target,
} from "./types.ts";

async function send(adapter: ProviderAdapter, req: ChatRequest, target: Target, stream: boolean, signal?: AbortSignal): Promise<Response> {
  const out = adapter.toRequest(req, target, stream);
  let res: Response;
  try {
    res = await fetch(out.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...out.headers },
      body: JSON.stringify(out.body),
      signal,
    });
  } catch (err) {
    // Never echo the URL's query or headers: keys may sit there; nor Bun's hint for its own users.
    throw new ProviderError(`provider ${adapter.name} could not be reached: ${withoutBunHint((err as Error).message ?? "network error")}`, 502, null);
  }
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    const msg = adapter.errorMessage(res.status, text);
    throw new ProviderError(`${adapter.name} returned ${res.status}: ${msg}`, res.status === 429 ? 429 : 502, res.status);
  }
  return res;
}

export async function complete(adapter: ProviderAdapter, req: ChatRequest, target: Target, signal?: AbortSignal): Promise<ChatCompletion> {
  const res = await send(adapter, req, target, false, signal);
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ProviderError(`${adapter.name} answered with a body that is not JSON`, 502, res.status);
  }
  return adapter.fromResponse(body, req.model);
}

/**
 * Opens the stream; errors before the first byte throw here (so the caller can still answer
 * with a status), errors later are thrown by the iterator.
 */
export async function openStream(
  adapter: ProviderAdapter, req: ChatRequest, target: Target, ids: { id: string; created: number }, signal?: AbortSignal,
): Promise<AsyncIterable<ChatCompletionChunk>> {
  const res = await send(adapter, req, target, true, signal);
  if (!res.body) throw new ProviderError(`${adapter.name} sent an empty stream`, 502, res.status);
  const events = guardTransport(adapter.name, readSse(res.body));
  return adapter.fromStream(events, { ...ids, model: req.model });
}

/** Bun ends its fetch() errors with advice for the program's author ("pass `verbose: true` …"): not for our clients. */
export function withoutBunHint(message: string): string {
  return message.replace(/\s*For more information, pass `verbose: true`[^.]*\.?/g, "").trim() || "network error";
}

/** A connection dropped mid-stream surfaces as a ProviderError, not a raw socket error. */
async function* guardTransport<T>(name: string, it: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* it;
  } catch (err) {
    if (err instanceof ProviderError) throw err;
    throw new ProviderError(`${name} stream broke: ${withoutBunHint((err as Error).message ?? "connection lost")}`, 502, null);
  }
}
