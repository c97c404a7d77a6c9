// SearXNG's JSON API (self-hosted): GET /search?q=…&format=json, `categories=images` for images.
// JSON must be enabled in the instance's settings.yml (search.formats), else it answers 403.
import { asArray, num, obj, str, type SearchQuery, type SearchWire, type WireRequest } from "./types.ts";

/** SearXNG has no domain filter parameter: one domain is asked for with `site:`, several are filtered afterwards. */
function q(query: SearchQuery): string {
  const d = query.allowedDomains ?? [];
  return d.length === 1 ? `${query.query} site:${d[0]}` : query.query;
}

function request(base: string, query: SearchQuery, categories?: string): WireRequest {
  const url = new URL(`${base.replace(/\/+$/, "")}/search`);
  url.searchParams.set("q", q(query));
  url.searchParams.set("format", "json");
  if (categories) url.searchParams.set("categories", categories);
  return { url: url.toString(), method: "GET", headers: { accept: "application/json" } };
}

/** `resolution` is written "1920 x 1080" (or "1920x1080"). */
function size(resolution: unknown): { width: number | null; height: number | null } {
  const m = /(\d+)\s*[x×]\s*(\d+)/.exec(str(resolution));
  return m ? { width: Number(m[1]), height: Number(m[2]) } : { width: null, height: null };
}

export function searxng(base: string): SearchWire {
  return {
    name: "searxng",
    web: {
      request: (query) => request(base, query),
      read: (json) =>
        asArray(obj(json).results)
          .map(obj)
          .filter((r) => str(r.url))
          .map((r) => ({ url: str(r.url), title: str(r.title), snippet: str(r.content) })),
    },
    images: {
      request: (query) => request(base, query, "images"),
      read: (json) =>
        asArray(obj(json).results)
          .map(obj)
          .filter((r) => str(r.img_src))
          .map((r) => ({
            image_url: str(r.img_src),
            title: str(r.title),
            source_url: str(r.url) || null,
            thumbnail_url: str(r.thumbnail_src) || str(r.thumbnail) || null,
            ...(num(r.width) !== null ? { width: num(r.width), height: num(r.height) } : size(r.resolution)),
          })),
    },
  };
}
