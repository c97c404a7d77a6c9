// The repair corpus (test/repair/corpus): the held-out seeds, never looked at while the repairs
// were made, hold the targets: valid >= 98%, exact >= 90% where a person could restore
// the program, content kept >= 97%, and no `fixed` answer that is not valid. The figures by
// family are printed (bench/repair-corpus.ts prints them for both seed sets, with repair times).
import { beforeAll, describe, expect, test } from "bun:test";
import { repair } from "../../src/repair/index.ts";
import { corpusPrograms, HELD_OUT_SEEDS, makeCase, TUNE_SEEDS, type Case, type Program } from "./corpus/corpus.ts";
import { figures, score, table } from "./corpus/score.ts";
import { FAMILIES, LATER_FAMILIES } from "./corpus/mistakes.ts";

let programs: Record<string, Program>;
beforeAll(async () => {
  programs = await corpusPrograms();
});

const cases = (seeds: number[]) => seeds.map((s) => makeCase(s, programs)).filter((c): c is Case => c !== null);

describe("repair corpus", () => {
  test("cases are made from their seed alone, break the program, and cover every family and one to four mistakes", () => {
    const held = cases(HELD_OUT_SEEDS);
    expect(held.length).toBeGreaterThan(350);
    expect(cases(HELD_OUT_SEEDS.slice(0, 20)).map((c) => c.broken)).toEqual(held.slice(0, 20).map((c) => c.broken));
    const families = new Set<string>(held.flatMap((c) => c.mistakes.map((m) => m.family)));
    expect([...families].sort()).toEqual([...Object.keys(FAMILIES), ...Object.keys(LATER_FAMILIES)].sort());
    expect(new Set(held.map((c) => c.mistakes.length))).toEqual(new Set([1, 2, 3, 4]));
    // Against both libraries.
    expect(held.some((c) => c.program.startsWith("chat/")) && held.some((c) => !c.program.startsWith("chat/"))).toBe(true);
    // The tuning and held-out seeds are different cases.
    const tuned = new Set(cases(TUNE_SEEDS).map((c) => c.broken));
    expect(held.filter((c) => tuned.has(c.broken)).length).toBeLessThan(held.length / 20);
  });

  test("held-out seeds: valid >= 98%, exact >= 90% where restorable, content kept >= 97%, no fixed answer invalid", () => {
    const s = score(cases(HELD_OUT_SEEDS), (text, library) => repair(text, library));
    console.log(`\nrepair corpus, held-out seeds\n${table(s)}`);
    const f = figures(s.total);
    expect(s.total.badFixed).toBe(0);
    expect(f.valid).toBeGreaterThanOrEqual(0.98);
    expect(f.exact).toBeGreaterThanOrEqual(0.9);
    expect(f.kept).toBeGreaterThanOrEqual(0.97);
    // No family is left behind: each comes back valid in at least nine cases of ten.
    for (const [family, t] of s.byFamily) expect(figures(t).valid, family).toBeGreaterThanOrEqual(0.9);
  });
});
