// One round of the sanitizer: the text as it stands, what the parser sees in it, and lookups
// the passes share.
import { inspect, type FixError, type Inspection, type Library, type PlacedError, type Statement } from "../lang/index.ts";
import { fitter, type Fitter } from "./fit.ts";

export interface Round {
  text: string;
  ins: Inspection;
  library: Library;
  /** The program's span in the generation (between head and tail; its blocks and what is between them). */
  from: number;
  to: number;
  /** The effective statement of each name (a later one replaces an earlier one). */
  defs: Map<string, Statement>;
  /** How arguments fit signatures, against this round's statements (made when first asked). */
  readonly fit: Fitter;
  /** Names chosen by shape this round, by where and how the call is written (names.ts). */
  shapeNames: Map<string, string | null>;
  /** The round's errors by code, in source order (made when first asked: see errorsOf). */
  byCode: Map<FixError["code"], PlacedError[]> | null;
}

export function makeRound(text: string, library: Library, ins = inspect(text, library)): Round {
  const from = ins.head.length;
  let defs = new Map<string, Statement>();
  for (const s of ins.statements) defs.set(s.id, s);
  // A name defined again goes last, as it stands: made again so only when some name is (a set
  // alone costs a fraction of a lookup and a set for each of a long program's names).
  if (defs.size !== ins.statements.length) {
    defs = new Map();
    for (const s of ins.statements) {
      defs.delete(s.id);
      defs.set(s.id, s);
    }
  }
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
