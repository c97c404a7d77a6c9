// `npm run build:grammar`: grammar/ui.ohm and the verdict's table layout (verdict-layout.ts) →
// src/lang/generated/{ui.wasm, ui-wasm.ts, rules.ts, verdict-layout.ts} and src/grammar/generated/verdict-layout.as.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildGrammar, LAYOUT_AS } from "./wasm.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const grammarSource = await readFile(root + "grammar/ui.ohm", "utf8");
const built = await buildGrammar(grammarSource);
const out = root + "src/lang/generated/";
await writeFile(out + "ui.wasm", built.wasm);
await writeFile(out + "ui-wasm.ts", built.wasmModule);
await writeFile(out + "rules.ts", built.rulesModule);
await writeFile(out + "verdict-layout.ts", built.layoutModule);
await mkdir(root + "src/grammar/generated", { recursive: true });
await writeFile(`${root}src/grammar/${LAYOUT_AS}.as`, built.layoutAs);
console.log(`grammar/ui.ohm → src/lang/generated/ui.wasm (${built.wasm.length} bytes, ${built.rules.length} rules)`);
