// Scores a repair over corpus cases, by mistake family and by number of mistakes:
//   valid %   the repair answered `fixed` and its content checks valid (of all cases);
//   exact %   the content is the original program byte for byte (of restorable cases);
//   kept %    content kept: of the original's string literals and component calls (a multiset:
//             each string value and each component name counted as often as it occurs), the
//             share the repaired program still holds, averaged over the `fixed` answers (what a
//             mistake threw away, a statement left out, is not counted);
//   bad fixed `fixed` answers whose content is not valid (must be none).
import { inspect, isValid, parse, type Expr, type Library } from "../../../src/lang/index.ts";
import type { RepairOutcome } from "../../../src/repair/index.ts";
import type { Case } from "./corpus.ts";

/** The original's strings and component calls, as `s:value` and `c:Name` with counts. */
export function contentOf(text: string, library: Library): Map<string, number> {
  const out = new Map<string, number>();
  const add = (k: string) => out.set(k, (out.get(k) ?? 0) + 1);
  const visit = (e: Expr): void => {
    if (e.k === "str") add(`s:${e.v}`);
    if (e.k === "call") add(`c:${e.name}`);
    const kids: Expr[] =
      e.k === "arr" ? e.items : e.k === "obj" ? e.entries.map((x) => x.value) : e.k === "call" || e.k === "builtin" ? e.args : e.k === "member" ? [e.obj] : [];
    kids.forEach(visit);
  };
  for (const s of inspect(text, library).statements) visit(s.expr);
  return out;
}

/**
 * The share of `original`'s content that `repaired` keeps (1 when the original has none); `lost`:
 * statements the mistakes threw away, whose content no repair can keep, left out of the count.
 */
export function keptShare(original: string, repaired: string, library: Library, lost: string[] = []): number {
  const a = contentOf(original, library);
  for (const [k, n] of contentOf(lost.join("\n"), library)) a.set(k, (a.get(k) ?? 0) - n);
  const b = contentOf(repaired, library);
  let total = 0;
  let kept = 0;
  for (const [k, n] of a) {
    if (n <= 0) continue;
    total += n;
    kept += Math.min(n, b.get(k) ?? 0);
  }
  return total ? kept / total : 1;
}

export interface Tally {
  cases: number;
  valid: number;
  restorable: number;
  exact: number;
  fixed: number;
  keptSum: number;
  badFixed: number;
  under90: number;
}

const empty = (): Tally => ({ cases: 0, valid: 0, restorable: 0, exact: 0, fixed: 0, keptSum: 0, badFixed: 0, under90: 0 });

export interface Scored {
  total: Tally;
  byFamily: Map<string, Tally>;
  byCount: Map<number, Tally>;
  /** Milliseconds each repair took, sorted. */
  times: number[];
  failures: { c: Case; outcome: RepairOutcome; kept: number }[];
}

export function score(cases: Case[], repair: (text: string, library: Library) => RepairOutcome): Scored {
  const total = empty();
  const byFamily = new Map<string, Tally>();
  const byCount = new Map<number, Tally>();
  const times: number[] = [];
  const failures: Scored["failures"] = [];
  for (const c of cases) {
    const library = c.library;
    const t0 = performance.now();
    const outcome = repair(c.broken, library);
    times.push(performance.now() - t0);
    const fixed = outcome.status === "fixed" && outcome.content !== null;
    const valid = fixed && isValid(parse(outcome.content!, library));
    const exact = fixed && outcome.content === c.original;
    const lost = c.mistakes.flatMap((m) => (m.lost === undefined ? [] : [m.lost]));
    const kept = valid ? keptShare(c.original, outcome.content!, library, lost) : 0;
    const tallies = [total, ...new Set(c.mistakes.map((m) => m.family))].map((f) => {
      if (typeof f !== "string") return f;
      if (!byFamily.has(f)) byFamily.set(f, empty());
      return byFamily.get(f)!;
    });
    if (!byCount.has(c.mistakes.length)) byCount.set(c.mistakes.length, empty());
    tallies.push(byCount.get(c.mistakes.length)!);
    for (const t of tallies) {
      t.cases++;
      if (valid) t.valid++;
      if (c.restorable) t.restorable++;
      if (c.restorable && exact) t.exact++;
      if (fixed) t.fixed++;
      if (fixed && !valid) t.badFixed++;
      if (valid) t.keptSum += kept;
      if (valid && kept < 0.9) t.under90++;
    }
    if (!valid || (c.restorable && !exact) || kept < 0.97) failures.push({ c, outcome, kept });
  }
  times.sort((a, b) => a - b);
  return { total, byFamily, byCount, times, failures };
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "—");

/** valid %, exact % (of restorable), kept % (of valid answers). */
export function figures(t: Tally): { valid: number; exact: number; kept: number } {
  return { valid: t.cases ? t.valid / t.cases : 1, exact: t.restorable ? t.exact / t.restorable : 1, kept: t.valid ? t.keptSum / t.valid : 1 };
}

/** The figures as a Markdown table. */
export function table(s: Scored): string {
  const row = (name: string, t: Tally) =>
    `| ${name} | ${t.cases} | ${pct(t.valid, t.cases)} | ${pct(t.exact, t.restorable)} (${t.restorable}) | ${t.valid ? ((100 * t.keptSum) / t.valid).toFixed(1) + "%" : "—"} | ${t.under90} | ${t.badFixed} |`;
  const lines = ["| mistakes | cases | valid | exact (restorable) | content kept | kept < 90% | fixed, not valid |", "|---|---:|---:|---:|---:|---:|---:|"];
  for (const [f, t] of [...s.byFamily].sort(([a], [b]) => a.localeCompare(b))) lines.push(row(f, t));
  for (const [n, t] of [...s.byCount].sort(([a], [b]) => a - b)) lines.push(row(`${n} at once`, t));
  lines.push(row("**all**", s.total));
  const median = s.times[s.times.length >> 1] ?? 0;
  lines.push("", `repair time: median ${median.toFixed(3)} ms, max ${(s.times[s.times.length - 1] ?? 0).toFixed(2)} ms over ${s.times.length} cases`);
  return lines.join("\n");
}
