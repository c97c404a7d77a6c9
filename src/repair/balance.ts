// Candidate endings for cut-off text, from the language core's balance count.
import { balance } from "../lang/autoclose.ts";

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
 * Or one closer too many (`Card([a]))`), taken out. Empty when every closer meets its own opener.
 */
export function leftOutBracket(text: string): string[] {
  const { commas, commaDepths, mismatch: m, unopened } = balance(text);
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
  return [...closerAt.map((at) => put(at, m.wanted)), put(m.at, m.wanted), put(argAt(m.from + 1), opener), ...openerAt.map((at) => put(argAt(at + 1), opener))];
}
