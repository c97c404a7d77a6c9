// Display of a statement cut off mid-stream: close its open string and brackets, and read it
// again. Only for `root` while streaming; validity never depends on it.
import { setScratch } from "./engine.ts";
import { splitProgram } from "./program.ts";
import type { Statement } from "./types.ts";

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

/** The cut statement `text` closed for display, or null when closing does not make a statement. */
export function closeStatement(text: string): Statement | null {
  // A trailing comma or operator has nothing after it yet: leave it out.
  const trimmed = text.replace(/[\s,+\-*/%&|!=<>?:]+$/, "");
  const closed = trimmed + balance(trimmed).closers;
  const base = setScratch(closed);
  const parts = splitProgram(closed, base, base, base + closed.length);
  return parts.broken.length === 0 && parts.statements.length === 1 ? parts.statements[0] : null;
}
