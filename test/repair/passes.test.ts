// Autofix reads a generation with one parser pass: the check's, whose inspection the repair
// starts from; a round that mends statements in place parses only those statements again (and
// the result's check is that round's). Counted with the engine's counter of code units handed to
// the parser.
import { expect, test } from "bun:test";
import { compileLibrary, loadLanguage } from "../../src/lang/index.ts";
import { unitsParsed } from "../../src/lang/engine.ts";
import { checkGeneration, runFix } from "../../src/repair/autofix.ts";
import { repair } from "../../src/repair/index.ts";
import { bigGeneration } from "../../bench/server.ts";
import { STACK_TEXT_LIBRARY } from "../support/stack-text-library.ts";

await loadLanguage();
const lib = compileLibrary(STACK_TEXT_LIBRARY);

const valid = bigGeneration();
const middle = valid.indexOf("\nt", valid.length >> 1) + 1;
const lineEnd = valid.indexOf("\n", middle);
const line = valid.slice(middle, lineEnd);
const withLine = (replacement: string) => valid.slice(0, middle) + replacement + valid.slice(lineEnd);

// One error each, in the middle of a ~100k program, and the repair that restores it.
const CASES: Record<string, string> = {
  "misspelt component": withLine(line.replace("Text(", "Txt(")),
  "enum case": withLine(line.replace(/"(small|large)"\)$/, (_, v: string) => `"${v[0].toUpperCase()}${v.slice(1)}")`)),
  "excess argument": withLine(line.replace(/\)$/, ', "extra")')),
  "number as string": withLine(line.replace(/Text\("([^"]*)"/, "Text(42")),
};

for (const [kind, generation] of Object.entries(CASES)) {
  test(`Autofix on a 100k program with one error (${kind}): fixed, with one parser pass and the mended line`, async () => {
    expect(generation).not.toBe(valid);
    const before = unitsParsed();
    const checked = checkGeneration(generation, lib);
    expect(checked.valid).toBe(false);
    const outcome = await runFix({ checked, library: lib, source: {}, context: [], instructions: "", complete: null });
    const units = unitsParsed() - before;
    expect(outcome.status).toBe("fixed");
    if (kind !== "number as string") expect(outcome.content).toBe(valid);
    // The generation once, and the mended line.
    expect(units).toBeLessThanOrEqual(generation.length + 2 * line.length);
  });
}

test("repair() alone, given nothing: the same one pass, and the same outcome as with the check's inspection", () => {
  const generation = CASES["misspelt component"];
  const before = unitsParsed();
  const alone = repair(generation, lib);
  expect(unitsParsed() - before).toBeLessThanOrEqual(generation.length + 2 * line.length);
  const checked = checkGeneration(generation, lib);
  expect(repair(generation, lib, checked)).toEqual(alone);
});

test("an already-valid 100k program: one pass", () => {
  const before = unitsParsed();
  expect(checkGeneration(valid, lib).valid).toBe(true);
  expect(repair(valid, lib).status).toBe("already_valid");
  expect(unitsParsed() - before).toBeLessThanOrEqual(2 * valid.length);
});
