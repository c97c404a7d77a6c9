// Autofix attempt 1, the sanitizer: passes in phases, each round on the text as the last one left it (its mended statements read again), until
// the program is valid or nothing more can be done. Deterministic and pure.
import { inspect, type FixError, type Inspection, type Library, type PlacedError } from "../lang/index.ts";
import { applyEdits, type Edit } from "./edits.ts";
import { brokenLines, dropBroken } from "./lines.ts";
import { excessArgs, hoistInline, misplacedComponents, requiredArgs, stringsAsText, unknownComponents, wrapRoot } from "./calls.ts";
import { mismatchedValues, optionsObjects, unlistedValues } from "./values.ts";
import { reshapeCalls } from "./reshape.ts";
import { danglingRefs, hyphenNames, missingRoot, orphans } from "./graph.ts";
import { makeRound, type Round } from "./round.ts";
import { reinspect } from "./reinspect.ts";

type Pass = (round: Round) => Edit[];

// A round runs the first phase that has anything to do. The order matters: a line must read as
// a statement before its calls can be fixed, a misspelt reference must be renamed before the
// statement it meant looks orphaned, and `root` must exist before orphans are known at all.
const PHASES: Pass[][] = [
  [hyphenNames],
  [brokenLines],
  // Options in braces become named arguments, which the broken-line pass reads next round.
  [optionsObjects],
  [unknownComponents, reshapeCalls, mismatchedValues, hoistInline, wrapRoot],
  // A required argument filled only once no reshape reads it from what is there (`Form("a" [f])`).
  [requiredArgs],
  // A component renamed where its parent takes another: once its arguments and values are mended
  // (a list its parent wants is wrapped, not renamed), since naming one scores every component.
  [misplacedComponents, stringsAsText],
  // Dropping arguments loses what they said: only once no other reading of the call is left.
  [excessArgs],
  // Likewise a listed value that means none of the listed ones.
  [unlistedValues],
  [danglingRefs],
  [missingRoot],
  [orphans],
  [dropBroken],
];

const MAX_ROUNDS = 24;

/**
 * Texts shorter than this are inspected whole after a round: a parse of a few hundred characters
 * costs less than reinspect's fixed work (measured under Bun 1.4: 11 against 22 µs at 121
 * characters, even at about 600, reinspect ahead from about 1,000).
 */
export const REINSPECT_FROM = 800;

/** The public form of a placed error (without the offset). */
export function publicError({ at: _at, ...error }: PlacedError): FixError {
  return error;
}

export interface Sanitized {
  content: string;
  /** Errors of the result. */
  remaining: FixError[];
  /** Errors of the generation as it came. */
  original: FixError[];
  /** Every error some round saw and the result no longer has: the original ones first, then
   *  those an earlier error hid (an excess argument of a misspelt component). */
  fixed: FixError[];
  /** The generation's inspection and the result's (the last one a round made): what the caller
   *  needs to know about either text without parsing it again. */
  first: Inspection;
  last: Inspection;
}

// An error's identity across rounds. Joined with a unit no message holds (a JSON array of the
// fields cost more than the rest of noting a round's errors); an absent field differs from "".
const keyOf = (e: FixError) => `${e.code}\u0000${e.statementId ?? "\u0001"}\u0000${e.component ?? "\u0001"}\u0000${e.path ?? "\u0001"}\u0000${e.message}`;

/**
 * Texts the rounds have made, asked whether they hold a new one. Not a Set, which hashes each
 * text (about 15 µs a round on a 100k program, besides making the round's text one string,
 * which the next read of it does anyway): texts of another length are told apart by their
 * length, and only those of the same length are compared.
 */
export class TextsSeen {
  readonly #byLength = new Map<number, string[]>();

  add(text: string): void {
    const same = this.#byLength.get(text.length);
    if (same) same.push(text);
    else this.#byLength.set(text.length, [text]);
  }

  has(text: string): boolean {
    return this.#byLength.get(text.length)?.includes(text) ?? false;
  }
}

/**
 * What one round does: the edits of the first phase that has any and makes a text not `seen`
 * before, applied. Null when no phase makes progress.
 */
export function roundEdits(round: Round, seen: { has(text: string): boolean }): { text: string; kept: Edit[] } | null {
  for (const phase of PHASES) {
    const edits = phase.flatMap((pass) => pass(round));
    if (!edits.length) continue;
    const out = applyEdits(round.text, edits);
    if (seen.has(out.text)) continue; // no progress (or a cycle): try the next phase
    return out;
  }
  return null;
}

/** `first`: the generation's inspection, when the caller has it already. */
export function sanitize(generation: string, library: Library, first: Inspection = inspect(generation, library)): Sanitized {
  let text = generation;
  let ins = first;
  const seen = new TextsSeen();
  seen.add(text);
  const everSeen = new Map<string, FixError>();
  const note = () => {
    for (const e of ins.errors) {
      const key = keyOf(e);
      if (!everSeen.has(key)) everSeen.set(key, publicError(e));
    }
  };
  note();
  for (let round = 0; round < MAX_ROUNDS && ins.errors.length; round++) {
    const state = makeRound(text, library, ins);
    const next = roundEdits(state, seen);
    if (next === null) break;
    seen.add(next.text);
    text = next.text;
    // The statements the edits mended are read again, not the whole text (when that can be told),
    // unless the text is so short that parsing it all costs less than reading the edits in.
    ins = (text.length < REINSPECT_FROM ? null : reinspect(state, next.kept, text, library)) ?? inspect(text, library);
    note();
  }
  const remaining = ins.errors.map(publicError);
  const left = new Set(remaining.map(keyOf));
  const fixed = [...everSeen.entries()].filter(([k]) => !left.has(k)).map(([, e]) => e);
  return { content: text, remaining, original: first.errors.map(publicError), fixed, first, last: ins };
}
