// `{"libraryVersion": "…"}` names one of the service's built-in libraries (src/library).
import { compileLibrary, type Library } from "../lang/index.ts";
import { getBuiltinLibrary } from "../library/index.ts";
import type { BuiltinPrompt } from "../prompt/builtin.ts";

export interface BuiltinLibrary {
  library: Library;
  source: Record<string, unknown>;
  /** The pieces of the library's own prompt, from the package that renders it. */
  prompt: BuiltinPrompt;
}

// Keyed by the library, not the name asked for: unknown names are not remembered.
const cache = new WeakMap<object, BuiltinLibrary>();

/** The compiled built-in library of that name, or null when there is none. */
export function findBuiltinLibrary(version: string): BuiltinLibrary | null {
  const found = getBuiltinLibrary(version);
  if (!found) return null;
  let hit = cache.get(found);
  if (!hit) {
    hit = { library: compileLibrary(found.chatLibrary), source: found.chatLibrary, prompt: found.prompt };
    cache.set(found, hit);
  }
  return hit;
}
