// The language core under plain Node 20: dist/browser/index.js (the browser bundle, which uses
// only atob and WebAssembly) imported as an ES module. Run: node --test test/node/
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { BUNDLE_EXPORTS, BUNDLE_URL, ensureBundle, FIXTURES_MISSING, realLibraryConfig, realSamples } from "../browser/support.mjs";
import { NESTINGS, nestedProgram, repetitionsWithin } from "../support/nestings.mjs";

let lang;
before(async () => {
  await ensureBundle();
  lang = await import(BUNDLE_URL);
  await lang.loadLanguage();
});

const major = Number(process.versions.node.split(".")[0]);

test(`runs on Node ${process.versions.node} (20 or later)`, () => {
  assert.ok(major >= 20);
  assert.equal(typeof atob, "function");
  assert.equal(typeof WebAssembly.instantiate, "function");
});

test("the bundle exports exactly the public API", () => {
  assert.deepEqual(Object.keys(lang).sort(), BUNDLE_EXPORTS);
});

test("parsing before loadLanguage() throws and says what to do; loading twice is harmless", async () => {
  // A second instance of the module (another URL) has its own, not yet loaded, engine.
  const fresh = await import(BUNDLE_URL + "?fresh");
  const library = fresh.compileLibrary({ schema: { $defs: { A: { type: "object", properties: {} } } } });
  assert.throws(() => fresh.parse("root = A()", library), /loadLanguage/);
  assert.throws(() => fresh.createStreamParser(library), /loadLanguage/);
  await fresh.loadLanguage();
  await fresh.loadLanguage();
  assert.equal(fresh.isValid(fresh.parse("root = A()", library)), true);
});

// Early in the file, while the engine runs the module in its first tier (the largest frames).
test("every kind of nesting parses right at the limit (1,200 levels); past it the error says nested too deep", () => {
  const library = lang.compileLibrary({ schema: { $defs: { Stack: { type: "object", properties: { children: { type: "array" } } } } } });
  for (let round = 0; round < 3; round++) {
    for (const kind of NESTINGS) {
      const within = repetitionsWithin(kind, 1200);
      const syntax = lang.parse(nestedProgram(kind, within), library).errors.filter((e) => e.code === "syntax");
      assert.deepEqual(syntax, [], kind.name);
      assert.match(lang.parse(nestedProgram(kind, within + 1), library).errors[0].message, /^nested too deep: expected at most 1200 levels/, kind.name);
    }
  }
});

const reason = FIXTURES_MISSING;
if (reason) console.log(`skipped: real samples: ${reason}`);

test("the seven real samples: six valid, settings-panel breaks the schema five times (type-mismatch)", { skip: reason ?? false }, () => {
  const library = lang.compileLibrary(realLibraryConfig());
  const samples = realSamples();
  assert.equal(Object.keys(samples).length, 7);
  for (const [name, text] of Object.entries(samples)) {
    const result = lang.parse(text, library);
    if (name === "settings-panel.oui") {
      assert.deepEqual(
        result.errors.map((e) => e.code),
        Array(5).fill("type-mismatch"),
        name,
      );
      assert.equal(lang.isValid(result), false);
      for (const e of result.errors) assert.ok(e.component && e.statementId, JSON.stringify(e));
    } else {
      assert.deepEqual(result.errors, [], name);
      assert.equal(lang.isValid(result), true, name);
    }
    assert.equal(result.incomplete, false, name);
    assert.deepEqual(result.unresolved, [], name);
    assert.deepEqual(result.orphaned, [], name);
    assert.equal(result.root?.type, "element", name);
    assert.equal(result.root?.component, "Stack", name);
  }
});

test("streaming in small chunks ends with exactly what parse() reports", { skip: reason ?? false }, () => {
  const library = lang.compileLibrary(realLibraryConfig());
  for (const [name, text] of Object.entries(realSamples())) {
    for (const size of [1, 5, 40]) {
      const stream = lang.createStreamParser(library);
      for (let at = 0; at < text.length; at += size) {
        const partial = stream.push(text.slice(at, at + size));
        assert.ok(Array.isArray(partial.errors));
      }
      assert.deepEqual(stream.end(), lang.parse(text, library), `${name} in chunks of ${size}`);
    }
  }
});

test("isValid is true exactly when errors is empty", () => {
  const library = lang.compileLibrary({
    root: "Box",
    schema: { $defs: { Box: { type: "object", properties: { label: { type: "string" } }, required: ["label"] } } },
  });
  const good = lang.parse('root = Box("hi")', library);
  assert.deepEqual(good.errors, []);
  assert.equal(lang.isValid(good), true);
  for (const text of ["root = Box()", "root = Box(1)", 'root = Box("a", "b")', 'x = Box("hi")', 'root = Box("open', "root = Nope()", "not a program"]) {
    const result = lang.parse(text, library);
    assert.ok(result.errors.length > 0, text);
    assert.equal(lang.isValid(result), false, text);
  }
  // Only `errors` decides: nothing else in the result is consulted.
  assert.equal(lang.isValid({ errors: [], root: null, incomplete: true, unresolved: ["x"], orphaned: ["y"], statements: 0 }), true);
  assert.equal(lang.isValid({ ...good, errors: [{ code: "syntax", message: "m" }] }), false);
});

test("frame() splits bare, fenced and enveloped generations losslessly", () => {
  for (const text of ['root = Box("hi")', 'Here:\n```openui\nroot = Box("hi")\n```\nbye', ']]>service:content\nroot = Box("hi")\n]]>service:meta\n{}']) {
    const { head, program, tail } = lang.frame(text);
    assert.equal(head + program + tail, text);
    assert.equal(program.trim(), 'root = Box("hi")');
  }
});

test("compileLibrary throws a LibraryError listing every problem", () => {
  assert.throws(
    () => lang.compileLibrary({ root: "Nope", schema: { $defs: {} } }),
    (error) => error instanceof lang.LibraryError && error.problems.length >= 2,
  );
});
