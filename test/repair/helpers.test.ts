import { describe, expect, test } from "bun:test";
import { applyEdits, removeLines } from "../../src/repair/edits.ts";
import { closeEnough, distance, nearest } from "../../src/repair/nearest.ts";
import { closings, leftOutBracket } from "../../src/repair/balance.ts";
import { balance } from "../../src/lang/autoclose.ts";

describe("nearest", () => {
  test("case-insensitive distance with transpositions", () => {
    expect(distance("TextContnet", "TextContent")).toBe(1);
    expect(distance("stack", "Stack")).toBe(0);
    expect(distance("Stak", "Stack")).toBe(1);
    expect(distance("", "abc")).toBe(3);
  });
  test("closest within the limit, deterministic ties", () => {
    expect(nearest("Buton", ["Buttons", "Button"])).toBe("Button");
    expect(nearest("Foo", ["Stack", "Card"])).toBeNull();
    expect(closeEnough("ab")).toBe(2);
    expect(closeEnough("MarkDownRenderer")).toBe(5);
    // "sm" is one edit from both "s" and "m": the longer shared prefix wins.
    expect(nearest("sm", ["m", "s"])).toBe("s");
  });
});

describe("edits", () => {
  test("splices by offset and keeps everything else", () => {
    expect(
      applyEdits("abcdef", [
        { start: 1, end: 3, text: "X" },
        { start: 4, end: 4, text: "Y" },
      ]).text,
    ).toBe("aXdYef");
  });
  test("an overlapping later edit waits for the next round", () => {
    const out = applyEdits("abcdef", [
      { start: 1, end: 4, text: "X" },
      { start: 2, end: 5, text: "Z" },
    ]);
    expect(out).toEqual({ text: "aXef", applied: 1, kept: [{ start: 1, end: 4, text: "X" }] });
  });
  test("an insertion after a replacement that ends where it starts", () => {
    expect(
      applyEdits("a(b)c", [
        { start: 4, end: 4, text: "!" },
        { start: 1, end: 4, text: "[]" },
      ]).text,
    ).toBe("a[]!c");
  });
  test("removing lines: the line with its break, or the break before the last line", () => {
    const t = "a = 1\nb = 2\nc = 3";
    expect(applyEdits(t, [removeLines(t, 6, 11, 0, t.length)]).text).toBe("a = 1\nc = 3");
    expect(applyEdits(t, [removeLines(t, 12, 17, 0, t.length)]).text).toBe("a = 1\nb = 2");
    const crlf = "a = 1\r\nb = 2";
    expect(applyEdits(crlf, [removeLines(crlf, 7, 12, 0, crlf.length)]).text).toBe("a = 1");
  });
});

describe("balance", () => {
  test("closes strings and brackets innermost first", () => {
    expect(balance('x = A([B("hi').closers).toBe('")])');
    expect(balance('x = A("a)b", [1, 2').closers).toBe("])");
    expect(balance("x = A(1) # (comment").closers).toBe("");
  });
  test("cut-back candidates drop the last partial item", () => {
    expect(closings('x = A([1, 2, B("h')).toEqual(['x = A([1, 2, B("h")])', "x = A([1, 2])", "x = A([1])"]);
  });
  test("a bracket left out, shown by a closer that met another opener: each place it may go; a closer too many, taken out", () => {
    expect(balance('x = A([1, B(2, 3), "s")').mismatch).toEqual({ at: 22, wanted: "]", from: 6, depth: 2 });
    // The `]` due: before each comma of its bracket, last first, then before the `)`; or the `(`
    // of that `)` left out: after the `[`, then after each comma, first first.
    expect(leftOutBracket('x = A([1, B(2, 3), "s")')).toEqual([
      'x = A([1, B(2, 3)], "s")',
      'x = A([1], B(2, 3), "s")',
      'x = A([1, B(2, 3), "s"])',
      'x = A([(1, B(2, 3), "s")',
      'x = A([1, (B(2, 3), "s")',
      'x = A([1, B(2, 3), ("s")',
    ]);
    expect(leftOutBracket('x = A(1, 2], "s")')).toContain('x = A([1, 2], "s")');
    expect(leftOutBracket('x = A([1], "s"))')).toEqual(['x = A([1], "s")']);
    // In a long list only the few places nearest each end are tried.
    const long = `x = A([${Array.from({ length: 100 }, (_, i) => i).join(", ")}, "s")`;
    expect(leftOutBracket(long).length).toBe(2 * 8 + 2);
    // Brackets inside strings are text; a closer that meets its own opener is no mismatch.
    expect(balance('x = A(["a)", 1], "b]")').mismatch).toBeNull();
    expect(leftOutBracket('x = A([1, 2], "s")')).toEqual([]);
  });
});
