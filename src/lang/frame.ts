// Framing: a generation is bare, fenced, or a stored-turn envelope. Only the
// program inside is checked and repaired; everything around it comes back byte for byte.
//
// A generation may hold several fenced blocks (prose between them): together they are one
// program, each block a run of whole lines of it. `blocks` says where each
// stands in the generation; `program` is their texts joined, read as one program.

export interface Block {
  /** The block's program text is generation[start, end). */
  start: number;
  end: number;
}

export interface Framed {
  /** Everything before the (first block's) program: prose and opening fence, or the envelope header. */
  head: string;
  /** The program: the one block's text, or every block's joined. */
  program: string;
  /** Everything after the (last block's) program. */
  tail: string;
  /** Where each block's program stands in the generation, in order (one for a bare or enveloped program). */
  blocks: Block[];
  /**
   * The text between consecutive blocks (a closing fence, prose, an opening fence), one per gap.
   * With one block, head + program + tail is the generation; with more, head, then each block
   * followed by the gap after it, then tail.
   */
  between: string[];
}

/**
 * The two marker families, OpenUI's own and the service's: a marker line starts with either, and
 * each is read the same way everywhere. What a generation came with stays in it byte for byte.
 */
export const MARKERS = ["]]>openui:", "]]>service:"] as const;
/** The envelope header of each family (the header line may go on with attributes). */
export const ENVELOPES = MARKERS.map((m) => `${m}content`);

/** Whether `text` has a marker (of either family) at `at`. */
export function isMarkerAt(text: string, at = 0): boolean {
  return text.startsWith(MARKERS[0], at) || text.startsWith(MARKERS[1], at);
}

/** Whether `text` starts with an envelope header of either family. */
export function isEnvelopeHeader(text: string): boolean {
  return text.startsWith(ENVELOPES[0]!) || text.startsWith(ENVELOPES[1]!);
}
/** A fence line (without its newline): three backticks and an optional language tag. */
export const FENCE = /^[ \t]*```[^\n`]*\r?$/;

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf("\n", from);
  return nl === -1 ? text.length : nl + 1;
}

function whole(generation: string, start: number, end: number): Framed {
  return {
    head: generation.slice(0, start),
    program: generation.slice(start, end),
    tail: generation.slice(end),
    blocks: [{ start, end }],
    between: [],
  };
}

/** Splits a generation into its program and the wrapping around it. */
export function frame(generation: string): Framed {
  if (isEnvelopeHeader(generation)) {
    const start = lineEnd(generation, 0);
    // The program runs to the next marker line.
    let end = generation.length;
    for (let at = start; at < generation.length; at = lineEnd(generation, at)) {
      if (isMarkerAt(generation, at)) {
        end = at;
        break;
      }
    }
    return whole(generation, start, end);
  }
  // Fence lines open and close blocks in turn; a block left open runs to the end.
  // (A single backtick is looked for first: in Bun that search is ten times faster.)
  if (!generation.includes("`") || !generation.includes("```")) return whole(generation, 0, generation.length);
  const blocks: Block[] = [];
  let open = -1;
  for (let at = 0; at < generation.length; at = lineEnd(generation, at)) {
    const next = lineEnd(generation, at);
    const line = generation.slice(at, next).replace(/\n$/, "");
    if (!FENCE.test(line)) continue;
    if (open === -1) open = next;
    else {
      blocks.push({ start: open, end: at });
      open = -1;
    }
  }
  if (open !== -1) blocks.push({ start: open, end: generation.length });
  if (blocks.length === 0) return whole(generation, 0, generation.length);
  if (blocks.length === 1) return whole(generation, blocks[0].start, blocks[0].end);
  const first = blocks[0];
  const last = blocks[blocks.length - 1];
  return {
    head: generation.slice(0, first.start),
    program: blocks.map((b) => generation.slice(b.start, b.end)).join(""),
    tail: generation.slice(last.end),
    blocks,
    between: blocks.slice(1).map((b, i) => generation.slice(blocks[i].end, b.start)),
  };
}

/**
 * The generation with `program` put back in the wrapping `framed` came from. With several
 * blocks the program goes into the first and the later ones are left empty (their fences and
 * the prose around them stay); to edit each block in place, edit the generation at `blocks`.
 */
export function reframe(framed: Framed, program: string): string {
  return framed.head + program + framed.between.join("") + framed.tail;
}
