#!/usr/bin/env node
// `tessera` for npm/npx: a Node shim that runs the TypeScript CLI with the project's own Bun
// (node_modules/.bin/bun of this package), falling back to `bun` on PATH. ESM: package.json says "type": "module".
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const bunName = process.platform === "win32" ? "bun.exe" : "bun";
// This package's own node_modules, then each one above it: installed as a dependency, the
// package sits at <app>/node_modules/@tessera-ui/tessera and Bun at <app>/node_modules/.bin.
const candidates = [];
for (let dir = root; ; dir = path.dirname(dir)) {
  candidates.push(path.join(dir, "node_modules", ".bin", bunName));
  if (path.dirname(dir) === dir) break;
}
const bun = candidates.find((p) => existsSync(p)) || "bun";
const result = spawnSync(bun, [path.join(here, "main.ts"), ...process.argv.slice(2)], { stdio: "inherit" });
if (result.error) {
  console.error(`tessera: could not start Bun (${bun}): ${result.error.message}. Run npm install, or install Bun.`);
  process.exit(1);
}
process.exit(result.status ?? 1);
