// The library of a config block is compiled once per distinct block text, over real HTTP, and the
// cache is bounded (least recently used first out).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeConfigBlock } from "../../../../src/client/config-block.ts";
import { LIBRARY_CACHE_ENTRIES, libraryCacheStats, readConfig } from "../../../../src/server/managed/library.ts";
import { autofixBody, BROKEN, post, SMALL_LIBRARY, startHarness, VALID, type Harness } from "../../harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test("Autofix compiles a block's library once, however often it comes", async () => {
  const key = await h.org("cache", 10);
  const block = writeConfigBlock({ chatLibrary: SMALL_LIBRARY }, `instructions that make this block new ${Math.random()}`);
  const body = (generation: string) => ({
    messages: [
      { role: "system", content: block },
      { role: "assistant", content: generation },
    ],
  });
  const before = libraryCacheStats().compilations;
  for (const g of [VALID, BROKEN, VALID, BROKEN, VALID]) expect((await post(h.base, "/v1/autofix", key, body(g))).status).toBe(200);
  expect(libraryCacheStats().compilations - before).toBe(1);
  // Another block (here the harness's own) is another compilation, once.
  const other = libraryCacheStats().compilations;
  for (let i = 0; i < 3; i++) await post(h.base, "/v1/autofix", key, autofixBody(VALID));
  expect(libraryCacheStats().compilations - other).toBeLessThanOrEqual(1);
  // A malformed library is a 400 every time, never cached as if it compiled.
  const bad = writeConfigBlock({ chatLibrary: { root: "Nope", schema: { $defs: {} } } });
  for (let i = 0; i < 2; i++) {
    const res = await post(h.base, "/v1/autofix", key, {
      messages: [
        { role: "system", content: bad },
        { role: "assistant", content: VALID },
      ],
    });
    expect(res.status).toBe(400);
  }
});

test("the cache is bounded: the least recently used block is compiled again", () => {
  const block = (i: number) => writeConfigBlock({ chatLibrary: SMALL_LIBRARY }, `bounded ${i}`);
  const first = readConfig(block(0), "p");
  expect(readConfig(block(0), "p")).toBe(first);
  for (let i = 1; i < LIBRARY_CACHE_ENTRIES; i++) readConfig(block(i), "p");
  readConfig(block(0), "p"); // used again: now the most recent
  readConfig(block(LIBRARY_CACHE_ENTRIES), "p"); // evicts block 1, not block 0
  expect(libraryCacheStats().entries).toBe(LIBRARY_CACHE_ENTRIES);
  const n = libraryCacheStats().compilations;
  expect(readConfig(block(0), "p")).toBe(first);
  expect(libraryCacheStats().compilations).toBe(n);
  readConfig(block(1), "p");
  expect(libraryCacheStats().compilations).toBe(n + 1);
});
