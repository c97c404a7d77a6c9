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
