// The committed parser is what the grammar compiles to, and the verdict tables' layout constants
// (writer's and reader's) what their one declaration renders: no hand-kept copy can drift.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "bun:test";
import { buildGrammar, LAYOUT_AS, type BuiltGrammar } from "../../src/grammar/wasm.ts";
import { layoutAssemblyScript, layoutModule, VERDICT_LAYOUT } from "../../src/grammar/verdict-layout.ts";

const here = (path: string) => new URL(`../../${path}`, import.meta.url);

/** The committed generated files that differ from `built` (what `npm run build:grammar` would write). */
function staleFiles(built: Pick<BuiltGrammar, "wasm" | "wasmModule" | "rulesModule" | "layoutModule" | "layoutAs">): string[] {
  const text: [string, string][] = [
    ["src/lang/generated/ui-wasm.ts", built.wasmModule],
    ["src/lang/generated/rules.ts", built.rulesModule],
    ["src/lang/generated/verdict-layout.ts", built.layoutModule],
    [`src/grammar/${LAYOUT_AS}.as`, built.layoutAs],
  ];
  const stale = text.filter(([path, want]) => readFileSync(here(path), "utf8") !== want).map(([path]) => path);
  if (!Buffer.from(built.wasm).equals(readFileSync(here("src/lang/generated/ui.wasm")))) stale.unshift("src/lang/generated/ui.wasm");
  return stale;
}

test("regenerating from grammar/ui.ohm and the table layout gives the committed bytes and modules", async () => {
  const built = await buildGrammar(readFileSync(here("grammar/ui.ohm"), "utf8"));
  assert.deepEqual(staleFiles(built), [], "stale generated files: run npm run build:grammar");
}, 60_000);

test("a change to the table layout's declaration shows as stale files for the writer and the reader", () => {
  // Two fields of a shape swapped: what the writer and the reader would be generated from now.
  const records = VERDICT_LAYOUT.records.map((r) => (r.prefix === "S" ? { ...r, fields: ["KINDS", "FLAGS", ...r.fields.slice(2)] } : r));
  const moved = { ...VERDICT_LAYOUT, records };
  const stale = staleFiles({
    wasm: readFileSync(here("src/lang/generated/ui.wasm")),
    wasmModule: readFileSync(here("src/lang/generated/ui-wasm.ts"), "utf8"),
    rulesModule: readFileSync(here("src/lang/generated/rules.ts"), "utf8"),
    layoutModule: layoutModule(moved),
    layoutAs: layoutAssemblyScript(moved),
  });
  assert.deepEqual(stale, ["src/lang/generated/verdict-layout.ts", `src/grammar/${LAYOUT_AS}.as`]);
  assert.match(layoutModule(moved), /export const S_KINDS = 0;\nexport const S_FLAGS = 1;/);
  assert.match(layoutAssemblyScript(moved), /export const S_KINDS: i32 = 0;\nexport const S_FLAGS: i32 = 1;/);
});

test("a name declared twice in the layout is refused", () => {
  const records = VERDICT_LAYOUT.records.map((r) => (r.prefix === "C" ? { ...r, fields: [...r.fields, "PROPS"] } : r));
  assert.throws(() => layoutModule({ ...VERDICT_LAYOUT, records }), /C_PROPS is declared twice/);
});
