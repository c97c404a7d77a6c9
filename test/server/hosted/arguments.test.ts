// The model's arguments to a hosted tool, read with a schema: what fits comes out trimmed, and
// anything else (not JSON, not an object, a field missing, empty or of another type) is null.
import { expect, test } from "bun:test";
import { readArguments } from "../../../src/server/hosted/arguments.ts";
import { ARTIFACT_ARGUMENTS as EDIT } from "../../../src/server/hosted/artifact/tool.ts";
import { SEARCH_ARGUMENTS as QUERY } from "../../../src/server/hosted/search/tool.ts";

test("arguments that fit come out trimmed; extra fields are dropped", () => {
  expect(readArguments(QUERY, '  {"query": "  lighthouse "}  ')).toEqual({ query: "lighthouse" });
  expect(readArguments(QUERY, '{"query": "pharos", "limit": 3}')).toEqual({ query: "pharos" });
  expect(readArguments(EDIT, '{"instruction": " Shorter ", "artifact_id": " art_1 "}')).toEqual({ instruction: "Shorter", artifact_id: "art_1" });
});

test("anything else is null, never a throw", () => {
  for (const text of ["", "   ", "{", "null", "[]", '"lighthouse"', "42", '{"query": ""}', '{"query": "   "}', '{"query": 7}', '{"q": "x"}']) {
    expect(readArguments(QUERY, text)).toBeNull();
  }
});

test("an optional field that is empty or of another type is absent, not a failure", () => {
  expect(readArguments(EDIT, '{"instruction": "Shorter", "artifact_id": ""}')).toEqual({ instruction: "Shorter", artifact_id: undefined });
  expect(readArguments(EDIT, '{"instruction": "Shorter", "artifact_id": 12}')).toEqual({ instruction: "Shorter", artifact_id: undefined });
  expect(readArguments(EDIT, '{"artifact_id": "art_1"}')).toBeNull();
});
