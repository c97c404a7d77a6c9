// What is still open at the end of a text: strings and brackets, counted without reading the
// language (that is the parser's). Used to close a cut statement for display, to say what a cut
// statement expects in its message, and by the sanitizer.

const CLOSER: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

export interface Balance {
  /** What closes everything still open at the end, innermost first (a quote, then brackets). */
  closers: string;
  /** Offsets of commas outside strings and comments, in order. */
  commas: number[];
}

/**
 * A count of the strings and brackets still open at the end of `text`, and where its commas
 * are. It only counts (reading the language is the parser's); the sanitizer closes cut-off
 * statements with it too.
 */
export function balance(text: string): Balance {
  const open: string[] = [];
  const commas: number[] = [];
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote || c === "\n") quote = ""; // strings hold no raw newline
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c in CLOSER) open.push(CLOSER[c]);
    else if ((c === ")" || c === "]" || c === "}") && open[open.length - 1] === c) open.pop();
    else if (c === ",") commas.push(i);
    else if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl;
    }
  }
  // A dangling escape at the very end would swallow the closing quote.
  const closeQuote = quote ? (text.endsWith("\\") && !text.endsWith("\\\\") ? "\\" : "") + quote : "";
  return { closers: closeQuote + open.reverse().join(""), commas };
}
