// compileLibrary answers every JSON value: a Library, or a LibraryError whose problems name the
// schema path. And what it accepts, everything downstream (checker, stream, repair, both prompts)
// can read without throwing: those read the library's JSON as the compiler let it through.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { compileLibrary, createStreamParser, LibraryError, loadLanguage, parse, type Library } from "../../src/lang/index.ts";
import { MAX_LIBRARY_DEPTH } from "../../src/lang/library.ts";
import { assembleSystemPrompt } from "../../src/prompt/index.ts";
import { buildFixPrompt } from "../../src/repair/fix-prompt.ts";
import { repair } from "../../src/repair/index.ts";

await loadLanguage();

// Schema-like values: each keyword mostly with a value of the right shape, sometimes with any
// JSON at all, so that both sides (accepted and refused) are reached often.
const json = fc.jsonValue({ maxDepth: 2 });
const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 25 }, { arbitrary: json, weight: 1 });
const TYPES = ["string", "number", "integer", "boolean", "null", "array", "object"];
const entry = (key: string, value: fc.Arbitrary<unknown>) => value.map((v) => [key, v] as const);
const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "xsmall", withCrossShrink: true },
    { arbitrary: json, weight: 1 },
    {
      weight: 40,
      // One to three keywords, each mostly with a value of the right shape.
      arbitrary: fc
        .array(
          fc.oneof(
            entry("type", mostly(fc.oneof(fc.constantFrom(...TYPES), fc.array(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 2 })))),
            entry("enum", mostly(fc.array(json, { maxLength: 3 }))),
            entry("const", json),
            entry("items", tie("schema")),
            entry("properties", mostly(fc.dictionary(fc.constantFrom("a", "b", "toString", "__proto__"), tie("schema"), { maxKeys: 2 }))),
            entry("required", mostly(fc.array(fc.constantFrom("a", "b"), { maxLength: 2 }))),
            entry("anyOf", mostly(fc.array(tie("schema"), { minLength: 1, maxLength: 2 }))),
            entry("oneOf", mostly(fc.array(tie("schema"), { minLength: 1, maxLength: 2 }))),
            entry("$ref", mostly(fc.constantFrom("#/$defs/A", "#/$defs/A", "#/$defs/A", "#/$defs/Nope"))),
            entry("default", json),
            entry("description", json),
            entry("minimum", json),
          ),
          { maxLength: 3 },
        )
        .map((entries) => Object.fromEntries(entries)),
    },
  ),
}));

const component = fc.oneof(
  { arbitrary: schema, weight: 1 },
  {
    weight: 6,
    arbitrary: fc.record(
      {
        properties: fc.record({ a: schema, b: schema, constructor: schema }, { requiredKeys: ["a"] }),
        required: mostly(fc.constantFrom([], ["a"], ["a"], ["toString"])),
        description: json,
      },
      { requiredKeys: ["properties"] },
    ),
  },
);

const library = fc.record(
  {
    root: mostly(fc.constantFrom("A", "A", "A", "Nope")),
    schema: mostly(fc.record({ $defs: fc.record({ A: component, B: component }, { requiredKeys: ["A"] }) })),
    componentGroups: mostly(
      fc.array(fc.record({ name: json, components: fc.array(fc.constantFrom("A", "A", "A", "Nope"), { maxLength: 2 }), notes: json }), { maxLength: 2 }),
    ),
    id: mostly(fc.string()),
  },
  { requiredKeys: [] },
);

const PROGRAMS = [
  "root = A()",
  'root = A(1, "x", [1, 2], {a: 1}, null, true)',
  'root = A(B(), [A(), b])\nb = B([1], "s")',
  'root = a("lower")',
  'root = A("unclosed',
];

/** Every use the service makes of an accepted library; none may throw. */
function exerciseEverywhere(lib: Library, source: Record<string, unknown>): void {
  for (const program of PROGRAMS) {
    parse(program, lib);
    const stream = createStreamParser(lib);
    for (let i = 0; i < program.length; i += 7) stream.push(program.slice(i, i + 7));
    stream.end();
    const outcome = repair(program, lib);
    buildFixPrompt({ library: source, program, errors: outcome.unfixed_errors, context: [] });
  }
  assembleSystemPrompt({ library: source, checkExample: (p) => parse(p, lib).errors.length === 0 });
}

function compiles(config: unknown): Library | string[] {
  try {
    return compileLibrary(config);
  } catch (e) {
    expect(e).toBeInstanceOf(LibraryError);
    const { problems } = e as LibraryError;
    expect(problems.length).toBeGreaterThan(0);
    return problems;
  }
}

test("any JSON value at all: a Library or a LibraryError, never another exception", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
      compiles(value);
      compiles({ schema: { $defs: { A: value } } });
      compiles({ schema: { $defs: { A: { properties: { p: value } } } } });
    }),
    { numRuns: 2000 },
  );
});

test("schema-like libraries: accepted ones work everywhere downstream; refused ones name a path for each problem", () => {
  let accepted = 0;
  fc.assert(
    fc.property(library, (config) => {
      const result = compiles(config);
      if (Array.isArray(result)) {
        for (const p of result) expect(p).toMatch(/`[^`]+`/);
        return;
      }
      accepted++;
      exerciseEverywhere(result, config as Record<string, unknown>);
    }),
    { numRuns: 2000 },
  );
  expect(accepted).toBeGreaterThan(60); // the generator reaches the accepting side too
});

const only = (config: unknown) => {
  const result = compiles(config);
  expect(Array.isArray(result)).toBe(true);
  return (result as string[]).join("\n");
};
const withProp = (p: unknown) => ({ schema: { $defs: { A: { properties: { p } } } } });

test("the schemas from the issue: each a LibraryError naming where", () => {
  expect(only(withProp({ enum: 5 }))).toContain("`$defs.A.properties.p.enum` must be an array, got the number 5");
  expect(only(withProp({ anyOf: "xyz" }))).toContain('`$defs.A.properties.p.anyOf` must be a non-empty array of schemas, got the string "xyz"');
  expect(only(withProp({ anyOf: [null] }))).toContain("`$defs.A.properties.p.anyOf[0]` must be a JSON Schema object, got null");
  expect(only(withProp({ items: "x" }))).toContain('`$defs.A.properties.p.items` must be a JSON Schema object, got the string "x"');
  expect(only(withProp({ $ref: 5 }))).toContain("`$defs/A/properties/p` has $ref 5, which is not #/$defs/<a component>");
  expect(only({ schema: { $defs: { A: { properties: { a: null } } } } })).toContain("`$defs.A.properties.a` must be a JSON Schema object, got null");
  expect(only(withProp({ type: ["string", 5] }))).toContain("`$defs.A.properties.p.type` must be one of");
  expect(only({ schema: { $defs: { A: { properties: {}, required: "a" } } } })).toContain("`$defs.A.required` must be an array of property names");
  expect(only({ schema: { $defs: { A: { properties: {}, required: ["toString"] } } } })).toContain("names `toString`, which is not a property");
});

test("items nested 20,000 deep: a LibraryError naming the path where the bound was passed", () => {
  let items: unknown = { type: "string" };
  for (let i = 0; i < 20_000; i++) items = { type: "array", items };
  const problems = only(withProp(items));
  expect(problems).toStartWith("`schema.$defs.A.properties.p.items.items.");
  expect(problems).toEndWith(`\` nests arrays and objects more than ${MAX_LIBRARY_DEPTH} deep`);
  // Within the bound it compiles.
  let fine: unknown = { type: "string" };
  for (let i = 0; i < MAX_LIBRARY_DEPTH - 7; i++) fine = { type: "array", items: fine };
  expect(compiles(withProp(fine))).not.toBeArray();
});
