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

/**
 * A closer the line left out before another one (`Card([a, b, "sunk")`): the line with it put
 * back before each comma of the bracket it leaves open, last first, and before the closer that
 * met it. Empty when every closer meets its own opener.
 */
export function leftOutCloser(text: string): string[] {
  const { commas, commaDepths, mismatch: m } = balance(text);
  if (m === null) return [];
  const out: string[] = [];
  for (let k = commas.length - 1; k >= 0; k--) {
    const at = commas[k];
    if (at > m.from && at < m.at && commaDepths[k] === m.depth) out.push(text.slice(0, at) + m.wanted + text.slice(at));
  }
  out.push(text.slice(0, m.at) + m.wanted + text.slice(m.at));
  return out;
}
