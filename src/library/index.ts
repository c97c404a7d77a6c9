// The service's built-in component libraries, by version. {"libraryVersion":"0.1.0"} in a config
// block names one of them (Embed managed UI and Autofix).
import { chatLibrary010, examples010 } from "./chat-0.1.0.ts";

export const BUILTIN_VERSION = "0.1.0";

/** The chatLibrary JSON of each built-in version, as compileLibrary takes it. */
export const builtInLibraries: Record<string, Record<string, unknown>> = { "0.1.0": chatLibrary010 };

/** Example programs of each built-in version, shown in the managed system prompt. */
export const builtInExamples: Record<string, string[]> = { "0.1.0": examples010 };

/** The lookup src/client/builtin.ts makes: the library of that version, or null. */
export function getBuiltinLibrary(version: string): Record<string, unknown> | null {
  return builtInLibraries[version] ?? null;
}
