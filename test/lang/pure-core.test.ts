// The pure core does no I/O: no module under these folders imports Node's or Bun's built-ins, so
// it runs unchanged in a browser, Deno or a worker (build scripts live in src/build).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const PURE = ["lang", "repair", "prompt", "library", "responses", "chat"];
const root = join(import.meta.dir, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|js|mjs)$/.test(f) ? [path] : [];
  });
}

test("the pure core imports no runtime built-in (node:, bun)", () => {
  const offenders: string[] = [];
  for (const dir of PURE) {
    for (const file of files(join(root, dir))) {
      const text = readFileSync(file, "utf8");
      if (/\bfrom\s+["'](node:|bun["':])|\brequire\(|\bimport\(\s*["'](node:|bun)/.test(text)) offenders.push(file.slice(root.length + 1));
    }
  }
  expect(offenders).toEqual([]);
});
