// Tavily: POST {base}/search with a bearer key and a JSON body; domains filtered by the API itself.
import { asArray, obj, str, type SearchWire } from "./types.ts";

export const TAVILY_URL = "https://api.tavily.com";

export function tavily(base: string, key: string): SearchWire {
  return {
    name: "tavily",
    web: {
      request: (q) => ({
        url: `${base.replace(/\/+$/, "")}/search`,
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          query: q.query,
          max_results: Math.min(q.count, 20),
          search_depth: "basic",
          topic: "general",
          ...(q.allowedDomains?.length ? { include_domains: q.allowedDomains } : {}),
        }),
      }),
      read: (json) =>
        asArray(obj(json).results)
          .map(obj)
          .filter((r) => str(r.url))
          .map((r) => ({ url: str(r.url), title: str(r.title), snippet: str(r.content) })),
    },
  };
}
