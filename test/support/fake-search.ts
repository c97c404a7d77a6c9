// Stand-ins for the search backends, on loopback, each speaking its real wire: SearXNG's JSON API
// (GET /search?format=json, 403 when JSON is off), Brave's (GET /res/v1/web/search and
// /res/v1/images/search, X-Subscription-Token), Tavily's (POST /search, bearer key, JSON body) and
// Exa's (POST /search, x-api-key). Each searches a small fixed corpus and records what arrived.

export type SearchKind = "searxng" | "brave" | "tavily" | "exa";

export interface FakeSearch {
  kind: SearchKind;
  /** What TESSERA_WEB_SEARCH_URL takes for this backend. */
  url: string;
  key: string;
  calls: { method: string; path: string; query: Record<string, string>; headers: Record<string, string>; body: any }[];
  /** SearXNG only: answer 403 as an instance with JSON output disabled does. */
  jsonDisabled: boolean;
  stop(): void;
}

export const PAGES = [
  {
    url: "https://en.wikipedia.org/wiki/Lighthouse",
    title: "Lighthouse - Wikipedia",
    text: "A lighthouse is a tower that emits light to aid navigation at sea.",
  },
  {
    url: "https://www.nps.gov/articles/lighthouses.htm",
    title: "Lighthouses (U.S. National Park Service)",
    text: "Lighthouses guided ships along the coasts for centuries.",
  },
  { url: "https://lighthouse.example.org/history", title: "A history of lighthouses", text: "The Pharos of Alexandria was the first known lighthouse." },
];

export const IMAGES = [
  {
    image: "https://upload.wikimedia.org/lighthouse-1.jpg",
    thumb: "https://upload.wikimedia.org/thumb/lighthouse-1.jpg",
    page: "https://commons.wikimedia.org/wiki/File:Lighthouse-1.jpg",
    title: "Lighthouse at dusk",
    width: 1920,
    height: 1080,
  },
  {
    image: "https://images.example.org/pharos.png",
    thumb: "https://images.example.org/t/pharos.png",
    page: "https://images.example.org/pharos",
    title: "Pharos of Alexandria",
    width: 800,
    height: 600,
  },
];

const matches = (q: string) => {
  const words = q
    .toLowerCase()
    .replace(/site:\S+/g, "")
    .split(/\W+/)
    .filter((w) => w.length > 2);
  return (text: string) => words.length === 0 || words.some((w) => text.toLowerCase().includes(w));
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export function startFakeSearch(kind: SearchKind): FakeSearch {
  const key = `${kind}-test-key`;
  const fake: FakeSearch = { kind, url: "", key, calls: [], jsonDisabled: false, stop: () => server.stop(true) };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === "POST" ? await req.json().catch(() => null) : null;
      fake.calls.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: Object.fromEntries(req.headers), body });
      return answer(fake, req, url, body);
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  fake.url = kind === "brave" ? `${base}/res/v1` : base;
  return fake;
}

function answer(fake: FakeSearch, req: Request, url: URL, body: any): Response {
  switch (fake.kind) {
    case "searxng": {
      if (url.pathname !== "/search" && url.pathname !== "/") return new Response("Not Found", { status: 404 });
      if (url.searchParams.get("format") !== "json" || fake.jsonDisabled) return new Response("Forbidden", { status: 403 });
      const q = url.searchParams.get("q") ?? "";
      const fits = matches(q);
      const results =
        url.searchParams.get("categories") === "images"
          ? IMAGES.filter((i) => fits(i.title)).map((i) => ({
              url: i.page,
              title: i.title,
              content: "",
              img_src: i.image,
              thumbnail_src: i.thumb,
              resolution: `${i.width} x ${i.height}`,
              img_format: "jpeg",
              engine: "bing images",
              engines: ["bing images"],
              template: "images.html",
              category: "images",
              score: 1,
            }))
          : PAGES.filter((p) => fits(p.title + p.text)).map((p, i) => ({
              url: p.url,
              title: p.title,
              content: p.text,
              engine: "duckduckgo",
              engines: ["duckduckgo"],
              template: "default.html",
              category: "general",
              score: 3 - i,
              publishedDate: null,
              thumbnail: "",
            }));
      return json({ query: q, number_of_results: 0, results, answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] });
    }
    case "brave": {
      if (req.headers.get("x-subscription-token") !== fake.key) {
        return json(
          {
            type: "ErrorResponse",
            error: { id: "x", status: 401, code: "SUBSCRIPTION_TOKEN_INVALID", detail: "The provided subscription token is invalid.", meta: {} },
          },
          401,
        );
      }
      const q = url.searchParams.get("q") ?? "";
      if (!q) return json({ type: "ErrorResponse", error: { status: 422, code: "VALIDATION", detail: "Unable to validate request parameter(s)" } }, 422);
      const fits = matches(q);
      if (url.pathname === "/res/v1/web/search") {
        const results = PAGES.filter((p) => fits(p.title + p.text)).map((p) => ({
          type: "search_result",
          title: p.title,
          url: p.url,
          description: p.text,
          age: "March 1, 2026",
          is_source_local: false,
          is_source_both: false,
          profile: { name: new URL(p.url).hostname, url: p.url },
          meta_url: { scheme: "https", netloc: new URL(p.url).hostname, hostname: new URL(p.url).hostname },
        }));
        return json({
          type: "search",
          query: { original: q, more_results_available: false },
          mixed: { type: "mixed", main: [] },
          web: { type: "search", results, family_friendly: true },
        });
      }
      if (url.pathname === "/res/v1/images/search") {
        const results = IMAGES.filter((i) => fits(i.title)).map((i) => ({
          type: "image_result",
          title: i.title,
          url: i.page,
          source: new URL(i.page).hostname,
          page_fetched: "2026-03-01T00:00:00Z",
          thumbnail: { src: i.thumb, width: 200, height: 150 },
          properties: { url: i.image, placeholder: i.thumb, width: i.width, height: i.height },
          meta_url: { scheme: "https", netloc: new URL(i.page).hostname },
          confidence: "high",
        }));
        return json({ type: "images", query: { original: q, spellcheck_off: false }, results, extra: { might_be_offensive: false } });
      }
      return json({ type: "ErrorResponse", error: { status: 404, detail: "Not found" } }, 404);
    }
    case "tavily": {
      if (req.method !== "POST" || url.pathname !== "/search") return json({ detail: { error: "Not Found" } }, 404);
      if (req.headers.get("authorization") !== `Bearer ${fake.key}`) return json({ detail: { error: "Unauthorized: missing or invalid API key." } }, 401);
      if (typeof body?.query !== "string") return json({ detail: { error: "query is required" } }, 400);
      const fits = matches(body.query);
      const domains: string[] | undefined = body.include_domains;
      const results = PAGES.filter((p) => fits(p.title + p.text) && (!domains || domains.some((d) => new URL(p.url).hostname.endsWith(d))))
        .slice(0, body.max_results ?? 5)
        .map((p, i) => ({ title: p.title, url: p.url, content: p.text, score: 0.9 - i / 10, raw_content: null }));
      return json({ query: body.query, follow_up_questions: null, answer: null, images: [], results, response_time: 0.42, request_id: crypto.randomUUID() });
    }
    case "exa": {
      if (req.method !== "POST" || url.pathname !== "/search") return json({ error: "Not found" }, 404);
      if (req.headers.get("x-api-key") !== fake.key) return json({ requestId: "x", error: "Invalid API key", tag: "INVALID_API_KEY" }, 401);
      if (typeof body?.query !== "string") return json({ requestId: "x", error: "query: Required", tag: "INVALID_REQUEST_BODY" }, 400);
      const fits = matches(body.query);
      const domains: string[] | undefined = body.includeDomains;
      const results = PAGES.filter((p) => fits(p.title + p.text) && (!domains || domains.some((d) => new URL(p.url).hostname.endsWith(d))))
        .slice(0, body.numResults ?? 10)
        .map((p) => ({
          id: p.url,
          url: p.url,
          title: p.title,
          publishedDate: "2026-03-01T00:00:00.000Z",
          author: null,
          ...(body.contents?.text ? { text: p.text.slice(0, body.contents.text.maxCharacters ?? 1000) } : {}),
        }));
      return json({ requestId: crypto.randomUUID(), resolvedSearchType: "neural", results, costDollars: { total: 0.005 } });
    }
  }
}
