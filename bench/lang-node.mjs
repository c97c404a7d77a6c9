// Language-core benchmark under Node 20, against the browser bundle dist/browser/index.js (build
// it with `npm run build`, or `npx bun src/build/lang-bundle.ts`). Same workloads and tables as
// bench/lang.ts (shared in bench/lang-workload.mjs).
// Run: node --expose-gc bench/lang-node.mjs [oneshot] [samples] [stream] [long] (default: all four).
// Never fails on timings; exits 0.
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runLangBench } from "./lang-workload.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BUNDLE = ROOT + "dist/browser/index.js";

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(`${path}/${name}`)));
}

if (!existsSync(BUNDLE)) {
  console.log(`language bench (Node) skipped: ${BUNDLE} is missing; build it with \`npm run build\` (or \`npx bun src/build/lang-bundle.ts\`)`);
} else {
  if (statSync(BUNDLE).mtimeMs < newest(ROOT + "src/lang"))
    console.log(`note: ${BUNDLE} is older than src/lang; rebuild it with \`npx bun src/build/lang-bundle.ts\``);
  const lang = await import(pathToFileURL(BUNDLE).href);
  const gc = typeof globalThis.gc === "function" ? () => globalThis.gc() : undefined;
  if (!gc) console.log("note: run node with --expose-gc for heap figures after a full collection");
  const sections = process.argv.slice(2);
  await runLangBench({ lang, runtime: `Node ${process.versions.node} (dist/browser/index.js)`, gc, ...(sections.length ? { sections } : {}) });
}
