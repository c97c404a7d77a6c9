// A call written in lower case is a component call to rename, never a line to delete; a result
// that dropped what a rename could have kept is not a fix (the fixing model gets the original).
import { expect, test } from "bun:test";
import { compileLibrary, loadLanguage } from "../../src/lang/index.ts";
import { repair } from "../../src/repair/index.ts";
import { checkGeneration, runFix } from "../../src/repair/autofix.ts";
import { lowerCaseCalls, renameLowerCaseCalls } from "../../src/repair/rename.ts";
import type { PromptTurn } from "../../src/repair/fix-prompt.ts";

await loadLanguage();
// The README's Autofix example library.
const source = {
  root: "Stack",
  schema: {
    $defs: {
      Stack: { properties: { children: { type: "array" } }, required: ["children"] },
      Text: { properties: { text: { type: "string" } }, required: ["text"] },
    },
  },
};
const lib = compileLibrary(source);

test('the README\'s example: `t = text("Hello")` is renamed to Text, not deleted', () => {
  const out = repair('root = Stack([t])\nt = text("Hello")', lib);
  expect(out.status).toBe("fixed");
  expect(out.content).toBe('root = Stack([t])\nt = Text("Hello")');
  expect(out.fixed_errors.map((e) => e.code)).toEqual(["syntax"]);
});

test("nested lower-case calls, a builtin without its @, and a line with no root", () => {
  expect(repair('root = stack([text("a"), t])\nt = text(count([1, 2]) + " items")', lib).content).toBe(
    'root = Stack([Text("a"), t])\nt = Text(@Count([1, 2]) + " items")',
  );
  expect(repair('t = text("Hello")', lib)).toMatchObject({ status: "fixed", content: 'root = Stack([t])\nt = Text("Hello")' });
});

test("names inside strings, comments, members, state and builtins are left alone", () => {
  expect(lowerCaseCalls('a = x.map(1) + $s(2) + @each(3) + "f(4)" // g(5)\n').map((c) => c.name)).toEqual([]);
  expect(lowerCaseCalls("a = f (1) + g(h(2))").map((c) => c.name)).toEqual(["f", "g", "h"]);
  expect(renameLowerCaseCalls('a = gizmo("x")', lib)).toBeNull();
});

test("a result that dropped what a rename could have kept is fix_failed, with the generation's errors", () => {
  // `Text()` still misses its text: the line cannot be saved by the sanitizer, and dropping it
  // (and the reference to it) would leave a valid but empty page.
  const generation = "root = Stack([t])\nt = text()";
  const out = repair(generation, lib);
  expect(out.status).toBe("fix_failed");
  expect(out.content).toBeNull();
  expect(out.unfixed_errors.map((e) => `${e.code} ${e.statementId}`)).toEqual(["syntax t"]);
});

test("then the fixing model is given the original program", async () => {
  const generation = "Here:\n```\nroot = Stack([t])\nt = text()\n```\n";
  const seen: PromptTurn[][] = [];
  const outcome = await runFix({
    checked: checkGeneration(generation, lib),
    library: lib,
    source,
    context: [],
    instructions: "",
    complete: async (messages) => {
      seen.push(messages);
      return { content: 'root = Stack([t])\nt = Text("")', usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
    },
  });
  expect(seen).toHaveLength(1);
  expect(seen[0][1].content).toContain("Program to repair:\nroot = Stack([t])\nt = text()\n");
  expect(outcome).toMatchObject({ status: "fixed", by: "model", content: 'Here:\n```\nroot = Stack([t])\nt = Text("")\n```\n' });
});
