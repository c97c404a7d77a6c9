// Managed UI answered whole (Embed without streaming): the model's program is checked and, when invalid, repaired by the
// sanitizer (src/repair) before it goes back (streams are repaired line by line: src/repair/stream-chunks.ts). The outcome feeds reliability monitoring.
import { isValid, parse, type Library } from "../../lang/index.ts";
import type { FixError } from "../../lang/types.ts";
import { repair } from "../../repair/index.ts";

export interface Checked {
  content: string;
  outcome: "already_valid" | "fixed" | "fix_failed";
  corrected: string[];
  remaining: FixError[];
}

export function checkAndRepair(content: string, library: Library): Checked {
  const result = parse(content, library);
  if (isValid(result)) return { content, outcome: "already_valid", corrected: [], remaining: [] };
  const fixed = repair(content, library);
  if (fixed.status === "fixed" && fixed.content !== null) {
    return { content: fixed.content, outcome: "fixed", corrected: fixed.fixed_errors.map((e) => e.code), remaining: [] };
  }
  // The sanitizer could not make it valid: the model's own text is still the best answer to give.
  return { content: fixed.content ?? content, outcome: "fix_failed", corrected: fixed.fixed_errors.map((e) => e.code), remaining: fixed.unfixed_errors };
}
