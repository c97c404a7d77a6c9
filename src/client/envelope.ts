// The envelope (`]]>openui:content` or `]]>service:content`, the two marker families read alike) and
// fences, as seen by applications. Splitting is the language core's `frame` (the one envelope
// parser); this file only adds rebuilding and writing.
import { frame } from "../lang/index.ts";

export const CONTENT_MARKER = "]]>service:content";
export const CONTEXT_MARKER = "]]>service:context";
export const END_MARKER = "]]>service:end";

/** Which family's markers wrapEnvelope writes: the service's (the default) or OpenUI's. */
export type MarkerFamily = "service" | "openui";

export interface SplitGeneration {
  /** Everything before the program: prose and opening fence, or the envelope header line. */
  head: string;
  /** The program; with several fenced blocks (one program), their texts joined. */
  program: string;
  /** Everything after: closing fence and prose, or context section and end marker. */
  tail: string;
  /** With several fenced blocks: the text between consecutive blocks (fences and prose). */
  between?: string[];
}

/** head + program + tail === text, byte for byte (with one fenced block, or none). */
export function splitGeneration(text: string): SplitGeneration {
  return frame(text);
}

/**
 * Puts a (corrected) program back into the wrapping it came from. With several fenced blocks
 * the program goes into the first and the later blocks are left empty; the prose and fences
 * between them stay as they were.
 */
export function rebuildGeneration(split: Pick<SplitGeneration, "head" | "tail" | "between">, program: string): string {
  return split.head + program + (split.between?.join("") ?? "") + split.tail;
}

/** Writes a stored assistant turn: header (with attributes), program, optional form context, end. */
export function wrapEnvelope(program: string, opts: { attributes?: Record<string, string>; context?: unknown; markers?: MarkerFamily } = {}): string {
  const m = `]]>${opts.markers ?? "service"}:`;
  const query = new URLSearchParams(opts.attributes ?? {}).toString();
  const body = program.endsWith("\n") ? program : program + "\n";
  const context = opts.context === undefined ? "" : `${m}context\n${JSON.stringify(opts.context)}\n`;
  return `${m}content${query ? `?${query}` : ""}\n${body}${context}${m}end`;
}
