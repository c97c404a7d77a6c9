// The nesting scanner against the parser's own reading: for any JSON text, it answers "deeper than
// d" exactly when the parsed value nests deeper than d, whatever the strings hold.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../src/client/json-depth.ts";

function depth(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depth));
}

// Strings heavy in the characters that could fool a scanner: quotes, backslashes, brackets.
const tricky = fc.string({ unit: fc.constantFrom('"', "\\", "[", "]", "{", "}", "a", "é", "😀", "\n"), maxLength: 12 });

test("agrees with JSON.parse on any JSON text, as a string and as UTF-8 bytes", () => {
  const value = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: "medium" },
      tricky,
      fc.integer(),
      fc.constant(null),
      fc.array(tie("v"), { maxLength: 3 }),
      fc.dictionary(tricky, tie("v"), { maxKeys: 3 }),
    ),
  })).v;
  fc.assert(
    fc.property(value, fc.boolean(), (v, spaced) => {
      const text = JSON.stringify(v, null, spaced ? 1 : undefined);
      const d = depth(JSON.parse(text));
      for (const max of [Math.max(0, d - 1), d]) {
        expect(nestsDeeperThan(text, max)).toBe(d > max);
        expect(nestsDeeperThan(new TextEncoder().encode(text), max)).toBe(d > max);
      }
    }),
    { numRuns: 3000 },
  );
});

test("the bound itself, and strings that only look deep", () => {
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
  expect(nestsDeeperThan(deep(MAX_JSON_DEPTH))).toBe(false);
  expect(nestsDeeperThan(deep(MAX_JSON_DEPTH + 1))).toBe(true);
  expect(nestsDeeperThan(JSON.stringify({ a: '[[[[[[[[\\"[[[[', b: ['{{{{"{{{{'] }), 2)).toBe(false);
  expect(nestsDeeperThan('["\\\\",[[1]]]', 2)).toBe(true);
  expect(nestsDeeperThan('["unterminated [[[[', 0)).toBe(true);
  expect(nestsDeeperThan('"unterminated [[[[', 0)).toBe(false);
});

test("few brackets in all are counted, not scanned; more are scanned, in strings or not", () => {
  const body = (program: string) => JSON.stringify({ messages: [{ role: "assistant", content: program }] });
  const flat = 'root = Stack([a, b])\na = Text("x [ { ", "small")\n'.repeat(200);
  // Over the bound in strings (not nesting): scanned, and not deep.
  expect(nestsDeeperThan(body(flat))).toBe(false);
  expect(nestsDeeperThan(body("x"), 3)).toBe(false);
  expect(nestsDeeperThan(body("x"), 2)).toBe(true);
  expect(nestsDeeperThan("[[1]]", 2)).toBe(false);
  expect(nestsDeeperThan("[[[1]]]", 2)).toBe(true);
  expect(nestsDeeperThan(new TextEncoder().encode("[{}]"), 1)).toBe(true);
  expect(nestsDeeperThan(new TextEncoder().encode("[1]"), 1)).toBe(false);
});
