// The committed parser is what the grammar compiles to: no hand-kept copy can drift.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "bun:test";
import { buildGrammar } from "../../src/grammar/wasm.ts";

const here = (path: string) => new URL(`../../${path}`, import.meta.url);

test("regenerating from grammar/ui.ohm gives the committed bytes and modules", async () => {
  const built = await buildGrammar(readFileSync(here("grammar/ui.ohm"), "utf8"));
  assert.ok(Buffer.from(built.wasm).equals(readFileSync(here("src/lang/generated/ui.wasm"))), "ui.wasm is stale: run npm run build:grammar");
  assert.equal(built.wasmModule, readFileSync(here("src/lang/generated/ui-wasm.ts"), "utf8"));
  assert.equal(built.rulesModule, readFileSync(here("src/lang/generated/rules.ts"), "utf8"));
}, 60_000);
