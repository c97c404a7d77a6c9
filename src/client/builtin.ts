// `{"libraryVersion": "…"}` names one of the service's built-in libraries (src/library).
import { compileLibrary, type Library } from "../lang/index.ts";
import { getBuiltinLibrary } from "../library/index.ts";

export interface BuiltinLibrary {
  library: Library;
  source: Record<string, unknown>;
}

const cache = new Map<string, BuiltinLibrary | null>();

/** The compiled built-in library of that version, or null when there is none. */
export function findBuiltinLibrary(version: string): BuiltinLibrary | null {
  if (!cache.has(version)) {
    const source = getBuiltinLibrary(version);
    cache.set(version, source ? { library: compileLibrary(source), source } : null);
  }
  return cache.get(version)!;
}
