// One round of the sanitizer: the text as it stands, what the parser sees in it, and lookups
// the passes share.
import { inspect, type FixError, type Inspection, type Library, type PlacedError, type Statement } from "../lang/index.ts";
import type { Defs } from "../lang/check.ts";
import { fitter, type Fitter } from "./fit.ts";

export interface Round {
  text: string;
  ins: Inspection;
  library: Library;
  /** The program's span in the generation (between head and tail; its blocks and what is between them). */
  from: number;
  to: number;
  /** The effective statement of each name (a later one replaces an earlier one). */
  defs: StatementsByName;
  /** How arguments fit signatures, against this round's statements (made when first asked). */
  readonly fit: Fitter;
  /** Names chosen by shape this round, by where and how the call is written (names.ts). */
  shapeNames: Map<string, string | null>;
  /** The round's errors by code, in source order (made when first asked: see errorsOf). */
  byCode: Map<FixError["code"], PlacedError[]> | null;
}

// Names looked up one by one (a scan of the statements each) before the map of every name is
// made: a scan compares names, a few ns each, where the map hashes and stores every one.
const MAX_SCANS = 8;

/**
 * The effective statement of each name (a later one replaces an earlier one), as a Map would
 * give it. A round of a long program with one mistake asks for two or three names (the mended
 * statement, `root`): each is found by a scan of the statements from the end, and only
 * iterating (or more names) makes the map of every name (a Map of 1,400 fresh names cost
 * 60-250 µs a round, for lookups a scan answers in 5 µs).
 */
export class StatementsByName implements Defs {
  #all: Map<string, Statement> | null = null;
  readonly #asked = new Map<string, Statement | undefined>();
  constructor(private readonly statements: Statement[]) {}

  /** Whether the map of every name was made (for tests: a long program's round should not need it). */
  get mapped(): boolean {
    return this.#all !== null;
  }

  /** Every name's statement, in the order of a Map filled in source order. */
  get all(): Map<string, Statement> {
    if (this.#all !== null) return this.#all;
    let defs = new Map<string, Statement>();
    for (const s of this.statements) defs.set(s.id, s);
    // A name defined again goes last, as it stands: made again so only when some name is (a set
    // alone costs a fraction of a lookup and a set for each of a long program's names).
    if (defs.size !== this.statements.length) {
      defs = new Map();
      for (const s of this.statements) {
        defs.delete(s.id);
        defs.set(s.id, s);
      }
    }
    this.#all = defs;
    return defs;
  }

  get(id: string): Statement | undefined {
    if (this.#all !== null) return this.#all.get(id);
    const asked = this.#asked.get(id);
    if (asked !== undefined || this.#asked.has(id)) return asked;
    if (this.#asked.size >= MAX_SCANS) return this.all.get(id);
    const list = this.statements;
    let found: Statement | undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i].id === id) {
        found = list[i];
        break;
      }
    }
    this.#asked.set(id, found);
    return found;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  keys(): MapIterator<string> {
    return this.all.keys();
  }

  values(): MapIterator<Statement> {
    return this.all.values();
  }

  get size(): number {
    return this.all.size;
  }
}

export function makeRound(text: string, library: Library, ins = inspect(text, library)): Round {
  const from = ins.head.length;
  const defs = new StatementsByName(ins.statements);
  // The program runs from its first block to its last (fenced blocks with prose between them):
  // every edit falls inside a block, since no statement or broken line crosses a fence.
  let fit: Fitter | null = null;
  return {
    text,
    ins,
    library,
    from,
    to: ins.blocks[ins.blocks.length - 1].end,
    defs,
    shapeNames: new Map(),
    byCode: null,
    get fit() {
      return (fit ??= fitter(library, defs));
    },
  };
}

/** The statement whose span holds offset `at` (statements are in source order: a binary search). */
export function statementAt(round: Round, at: number): Statement | undefined {
  const list = round.ins.statements;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].end < at) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length && list[lo].start <= at ? list[lo] : undefined;
}

/** The errors of a round whose code is one of `codes`. */
export function errorsOf(round: Round, ...codes: FixError["code"][]): PlacedError[] {
  // Each pass asks for its codes: the errors are sorted by code once per round, not filtered per pass.
  if (round.byCode === null) {
    round.byCode = new Map();
    for (const e of round.ins.errors) {
      const list = round.byCode.get(e.code);
      if (list) list.push(e);
      else round.byCode.set(e.code, [e]);
    }
  }
  if (codes.length === 1) return (round.byCode.get(codes[0]) ?? []).slice();
  return round.ins.errors.filter((e) => codes.includes(e.code));
}

/** The statement that now starts within [start, end), when no broken line is left there. */
export function parsesAsStatement(ins: Inspection, start: number, end: number): Statement | undefined {
  if (ins.broken.some((b) => b.start < Math.max(end, start + 1) && start < b.end)) return undefined;
  return ins.statements.find((s) => s.start >= start && s.start < Math.max(end, start + 1));
}
