// The texts a sanitize run has made: found again whatever string holds them, told apart by
// length first and then by content.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { TextsSeen } from "../../src/repair/sanitize.ts";

test("holds exactly the texts added, as a set of strings does", () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: fc.constantFrom("a", "b", "\n"), maxLength: 4 }), { maxLength: 12 }),
      fc.array(fc.string({ unit: fc.constantFrom("a", "b", "\n"), maxLength: 4 })),
      (added, asked) => {
        const seen = new TextsSeen();
        for (const t of added) seen.add(t);
        const set = new Set(added);
        for (const t of [...asked, ...added]) expect(seen.has(t)).toBe(set.has(t));
      },
    ),
    { numRuns: 500 },
  );
});

test("a text made again by other means (a splice, a copy) is found", () => {
  const text = `root = Stack([a])\n${'a = Text("x", "small")\n'.repeat(2000)}`;
  const seen = new TextsSeen();
  seen.add(text);
  const spliced = `${text.slice(0, 100)}${text.slice(100, 101)}${text.slice(101)}`;
  expect(seen.has(spliced)).toBe(true);
  expect(seen.has(`${text.slice(0, 100)}X${text.slice(101)}`)).toBe(false);
  expect(seen.has(text.slice(1))).toBe(false);
});
