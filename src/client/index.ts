// The server helper for applications: build the config block, handle the envelope, check validity.
import { compileLibrary, isValid, loadLanguage, parse, type Library } from "../lang/index.ts";
import { BUILTIN_LIBRARY_VERSION, CONFIG_MARKER, OPENUI_CONFIG_MARKER, writeConfigBlock, type SystemPromptOptions } from "./config-block.ts";
import type { MarkerFamily } from "./envelope.ts";
import { splitGeneration } from "./envelope.ts";

export { CONFIG_MARKER, CONFIG_MARKERS, OPENUI_CONFIG_MARKER, BUILTIN_LIBRARY_VERSION, readConfigBlock, type SystemPromptOptions } from "./config-block.ts";
export * from "./envelope.ts";

const PROMPT_OPTION_KEYS = new Set(["preamble", "additionalRules", "examples"]);

/**
 * The content of the first system message. With a library (the chatLibrary JSON) it is checked by
 * the same compileLibrary the server uses, so a block this returns is never refused as malformed;
 * without one it names a built-in library (`libraryVersion`, default "0.1.0"). `markers: "openui"`
 * writes OpenUI's `]]>openui:config`; the service reads both.
 */
export function libraryConfig(
  library?: Record<string, unknown>,
  opts: { instructions?: string; promptOptions?: SystemPromptOptions; libraryVersion?: string; markers?: MarkerFamily } = {},
): string {
  for (const key of Object.keys(opts.promptOptions ?? {})) {
    if (!PROMPT_OPTION_KEYS.has(key)) throw new TypeError(`promptOptions may hold only preamble, additionalRules, examples; got ${key}`);
  }
  if (library && opts.libraryVersion !== undefined) throw new TypeError("give a library or a libraryVersion, not both");
  const json: Record<string, unknown> = library ? { chatLibrary: library } : { libraryVersion: opts.libraryVersion ?? BUILTIN_LIBRARY_VERSION };
  if (library) compileLibrary(library); // throws LibraryError with .problems
  if (opts.promptOptions) json.systemPromptOptions = opts.promptOptions;
  return writeConfigBlock(json, opts.instructions, opts.markers === "openui" ? OPENUI_CONFIG_MARKER : CONFIG_MARKER);
}

const compiled = new WeakMap<object, Library>();

/**
 * Whether a finished generation (bare, fenced or enveloped) is valid against a library JSON.
 * Judge once the stream has ended: while streaming, incomplete and unresolved are normal.
 */
export async function isValidGeneration(text: string, library: Record<string, unknown>): Promise<boolean> {
  await loadLanguage();
  let lib = compiled.get(library);
  if (!lib) {
    lib = compileLibrary(library);
    compiled.set(library, lib);
  }
  return isValid(parse(splitGeneration(text).program, lib));
}
