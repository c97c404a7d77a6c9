// The config block wire format (first system message): marker line, one JSON line, free instructions.
// Pure; shared by the client helper (writes it) and the server (reads it: Autofix, Embed).
import * as v from "valibot";
import { MARKERS } from "../lang/frame.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.ts";

/** The service's config marker, which writeConfigBlock writes unless told OpenUI's. */
export const CONFIG_MARKER = "]]>service:config";
/** OpenUI's config marker (what @openuidev/thesys-server's generateSystemPrompt writes). */
export const OPENUI_CONFIG_MARKER = "]]>openui:config";
/** Either marker starts a config block; both are read alike. */
export const CONFIG_MARKERS: readonly string[] = MARKERS.map((m) => `${m}config`);
export const BUILTIN_LIBRARY_VERSION = "0.1.0";

const PromptOptions = v.strictObject({
  preamble: v.optional(v.string()),
  additionalRules: v.optional(v.array(v.string())),
  examples: v.optional(v.array(v.string())),
});
export type SystemPromptOptions = v.InferOutput<typeof PromptOptions>;

const BlockJson = v.union([
  v.strictObject({ chatLibrary: v.record(v.string(), v.unknown()), systemPromptOptions: v.optional(PromptOptions) }),
  v.strictObject({ libraryVersion: v.string(), systemPromptOptions: v.optional(PromptOptions) }),
]);

export type ConfigBlock =
  | { chatLibrary: Record<string, unknown>; libraryVersion?: undefined; systemPromptOptions?: SystemPromptOptions; instructions: string }
  | { libraryVersion: string; chatLibrary?: undefined; systemPromptOptions?: SystemPromptOptions; instructions: string };

export type ReadResult = { ok: true; block: ConfigBlock } | { ok: false; problem: string };

/** Whether a message's text is a config block at all (it may still be malformed). */
export function isConfigBlock(text: string): boolean {
  return CONFIG_MARKERS.some((m) => text.startsWith(m) && /^\r?\n|^$/.test(text.slice(m.length)));
}

/** Reads the block; the library itself is checked later by compileLibrary. */
export function readConfigBlock(text: string): ReadResult {
  const lines = text.split("\n");
  if (!CONFIG_MARKERS.includes(lines[0].replace(/\r$/, ""))) {
    return { ok: false, problem: `the first line must be exactly ${CONFIG_MARKERS.join(" or ")}` };
  }
  if (lines.length < 2 || lines[1].trim() === "") {
    return { ok: false, problem: "the config block needs one line of JSON after the marker" };
  }
  if (nestsDeeperThan(lines[1], MAX_JSON_DEPTH)) {
    return { ok: false, problem: `the config JSON nests arrays and objects more than ${MAX_JSON_DEPTH} deep` };
  }
  let json: unknown;
  try {
    json = JSON.parse(lines[1]);
  } catch {
    return { ok: false, problem: "the second line of the config block is not valid JSON" };
  }
  const parsed = v.safeParse(BlockJson, json);
  if (!parsed.success) {
    return {
      ok: false,
      problem:
        "the config JSON must hold either chatLibrary (an object) or libraryVersion (a string), " +
        "plus optional systemPromptOptions with only preamble, additionalRules and examples",
    };
  }
  return { ok: true, block: { ...parsed.output, instructions: lines.slice(2).join("\n") } as ConfigBlock };
}

/** Writes the block: marker, compact JSON on one line, then the instructions if any. */
export function writeConfigBlock(json: Record<string, unknown>, instructions?: string, marker: string = CONFIG_MARKER): string {
  const line = JSON.stringify(json); // JSON.stringify never emits a raw newline, so this stays one line
  return instructions ? `${marker}\n${line}\n${instructions}` : `${marker}\n${line}`;
}
