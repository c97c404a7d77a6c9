// The repair corpus: valid programs against the real libraries: the 53-component library
// (OpenUI's default library, MIT, see LICENSE-openui.txt here; programs/) and the service's
// built-in chat library (@openuidev/thesys's, src/library; programs-thesys-chat/), each broken by
// one to four realistic mistakes, generated from a seed. The same seed always gives the same case. Seeds are split: TUNE_SEEDS
// are the ones looked at while working on the repairs, HELD_OUT_SEEDS only measure the result.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileLibrary, inspect, isValid, loadLanguage, parse, type Library } from "../../../src/lang/index.ts";
import { getBuiltinLibrary } from "../../../src/library/index.ts";
import { FAMILIES, LATER_FAMILIES, type Ctx, type Mistake } from "./mistakes.ts";

const HERE = import.meta.dir;

export const TUNE_SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);
export const HELD_OUT_SEEDS = Array.from({ length: 400 }, (_, i) => 100_001 + i);

let lib: Library | null = null;
/** The real 53-component library, with root Stack, as a config's chatLibrary. */
export async function corpusLibrary(): Promise<Library> {
  await loadLanguage();
  lib ??= compileLibrary({ root: "Stack", schema: JSON.parse(readFileSync(join(HERE, "openui-default.schema.json"), "utf8")) });
  return lib;
}

export interface Program {
  text: string;
  library: Library;
}

/** Each folder of programs and the library they are written against. */
async function folders(): Promise<[string, string, Library][]> {
  const chat = getBuiltinLibrary("thesys/chat");
  const out: [string, string, Library][] = [["programs", "", await corpusLibrary()]];
  if (chat) out.push(["programs-thesys-chat", "chat/", compileLibrary(chat.chatLibrary)]);
  return out;
}

/** The valid programs, by name (real model outputs and programs of our own), with their libraries. */
export async function corpusPrograms(): Promise<Record<string, Program>> {
  const out: Record<string, Program> = {};
  for (const [dir, prefix, library] of await folders()) {
    for (const f of readdirSync(join(HERE, dir)).sort()) {
      const text = readFileSync(join(HERE, dir, f), "utf8").replace(/\s+$/, "");
      if (!isValid(parse(text, library))) throw new Error(`corpus program ${dir}/${f} is not valid`);
      out[prefix + f.replace(/\.oui$/, "")] = { text, library };
    }
  }
  return out;
}

/** mulberry32: a small seeded generator, the same numbers on every runtime. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Case {
  seed: number;
  program: string;
  library: Library;
  original: string;
  broken: string;
  mistakes: Mistake[];
  /** A careful person could give back the original exactly (nothing the mistakes lost). */
  restorable: boolean;
}

const FAMILY_NAMES = Object.keys(FAMILIES) as (keyof typeof FAMILIES)[];

/** The case of `seed`, or null when its draw breaks nothing (the caller skips it). */
export function makeCase(seed: number, programs: Record<string, Program>): Case | null {
  const rand = seeded(seed);
  const names = Object.keys(programs);
  const program = names[Math.floor(rand() * names.length)];
  const { text: original, library } = programs[program];
  const statements = inspect(original, library).statements;
  const ctx: Ctx = { text: original, statements, library, rand, used: new Set() };
  const want = 1 + Math.floor(rand() * 4);
  // One case in four crowds its mistakes into the statement of the first (a broken line hides a
  // misspelt name in it): drawn apart, so that the other cases stay as they were drawn before.
  const crowded = seeded(seed * 104_723 + 7)() < 1 / 4;
  let home: string | null = null;
  const mistakes: Mistake[] = [];
  for (let tries = 0; mistakes.length < want && tries < 20; tries++) {
    const family = FAMILY_NAMES[Math.floor(rand() * FAMILY_NAMES.length)];
    if (family === "prose-line" && mistakes.some((m) => m.family === "prose-line")) continue;
    if (home !== null && (family === "prose-line" || family === "orphan-unlisted")) continue;
    const m = FAMILIES[family](home === null ? ctx : { ...ctx, used: new Set(statements.filter((s) => s.id !== home).map((s) => s.id)) });
    if (!m) continue;
    if (home !== null && mistakes.some((o) => m.start <= o.end && o.start <= m.end)) continue; // edits that touch would not both stand
    if (m.statement !== null) ctx.used.add(m.statement);
    if (crowded && home === null && m.statement !== null) home = m.statement;
    mistakes.push(m);
  }
  // Later families: from a generator of their own, in one case of four that has room.
  const later = seeded(seed * 7919 + 104_729);
  for (const make of Object.values(LATER_FAMILIES)) {
    if (mistakes.length >= 4 || later() >= 1 / 4) continue;
    const m = make({ ...ctx, rand: later });
    if (!m) continue;
    if (m.statement !== null) ctx.used.add(m.statement);
    mistakes.push(m);
  }
  if (!mistakes.length) return null;
  let broken = original;
  // From the end, so that each edit's offsets still hold; at one offset, the wider edit first and a
  // line of prose last (it goes before whatever else starts the program).
  const order = (a: Mistake, b: Mistake) => b.start - a.start || b.end - a.end || Number(a.family === "prose-line") - Number(b.family === "prose-line");
  for (const m of [...mistakes].sort(order)) broken = broken.slice(0, m.start) + m.text + broken.slice(m.end);
  if (isValid(parse(broken, library))) return null;
  const restorable = mistakes.every((m) => restorableAlone(m, original, library));
  return { seed, program, library, original, broken, mistakes, restorable };
}

/**
 * Whether a careful person could undo the mistake from what is left: a foreign name only when
 * exactly one component of the library takes the call's arguments as they stand (its shape
 * names it); an unlisted statement only when it is defined right after its list neighbour's
 * definition; every other family loses nothing.
 */
function restorableAlone(m: Mistake, original: string, library: Library): boolean {
  if (m.lost !== undefined) return false; // what it lost is nowhere in the text
  if (m.family === "foreign-name") {
    let fits = 0;
    for (const name of library.components.keys()) {
      if (isValid(parse(original.slice(0, m.start) + name + original.slice(m.end), library))) fits++;
      if (fits > 1) return false;
    }
    return fits === 1;
  }
  if (m.family === "orphan-unlisted") {
    const removed = original.slice(m.start, m.end).replace(/[\s,]/g, "");
    const ids = inspect(original, library).statements.map((s) => s.id);
    const at = ids.indexOf(removed);
    if (at <= 0) return false;
    // The list with the item taken out: its neighbour before it must be defined just before it.
    const before = original.slice(0, m.start).match(/([A-Za-z_][A-Za-z0-9_]*)\s*,?\s*$/)?.[1];
    const after = original.slice(m.end).match(/^\s*,?\s*([A-Za-z_][A-Za-z0-9_]*)/)?.[1];
    const prev = before !== undefined ? ids.indexOf(before) : -1;
    const next = after !== undefined ? ids.indexOf(after) : ids.length;
    return prev < at && at < next;
  }
  return true;
}
