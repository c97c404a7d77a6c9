// Language-core benchmark under Bun, against the sources (src/lang): ours (parse + isValid) beside
// @openuidev/lang-core and ohm-js interpreting grammar/ui.ohm. The workloads, measurements and
// tables live in bench/lang-workload.mjs, shared with bench/lang-node.mjs (Node, the bundle).
// Run: bun bench/lang.ts [oneshot] [samples] [stream] [long] (default: all four). Never fails on timings: targets are reported as met or not met.
import * as lang from "../src/lang/index.ts";
import { runLangBench } from "./lang-workload.mjs";

export async function main(sections?: string[]) {
  return runLangBench({ lang, runtime: `Bun ${Bun.version} (src/lang)`, gc: () => Bun.gc(true), heapDelta: false, ...(sections?.length ? { sections } : {}) });
}

if (import.meta.main) {
  await main(process.argv.slice(2));
  process.exit(0);
}
