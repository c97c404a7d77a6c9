// Display of a statement cut off mid-stream: close its open string and brackets, and read it
// again. Only for `root` while streaming; validity never depends on it.
import { setScratch } from "./engine.ts";
import { splitProgram } from "./program.ts";
import type { Statement } from "./types.ts";

/** What closes the strings and brackets left open at the end of `text`. */
export function closers(text: string): string {
  const open: string[] = [];
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote || c === "\n") quote = "";
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "(") open.push(")");
    else if (c === "[") open.push("]");
    else if (c === "{") open.push("}");
    else if ((c === ")" || c === "]" || c === "}") && open[open.length - 1] === c) open.pop();
    else if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl;
    }
  }
  return quote + open.reverse().join("");
}

/** The cut statement `text` closed for display, or null when closing does not make a statement. */
export function closeStatement(text: string): Statement | null {
  // A trailing comma or operator has nothing after it yet: leave it out.
  const trimmed = text.replace(/[\s,+\-*/%&|!=<>?:]+$/, "");
  const closed = trimmed + closers(trimmed);
  const base = setScratch(closed);
  const parts = splitProgram(closed, base, base, base + closed.length);
  return parts.broken.length === 0 && parts.statements.length === 1 ? parts.statements[0] : null;
}
