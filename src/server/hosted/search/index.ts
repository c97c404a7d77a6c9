// The operator's search backend (TESSERA_WEB_SEARCH_PROVIDER and friends) and the one way it is
// called: the wire's request sent with a time bound, the answer read, results outside the allowed
// domains dropped. Errors name the backend and its status, never its key.
import { brave, BRAVE_URL } from "./brave.ts";
import { exa, EXA_URL } from "./exa.ts";
import { searxng } from "./searxng.ts";
import { tavily, TAVILY_URL } from "./tavily.ts";
import type { ImageResult, SearchQuery, SearchWire, WebResult, WireRequest } from "./types.ts";

export type { ImageResult, SearchQuery, WebResult } from "./types.ts";

export const SEARCH_PROVIDERS = ["searxng", "brave", "tavily", "exa"] as const;
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];

export interface WebSearchConfig {
  provider: SearchProvider;
  url: string;
  key: string | null;
}

const DEFAULT_URLS: Record<SearchProvider, string | null> = { searxng: null, brave: BRAVE_URL, tavily: TAVILY_URL, exa: EXA_URL };

/** The backend from the environment; null when none is configured; throws on a half-made configuration. */
export function webSearchFromEnv(env: Record<string, string | undefined>): WebSearchConfig | null {
  const provider = env.TESSERA_WEB_SEARCH_PROVIDER?.trim().toLowerCase();
  if (!provider) return null;
  if (!(SEARCH_PROVIDERS as readonly string[]).includes(provider)) {
    throw new Error(`TESSERA_WEB_SEARCH_PROVIDER must be one of ${SEARCH_PROVIDERS.join(", ")}, got ${JSON.stringify(provider)}`);
  }
  const p = provider as SearchProvider;
  const url = env.TESSERA_WEB_SEARCH_URL?.trim() || DEFAULT_URLS[p];
  if (!url)
    throw new Error(`TESSERA_WEB_SEARCH_URL is required with TESSERA_WEB_SEARCH_PROVIDER=${p} (the base URL of the instance, e.g. http://searxng:8080)`);
  try {
    new URL(url);
  } catch {
    throw new Error(`TESSERA_WEB_SEARCH_URL is not a URL: ${JSON.stringify(url)}`);
  }
  const key = env.TESSERA_WEB_SEARCH_KEY?.trim() || null;
  if (p !== "searxng" && !key) throw new Error(`TESSERA_WEB_SEARCH_KEY is required with TESSERA_WEB_SEARCH_PROVIDER=${p}`);
  return { provider: p, url, key };
}

export function wireOf(c: WebSearchConfig): SearchWire {
  switch (c.provider) {
    case "searxng":
      return searxng(c.url);
    case "brave":
      return brave(c.url, c.key!);
    case "tavily":
      return tavily(c.url, c.key!);
    case "exa":
      return exa(c.url, c.key!);
  }
}

/** How to configure a backend: the end of every "not configured" refusal. */
export const CONFIGURE_HINT =
  "the operator sets TESSERA_WEB_SEARCH_PROVIDER to searxng (with TESSERA_WEB_SEARCH_URL, a SearXNG instance with JSON output enabled), brave, tavily or exa (with TESSERA_WEB_SEARCH_KEY)";

export class SearchError extends Error {
  override name = "SearchError";
}

/** Longest wait for a backend's answer. */
export const SEARCH_TIMEOUT_MS = 20_000;
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

async function send(name: string, r: WireRequest, signal: AbortSignal): Promise<unknown> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(SEARCH_TIMEOUT_MS)]);
  let res: Response;
  try {
    res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body, signal: deadline, redirect: "error" });
  } catch (e) {
    if (signal.aborted) throw e;
    throw new SearchError(
      deadline.aborted ? `the ${name} search backend did not answer within ${SEARCH_TIMEOUT_MS} ms` : `the ${name} search backend could not be reached`,
    );
  }
  const text = await res.text();
  if (text.length > MAX_ANSWER_BYTES) throw new SearchError(`the ${name} search backend's answer is too large`);
  if (!res.ok) {
    const hint = name === "searxng" && res.status === 403 ? " (is JSON output enabled under search.formats in its settings.yml?)" : "";
    throw new SearchError(`the ${name} search backend answered ${res.status}${hint}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new SearchError(`the ${name} search backend answered with something other than JSON`);
  }
}

/** Whether `url`'s host is one of `domains` or under one of them. */
export function inDomains(url: string, domains: string[] | undefined): boolean {
  if (!domains?.length) return true;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return domains.some((d) => {
    const dom = d
      .toLowerCase()
      .replace(/^\*?\./, "")
      .replace(/^https?:\/\//, "")
      .replace(/\/.*$/, "");
    return host === dom || host.endsWith(`.${dom}`);
  });
}

export async function searchWeb(wire: SearchWire, q: SearchQuery, signal: AbortSignal): Promise<WebResult[]> {
  const json = await send(wire.name, wire.web.request(q), signal);
  return wire.web
    .read(json)
    .filter((r) => inDomains(r.url, q.allowedDomains))
    .slice(0, q.count);
}

export async function searchImages(wire: SearchWire, q: SearchQuery, signal: AbortSignal): Promise<ImageResult[]> {
  if (!wire.images) throw new SearchError(`the ${wire.name} search backend has no image search`);
  const json = await send(wire.name, wire.images.request(q), signal);
  return wire.images
    .read(json)
    .filter((r) => /^https?:\/\//.test(r.image_url) && inDomains(r.source_url ?? r.image_url, q.allowedDomains))
    .slice(0, q.count);
}
