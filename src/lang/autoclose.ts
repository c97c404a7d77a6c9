// Display of a statement cut off mid-stream: close its open string and brackets, and read it
// again. Only for `root` while streaming; validity never depends on it.
import { setScratch } from "./engine.ts";
import { splitProgram } from "./program.ts";
import { balance } from "./balance.ts";
import type { Statement } from "./types.ts";

export { balance, type Balance } from "./balance.ts";

/** The cut statement `text` closed for display, or null when closing does not make a statement. */
export function closeStatement(text: string): Statement | null {
  // A trailing comma or operator has nothing after it yet: leave it out.
  const trimmed = text.replace(/[\s,+\-*/%&|!=<>?:]+$/, "");
  const closed = trimmed + balance(trimmed).closers;
  const base = setScratch(closed);
  const parts = splitProgram(closed, base, base, base + closed.length);
  return parts.broken.length === 0 && parts.statements.length === 1 ? parts.statements[0] : null;
}
