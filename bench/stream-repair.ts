// Streams repaired as they arrive (src/repair/stream-repair.ts): what repairing each line costs,
// beside the anchor, @openuidev/lang-core's streaming parser (what OpenUI's renderer runs on every
// chunk anyway), and our own streaming parser, in one run over the same chunks. Programs of the
// built-in library react-ui/openui (react-ui's openuiLibrary, root Stack), root first, valid and with a mistake on every tenth line (a misspelt
// component, an enum in the wrong case, a number for a string).
// Run: bun bench/stream-repair.ts. Never fails on timings: the target is reported as met or not.
import { createStreamingParser } from "@openuidev/lang-core";
import { compileLibrary, createStreamParser, loadLanguage } from "../src/lang/index.ts";
import { createStreamRepair } from "../src/repair/stream-repair.ts";
import { builtInLibraries } from "../src/library/index.ts";

const CHUNK = 4;

function program(lines: number, mistakes: boolean): string {
  const ids = Array.from({ length: lines }, (_, i) => `t${i}`);
  const out = [`root = Stack([${ids.join(", ")}])`];
  for (let i = 0; i < lines; i++) {
    const wrong = mistakes && i % 10 === 5;
    const kind = i % 30;
    if (wrong && kind < 10) out.push(`t${i} = TextContnt("line ${i} of the answer", "small")`);
    else if (wrong && kind < 20) out.push(`t${i} = TextContent("line ${i} of the answer", "SMALL")`);
    else if (wrong) out.push(`t${i} = TextContent(${i}, "small")`);
    else out.push(`t${i} = TextContent("line ${i} of the answer", "small")`);
  }
  return out.join("\n");
}

function time(fn: () => void, runs = 5): number {
  fn(); // warm-up
  const ms: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b)[runs >> 1]!;
}

export async function main(): Promise<void> {
  await loadLanguage();
  const json = builtInLibraries["react-ui/openui"]!.chatLibrary;
  const lib = compileLibrary(json);
  const schema = (json as { schema: unknown }).schema;
  const rows: string[][] = [];
  let worst = Infinity;
  for (const lines of [100, 1000]) {
    for (const mistakes of [false, true]) {
      const text = program(lines, mistakes);
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${CHUNK}}`, "g"))!;
      const repair = time(() => {
        const r = createStreamRepair(lib);
        for (const c of chunks) r.push(c);
        r.end();
      });
      const ours = time(() => {
        const p = createStreamParser(lib);
        for (const c of chunks) p.push(c);
        p.end();
      });
      // lang-core re-reads the whole text at each push: measured where that stays bounded.
      const peer =
        lines <= 100
          ? time(() => {
              const p = createStreamingParser(schema as never, "Stack");
              for (const c of chunks) p.push(c);
            }, 3)
          : null;
      const ratio = peer === null ? null : peer / repair;
      if (ratio !== null) worst = Math.min(worst, ratio);
      rows.push([
        `${lines + 1} lines${mistakes ? ", a mistake every 10th" : ", valid"}`,
        String(text.length),
        String(chunks.length),
        repair.toFixed(1),
        ((repair * 1000) / (lines + 1)).toFixed(0),
        ours.toFixed(1),
        peer === null ? "(not run)" : peer.toFixed(1),
        ratio === null ? "" : `${ratio.toFixed(1)}×`,
      ]);
    }
  }
  console.log(`### Streaming repair, ${CHUNK}-character chunks (median of 5 runs; lang-core of 3)\n`);
  console.log("| program | chars | chunks | repair total ms | repair µs/line | our stream parser ms | lang-core stream ms | lang-core/repair |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  console.log(
    `\nTARGET repairing every line costs less than lang-core's streaming parse of the same chunks (lang-core/repair ≥ 1): ${worst >= 1 ? "met" : "not met"} (${worst.toFixed(1)}×)`,
  );
}

if (import.meta.main) await main();
