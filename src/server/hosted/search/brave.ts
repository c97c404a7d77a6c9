// Brave Search API: GET {base}/web/search and {base}/images/search with X-Subscription-Token.
import { asArray, num, obj, str, type SearchQuery, type SearchWire, type WireRequest } from "./types.ts";

export const BRAVE_URL = "https://api.search.brave.com/res/v1";

function request(base: string, key: string, path: string, query: SearchQuery, max: number): WireRequest {
  const url = new URL(`${base.replace(/\/+$/, "")}/${path}`);
  const d = query.allowedDomains ?? [];
  // Brave reads search operators in q: site: for one domain (several are filtered afterwards).
  url.searchParams.set("q", d.length === 1 ? `${query.query} site:${d[0]}` : query.query);
  url.searchParams.set("count", String(Math.min(query.count, max)));
  if (query.country) url.searchParams.set("country", query.country.toUpperCase());
  return { url: url.toString(), method: "GET", headers: { accept: "application/json", "x-subscription-token": key } };
}

export function brave(base: string, key: string): SearchWire {
  return {
    name: "brave",
    web: {
      request: (query) => request(base, key, "web/search", query, 20),
      read: (json) =>
        asArray(obj(obj(json).web).results)
          .map(obj)
          .filter((r) => str(r.url))
          .map((r) => ({ url: str(r.url), title: str(r.title), snippet: str(r.description) })),
    },
    images: {
      request: (query) => request(base, key, "images/search", query, 200),
      read: (json) =>
        asArray(obj(json).results)
          .map(obj)
          .map((r) => {
            const props = obj(r.properties);
            const thumb = obj(r.thumbnail);
            return {
              image_url: str(props.url),
              title: str(r.title),
              source_url: str(r.url) || null,
              thumbnail_url: str(thumb.src) || null,
              width: num(props.width) ?? num(thumb.width),
              height: num(props.height) ?? num(thumb.height),
            };
          })
          .filter((r) => r.image_url),
    },
  };
}
