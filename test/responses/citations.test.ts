import { expect, test } from "bun:test";
import { citationsIn } from "../../src/responses/citations.ts";

const sources = [
  { url: "https://en.wikipedia.org/wiki/Lighthouse", title: "Lighthouse - Wikipedia" },
  { url: "https://www.nps.gov/articles/lighthouses.htm", title: "NPS" },
];

test("a markdown link is cited whole; a bare URL by itself; unused sources not at all", () => {
  const text = "Towers of light ([Wikipedia](https://en.wikipedia.org/wiki/Lighthouse)). See https://en.wikipedia.org/wiki/Lighthouse too.";
  const c = citationsIn(text, sources);
  expect(c).toHaveLength(2);
  expect(text.slice(c[0]!.start_index, c[0]!.end_index)).toBe("[Wikipedia](https://en.wikipedia.org/wiki/Lighthouse)");
  expect(text.slice(c[1]!.start_index, c[1]!.end_index)).toBe("https://en.wikipedia.org/wiki/Lighthouse");
  expect(c[0]).toMatchObject({ type: "url_citation", title: "Lighthouse - Wikipedia" });
});

test("a URL that only starts a longer one is not a citation", () => {
  expect(citationsIn("https://en.wikipedia.org/wiki/Lighthouse_keeper", sources)).toEqual([]);
  expect(citationsIn("no links here", sources)).toEqual([]);
});
