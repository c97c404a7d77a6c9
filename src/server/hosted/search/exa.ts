// Exa: POST {base}/search with x-api-key; text snippets asked for under `contents`.
import { asArray, obj, str, type SearchWire } from "./types.ts";

export const EXA_URL = "https://api.exa.ai";

/** How much of each page's text comes back as its snippet. */
const SNIPPET_CHARS = 500;

export function exa(base: string, key: string): SearchWire {
  return {
    name: "exa",
    web: {
      request: (q) => ({
        url: `${base.replace(/\/+$/, "")}/search`,
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({
          query: q.query,
          type: "auto",
          numResults: Math.min(q.count, 100),
          contents: { text: { maxCharacters: SNIPPET_CHARS } },
          ...(q.allowedDomains?.length ? { includeDomains: q.allowedDomains } : {}),
          ...(q.country ? { userLocation: q.country.toUpperCase() } : {}),
        }),
      }),
      read: (json) =>
        asArray(obj(json).results)
          .map(obj)
          .filter((r) => str(r.url))
          .map((r) => ({
            url: str(r.url),
            title: str(r.title),
            snippet: str(r.text) || asArray(r.highlights).map(str).join(" … "),
          })),
    },
  };
}
