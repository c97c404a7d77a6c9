// A tiny balance scan for cut-off text: which strings and brackets are still open, and where the
// separators are. It only counts; reading the language stays with the parser (src/lang).

const CLOSER: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

export interface Balance {
  /** What closes everything still open, innermost first (a quote, then brackets). */
  closers: string;
  /** Offsets of commas outside strings and comments, in order. */
  commas: number[];
}

export function balance(text: string): Balance {
  const stack: string[] = [];
  const commas: number[] = [];
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl - 1;
    } else if (c in CLOSER) stack.push(CLOSER[c]);
    else if ((c === ")" || c === "]" || c === "}") && stack[stack.length - 1] === c) stack.pop();
    else if (c === ",") commas.push(i);
  }
  // A dangling escape at the very end would swallow the closing quote.
  const close = quote ? (text.endsWith("\\") && !text.endsWith("\\\\") ? "\\" : "") + quote : "";
  return { closers: close + stack.reverse().join(""), commas };
}

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
