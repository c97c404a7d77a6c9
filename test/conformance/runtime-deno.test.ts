// The language core from its TypeScript sources under whichever runtime runs the suite (Deno via
// `deno task test`, Bun via `bun test`): the packages the suite needs resolve from ./node_modules
// with bare specifiers, and the real samples give the expected answers.
import assert from "node:assert/strict";
import { test, skip } from "../support/harness.ts";
import { FIXTURES_MISSING, realLibraryConfig, realSamples } from "../support/fixtures.ts";
import { NESTINGS, nestedProgram, repetitionsWithin } from "../support/nestings.mjs";
import { compileLibrary, createStreamParser, isValid, loadLanguage, parse } from "../../src/lang/index.ts";
import { MAX_NESTING } from "../../src/lang/generated/rules.ts";

const g = globalThis as { Deno?: { version: { deno: string } }; Bun?: { version: string } };
const runtime = g.Deno ? `Deno ${g.Deno.version.deno}` : g.Bun ? `Bun ${g.Bun.version}` : "an unknown runtime";

await loadLanguage();

test(`${runtime}: ohm-js, fast-check and @openuidev/lang-core resolve from node_modules`, async () => {
  const ohm = await import("ohm-js");
  const fc = await import("fast-check");
  const langCore = await import("@openuidev/lang-core");
  assert.equal(typeof ohm.grammar, "function");
  assert.equal(typeof fc.default.assert, "function");
  assert.equal(typeof langCore.createStreamingParser, "function");
  assert.equal(typeof langCore.createParser, "function");
});

test(`${runtime}: the language loads and checks a small program`, () => {
  const library = compileLibrary({
    root: "Box",
    schema: { $defs: { Box: { type: "object", properties: { label: { type: "string" } }, required: ["label"] } } },
  });
  assert.equal(isValid(parse('root = Box("hi")', library)), true);
  assert.deepEqual(
    parse("root = Box(1)", library).errors.map((e) => [e.code, e.path, e.component]),
    [["type-mismatch", "/label", "Box"]],
  );
});

// Early in the file, while the engine runs the module in its first tier (the largest frames).
test(`${runtime}: every kind of nesting parses right at the limit; past it the error says nested too deep`, () => {
  const library = compileLibrary({ schema: { $defs: { Stack: { type: "object", properties: { children: { type: "array" } } } } } });
  for (let round = 0; round < 3; round++) {
    for (const kind of NESTINGS) {
      const within = repetitionsWithin(kind, MAX_NESTING);
      assert.deepEqual(
        parse(nestedProgram(kind, within), library).errors.filter((e) => e.code === "syntax"),
        [],
        kind.name,
      );
      assert.match(parse(nestedProgram(kind, within + 1), library).errors[0].message, /^nested too deep/, kind.name);
    }
  }
});

if (FIXTURES_MISSING) {
  skip(`${runtime}: the seven real samples`, FIXTURES_MISSING);
} else {
  test(`${runtime}: the seven real samples: six valid, settings-panel five type-mismatch; end() == parse()`, () => {
    const library = compileLibrary(realLibraryConfig());
    const samples = realSamples();
    assert.equal(Object.keys(samples).length, 7);
    for (const [name, text] of Object.entries(samples)) {
      const result = parse(text, library);
      const expected = name === "settings-panel.oui" ? Array(5).fill("type-mismatch") : [];
      assert.deepEqual(
        result.errors.map((e) => e.code),
        expected,
        name,
      );
      assert.equal(isValid(result), expected.length === 0, name);
      const stream = createStreamParser(library);
      for (let at = 0; at < text.length; at += 9) stream.push(text.slice(at, at + 9));
      assert.deepEqual(stream.end(), result, `${name}: end() after chunks of 9`);
    }
  });
}
