// `npm run bench`: every benchmark in turn. Never fails on a timing: targets are reported as met
// or not met, a bench that breaks is reported and the rest still run, and the exit code is 0.
//   1. bench/lang.ts under Bun (src/lang): the language core beside lang-core and Ohm
//   2. bench/lang-node.mjs under Node (node --expose-gc), against dist/browser/index.js, built
//      first when it is missing or older than src/lang
//   3. bench/repair.ts, bench/repair-corpus.ts, bench/stream-repair.ts, bench/server.ts, bench/db-growth.ts, bench/gateway.ts, bench/responses.ts, bench/hosted-tools.ts, bench/scale.ts, bench/streams.ts, bench/artifacts.ts
//      (each exports main()), when present
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const failures: string[] = [];
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

function step(title: string): void {
  console.log(`\n# ${title} (at ${elapsed()})\n`);
}

/** Runs a child process with this one's output; a failure is noted, not thrown. */
function run(label: string, cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit" });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : r.signal ? `killed by ${r.signal}` : `exit code ${r.status}`;
    console.log(`\n${label} failed: ${why}`);
    failures.push(`${label}: ${why}`);
  }
}

step("Language core, Bun (bench/lang.ts)");
run("bench/lang.ts", process.execPath, ["bench/lang.ts"]);

step("Language core, Node (bench/lang-node.mjs)");
try {
  // The same build the Node and browser tests use (bun src/build/lang-bundle.ts), under their lock.
  const { ensureBundle } = await import("../test/browser/support.mjs");
  await ensureBundle();
  const node = spawnSync("node", ["--version"], { encoding: "utf8" });
  if (node.error) throw new Error(`node is not on PATH (${node.error.message})`);
  run("bench/lang-node.mjs", "node", ["--expose-gc", "bench/lang-node.mjs"]);
} catch (error) {
  console.log(`bench/lang-node.mjs not run: ${(error as Error).message}`);
  failures.push(`bench/lang-node.mjs: ${(error as Error).message}`);
}

for (const name of [
  "repair",
  "repair-corpus",
  "stream-repair",
  "server",
  "db-growth",
  "gateway",
  "responses",
  "hosted-tools",
  "scale",
  "streams",
  "artifacts",
]) {
  const file = `bench/${name}.ts`;
  if (!existsSync(ROOT + file)) continue;
  step(file);
  try {
    const mod = await import(`./${name}.ts`);
    if (typeof mod.main !== "function") throw new Error("exports no main()");
    await mod.main();
  } catch (error) {
    const why = (error as Error)?.stack ?? String(error);
    console.log(`\n${file} failed: ${why}`);
    failures.push(`${file}: ${(error as Error)?.message ?? String(error)}`);
  }
}

console.log(`\n# Done in ${elapsed()}${failures.length ? `; ${failures.length} bench(es) failed:` : "; every bench ran."}`);
for (const f of failures) console.log(`- ${f}`);
process.exit(0);
