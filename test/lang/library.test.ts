import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { compileLibrary, LibraryError } from "../../src/lang/index.ts";
import { SMALL_LIBRARY } from "./library-fixture.ts";

function problems(config: unknown): string[] {
  try {
    compileLibrary(config);
  } catch (error) {
    assert.ok(error instanceof LibraryError);
    return error.problems;
  }
  assert.fail("expected a LibraryError");
}

test("compileLibrary keeps positional order, required and defaults", () => {
  const lib = compileLibrary(SMALL_LIBRARY);
  assert.deepEqual(
    lib.components.get("Text")!.props.map((p) => [p.name, p.required, p.hasDefault]),
    [
      ["text", true, false],
      ["size", true, true],
    ],
  );
  assert.equal(lib.root, "Stack");
});

test("compileLibrary lists every problem at once", () => {
  assert.deepEqual(problems(null), ["the library must be a JSON object"]);
  assert.equal(problems({ schema: { $defs: {} } }).length, 1);
  const many = problems({
    root: "Nope",
    schema: { $defs: { A: { properties: { x: { $ref: "#/$defs/B" }, y: { items: { $ref: "elsewhere" } } } } } },
    componentGroups: [{ name: "g", components: ["A", "Missing"] }],
  });
  assert.equal(many.length, 4, JSON.stringify(many));
  assert.ok(many.some((p) => p.includes("#/$defs/B")));
  assert.ok(many.some((p) => p.includes("Nope")));
  assert.ok(many.some((p) => p.includes("Missing")));
});
