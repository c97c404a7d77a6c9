// What is still open at the end of a text: strings and brackets, counted without reading the
// language (that is the parser's). Used to close a cut statement for display, to say what a cut
// statement expects in its message, and by the sanitizer.

export interface Balance {
  /** What closes everything still open at the end, innermost first (a quote, then brackets). */
  closers: string;
  /** Offsets of commas outside strings and comments, in order. */
  commas: number[];
  /** How many brackets were open at each comma. */
  commaDepths: number[];
  /**
   * The first closer that did not close the innermost open bracket (`)` where `]` was due): where
   * it stands, what was due, where that bracket opened and how many were open. Null when none.
   */
  mismatch: { at: number; wanted: string; from: number; depth: number } | null;
  /** Where the first closer stands that met nothing open (`f(x))`), or -1. */
  unopened: number;
  /** Where the string still open at the end begins (its opening quote), or -1. */
  quoteAt: number;
}

/**
 * A count of the strings and brackets still open at the end of `text`, and where its commas
 * are. It only counts (reading the language is the parser's); the sanitizer closes cut-off
 * statements with it too.
 */
export function balance(text: string): Balance {
  const open: number[] = []; // the closers wanted, as code units
  const openAt: number[] = [];
  const commas: number[] = [];
  const commaDepths: number[] = [];
  let mismatch: Balance["mismatch"] = null;
  let unopened = -1;
  let quote = 0;
  let quoteAt = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === 92)
        i++; // a backslash escapes the next unit
      else if (c === quote || c === 10) quote = 0; // strings hold no raw newline
      continue;
    }
    switch (c) {
      case 34: // "
      case 39: // '
        quote = c;
        quoteAt = i;
        break;
      case 40: // (
      case 91: // [
      case 123: // {
        open.push(c === 40 ? 41 : c + 2);
        openAt.push(i);
        break;
      case 41:
      case 93:
      case 125:
        if (open[open.length - 1] === c) {
          open.pop();
          openAt.pop();
        } else if (open.length === 0) {
          if (unopened === -1) unopened = i;
        } else if (mismatch === null) {
          mismatch = { at: i, wanted: String.fromCharCode(open[open.length - 1]), from: openAt[openAt.length - 1], depth: open.length };
        }
        break;
      case 44: // ,
        commas.push(i);
        commaDepths.push(open.length);
        break;
      case 47: // a comment from `//`
        if (text.charCodeAt(i + 1) !== 47) break;
      // falls through
      case 35: {
        // a comment from `#`, to the end of the line
        const nl = text.indexOf("\n", i);
        i = nl === -1 ? text.length : nl;
        break;
      }
    }
  }
  // A dangling escape at the very end would swallow the closing quote.
  let closers = quote ? (text.endsWith("\\") && !text.endsWith("\\\\") ? "\\" : "") + String.fromCharCode(quote) : "";
  for (let k = open.length - 1; k >= 0; k--) closers += String.fromCharCode(open[k]);
  return { closers, commas, commaDepths, mismatch, unopened, quoteAt: quote ? quoteAt : -1 };
}
