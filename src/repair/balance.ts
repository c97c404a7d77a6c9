// Candidate endings for cut-off text, from the language core's balance count.
import { balance, type Balance } from "../lang/autoclose.ts";

/**
 * Candidate endings for a cut statement, best first: the text closed as it is, then cut back to
 * each earlier comma (dropping the last, partial item) and closed.
 */
export function closings(text: string, tries = 6): string[] {
  const trimmed = text.replace(/\s+$/, "");
  const out: string[] = [];
  const whole = balance(trimmed);
  out.push(trimmed + whole.closers);
  const commas = whole.commas.slice().reverse().slice(0, tries);
  for (const at of commas) {
    const head = trimmed.slice(0, at).replace(/\s+$/, "");
    out.push(head + balance(head).closers);
  }
  return out;
}

const OPENER: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
// Places tried for a left-out closer, and for a left-out opener.
const BRACKET_TRIES = 8;

/**
 * A bracket the line left out, shown by a closer that met the wrong opener. Either the closer due
 * was left out (`Card([a, b, "sunk")`): put back before each comma of the bracket it leaves open,
 * last first, and before the closer that met it; or the opener of the closer that came
 * (`Card(a, b], "sunk")`): put in after the bracket that is open, and after each of its commas.
 * Or one closer too many (`Card([a]))`, `Stack([a]], "row")`), taken out. Empty when every
 * closer meets its own opener.
 */
export function leftOutBracket(text: string): string[] {
  const b = balance(text);
  const { commas, commaDepths, mismatch: m, unopened } = b;
  if (unopened !== -1) return [text.slice(0, unopened) + text.slice(unopened + 1)];
  if (m === null) return [];
  const inside: number[] = [];
  for (let k = commas.length - 1; k >= 0; k--) if (commas[k] > m.from && commas[k] < m.at && commaDepths[k] === m.depth) inside.push(commas[k]);
  // A closer is left out near the closer that shows it, an opener near the bracket still open:
  // the places tried are the few nearest each (a list of thousands would cost a reading each).
  const closerAt = inside.slice(0, BRACKET_TRIES);
  const openerAt = inside.slice(-BRACKET_TRIES).reverse();
  const put = (at: number, s: string) => text.slice(0, at) + s + text.slice(at);
  // An opener goes where the next argument starts, after the space that follows a comma.
  const argAt = (at: number) => {
    while (text[at] === " " || text[at] === "\t") at++;
    return at;
  };
  const opener = OPENER[text[m.at]];
  // Or left out deeper, where a list's like items begin to nest (`[["a", 1, ["b", 2]])`).
  const deeper = siblingsAt(text, b, m.from, m.at, m.depth, m.wanted);
  return [
    // A closer typed twice (`Stack([a, b]], "column")`): the one that met the wrong opener taken out.
    ...(text[m.at] === text[m.at - 1] ? [text.slice(0, m.at) + text.slice(m.at + 1)] : []),
    ...closerAt.map((at) => put(at, m.wanted)),
    put(m.at, m.wanted),
    ...deeper.map((at) => put(at, m.wanted)),
    put(argAt(m.from + 1), opener),
    ...openerAt.map((at) => put(argAt(at + 1), opener)),
  ];
}

/**
 * A closer left out inside a list of like items, the text's end left open (`[["a", 1], ["b", 2,
 * ["c", 3]]`; over lines, a row that ends `,` where the rows around it end `],`): the items after
 * it stand a level deeper than the bracket open at the end holds its own. Put back before the
 * first commas that an opener of its kind follows at such a depth; each reading closed at its end.
 */
export function closedBeforeSibling(text: string): string[] {
  const b = balance(text);
  const wanted = b.closers[0];
  if (wanted === undefined || OPENER[wanted] === undefined) return [];
  return siblingsAt(text, b, 0, text.length, b.closers.length, wanted).map((at) => {
    const closed = text.slice(0, at) + wanted + text.slice(at);
    return closed + balance(closed).closers;
  });
}

/** The first commas in [from, to) deeper than `depth` that an opener of `wanted`'s kind follows. */
function siblingsAt(text: string, b: Balance, from: number, to: number, depth: number, wanted: string): number[] {
  const out: number[] = [];
  for (let k = 0; k < b.commas.length && out.length < BRACKET_TRIES; k++) {
    const at = b.commas[k];
    if (at < from || at >= to || b.commaDepths[k] <= depth) continue;
    let j = at + 1;
    while (text[j] === " " || text[j] === "\t" || text[j] === "\n" || text[j] === "\r") j++;
    if (text[j] === OPENER[wanted]) out.push(at);
  }
  return out;
}
