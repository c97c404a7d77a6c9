// `npm run build:grammar`: grammar/ui.ohm → src/lang/generated/{ui.wasm, ui-wasm.ts, rules.ts}.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildGrammar } from "./wasm.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const grammarSource = await readFile(root + "grammar/ui.ohm", "utf8");
const built = await buildGrammar(grammarSource);
const out = root + "src/lang/generated/";
await writeFile(out + "ui.wasm", built.wasm);
await writeFile(out + "ui-wasm.ts", built.wasmModule);
await writeFile(out + "rules.ts", built.rulesModule);
console.log(`grammar/ui.ohm → src/lang/generated/ui.wasm (${built.wasm.length} bytes, ${built.rules.length} rules)`);
