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
const candidates = [
  path.join(root, "node_modules", ".bin", bunName),
  path.join(root, "..", ".bin", bunName), // installed as a dependency: <app>/node_modules/.bin
];
const bun = candidates.find((p) => existsSync(p)) || "bun";
const result = spawnSync(bun, [path.join(here, "main.ts"), ...process.argv.slice(2)], { stdio: "inherit" });
if (result.error) {
  console.error(`tessera: could not start Bun (${bun}): ${result.error.message}. Run npm install, or install Bun.`);
  process.exit(1);
}
process.exit(result.status ?? 1);
