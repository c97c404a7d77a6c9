// Each search backend's wire against its stand-in: what is sent (auth, parameters) and what is read.
import { afterAll, describe, expect, test } from "bun:test";
import { searchImages, searchWeb, SearchError, webSearchFromEnv, wireOf } from "../../../src/server/hosted/search/index.ts";
import { startFakeSearch, type FakeSearch, type SearchKind } from "../../support/fake-search.ts";

const fakes: FakeSearch[] = [];
afterAll(() => fakes.forEach((f) => f.stop()));
const signal = new AbortController().signal;

function backend(kind: SearchKind) {
  const f = startFakeSearch(kind);
  fakes.push(f);
  const config = webSearchFromEnv({
    TESSERA_WEB_SEARCH_PROVIDER: kind,
    TESSERA_WEB_SEARCH_URL: f.url,
    TESSERA_WEB_SEARCH_KEY: kind === "searxng" ? undefined : f.key,
  })!;
  return { f, wire: wireOf(config) };
}

describe("configuration", () => {
  test("no provider: no backend; a half-made one is an error naming what is missing", () => {
    expect(webSearchFromEnv({})).toBeNull();
    expect(() => webSearchFromEnv({ TESSERA_WEB_SEARCH_PROVIDER: "searxng" })).toThrow("TESSERA_WEB_SEARCH_URL");
    expect(() => webSearchFromEnv({ TESSERA_WEB_SEARCH_PROVIDER: "brave" })).toThrow("TESSERA_WEB_SEARCH_KEY");
    expect(() => webSearchFromEnv({ TESSERA_WEB_SEARCH_PROVIDER: "bing" })).toThrow("searxng, brave, tavily, exa");
    expect(webSearchFromEnv({ TESSERA_WEB_SEARCH_PROVIDER: "exa", TESSERA_WEB_SEARCH_KEY: "k" })!.url).toBe("https://api.exa.ai");
  });
});

for (const kind of ["searxng", "brave", "tavily", "exa"] as const) {
  describe(kind, () => {
    test("web search: results with url, title and snippet; the key sent as the backend wants it", async () => {
      const { f, wire } = backend(kind);
      const results = await searchWeb(wire, { query: "lighthouse history", count: 5 }, signal);
      expect(results.length).toBe(3);
      expect(results[0]).toEqual({
        url: "https://en.wikipedia.org/wiki/Lighthouse",
        title: "Lighthouse - Wikipedia",
        snippet: expect.stringContaining("tower"),
      });
      const call = f.calls.at(-1)!;
      if (kind === "searxng") expect(call.query).toMatchObject({ q: "lighthouse history", format: "json" });
      if (kind === "brave")
        expect(call).toMatchObject({ path: "/res/v1/web/search", query: { q: "lighthouse history", count: "5" }, headers: { "x-subscription-token": f.key } });
      if (kind === "tavily")
        expect(call).toMatchObject({ method: "POST", body: { query: "lighthouse history", max_results: 5 }, headers: { authorization: `Bearer ${f.key}` } });
      if (kind === "exa")
        expect(call).toMatchObject({
          method: "POST",
          body: { query: "lighthouse history", numResults: 5, contents: { text: { maxCharacters: 500 } } },
          headers: { "x-api-key": f.key },
        });
    });

    test("allowed domains: only results from them (subdomains included)", async () => {
      const { wire } = backend(kind);
      const results = await searchWeb(wire, { query: "lighthouse", count: 5, allowedDomains: ["wikipedia.org", "nps.gov"] }, signal);
      expect(results.map((r) => new URL(r.url).hostname).sort()).toEqual(["en.wikipedia.org", "www.nps.gov"]);
    });

    if (kind === "searxng" || kind === "brave") {
      test("image search: absolute image URLs with title, source page and size", async () => {
        const { f, wire } = backend(kind);
        const images = await searchImages(wire, { query: "lighthouse", count: 5 }, signal);
        expect(images).toEqual([
          {
            image_url: "https://upload.wikimedia.org/lighthouse-1.jpg",
            title: "Lighthouse at dusk",
            source_url: "https://commons.wikimedia.org/wiki/File:Lighthouse-1.jpg",
            thumbnail_url: "https://upload.wikimedia.org/thumb/lighthouse-1.jpg",
            width: 1920,
            height: 1080,
          },
        ]);
        if (kind === "searxng") expect(f.calls.at(-1)!.query.categories).toBe("images");
        else expect(f.calls.at(-1)!.path).toBe("/res/v1/images/search");
      });
    } else {
      test("no image search: a clear error", async () => {
        const { wire } = backend(kind);
        const e = await searchImages(wire, { query: "x", count: 1 }, signal).catch((e) => e);
        expect(e).toBeInstanceOf(SearchError);
        expect(e.message).toContain("has no image search");
      });
    }

    if (kind !== "searxng") {
      test("a wrong key: the error names the backend and status, not the key", async () => {
        const { f } = backend(kind);
        const wire = wireOf({ provider: kind, url: f.url, key: "wrong-key-123" });
        const e = await searchWeb(wire, { query: "x", count: 1 }, signal).catch((e) => e);
        expect(e).toBeInstanceOf(SearchError);
        expect(e.message).toBe(`the ${kind} search backend answered 401`);
      });
    }
  });
}

test("searxng with JSON output disabled: 403, and the error says what to enable", async () => {
  const { f, wire } = backend("searxng");
  f.jsonDisabled = true;
  const e = await searchWeb(wire, { query: "x", count: 1 }, signal).catch((e) => e);
  expect(e.message).toContain("search.formats");
});
