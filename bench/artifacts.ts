// The artifact patch merge (src/artifacts/merge.ts) on decks of growing size, side by side in one
// run with two anchors: parsing the same deck once (what every version costs anyway: it is
// checked), and OpenUI's own merge (lang-core's mergeStatements, which splits lines instead of
// parsing, and cuts multi-line ternaries). A patch of three statements: one slide replaced, one
// added, root re-declared. Medians of repeated runs, reported as ratios to the parse.
// Run: bun bench/artifacts.ts
import { mergeStatements } from "@openuidev/lang-core";
import { loadLanguage, parse } from "../src/lang/index.ts";
import { artifactLibrary } from "../src/artifacts/kinds.ts";
import { mergeProgram } from "../src/artifacts/merge.ts";

function deck(slides: number): string {
  const names = Array.from({ length: slides }, (_, i) => `s${i}`);
  const lines = [`root = SlideShow("Bench deck", "x = y", [${names.join(", ")}])`];
  for (const [i, n] of names.entries())
    lines.push(`${n} = Slide("${n}", ContentClassic("Slide ${i} = part ${i}", ["first point of ${i}", "second point, with = inside", "third"]))`);
  return lines.join("\n");
}

/** The median of `runs` timed calls, after as many untimed ones (the JIT's first compilations). */
function median(f: () => unknown, runs: number): number {
  for (let i = 0; i < runs; i++) f();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function main(): Promise<void> {
  await loadLanguage();
  const lib = artifactLibrary("slides").library;
  console.log("| deck chars | parse (anchor) ms | merge ms | merge / parse | lang-core merge ms |");
  console.log("|---:|---:|---:|---:|---:|");
  for (const slides of [10, 100, 600]) {
    const base = deck(slides);
    const names = Array.from({ length: slides }, (_, i) => `s${i}`);
    const patch = `s1 = Slide("s1", ContentClassic("Changed", ["new"]))\nextra = Slide("extra", ContentClassic("Added", ["x"]))\nroot = SlideShow("Bench deck", "x = y", [${[...names, "extra"].join(", ")}])`;
    const runs = slides >= 600 ? 60 : 300;
    // Two texts in turn, so that the parse never finds its input already in the parser's buffer.
    const other = `${base} `;
    let turn = 0;
    const p = median(() => parse(turn++ % 2 ? base : other, lib), runs);
    const m = median(() => mergeProgram(turn++ % 2 ? base : other, patch), runs);
    const o = median(() => mergeStatements(turn++ % 2 ? base : other, patch), runs);
    console.log(`| ${base.length} | ${p.toFixed(3)} | ${m.toFixed(3)} | ${(m / p).toFixed(2)}x | ${o.toFixed(3)} |`);
  }
}

if (import.meta.main) await main();
