// The built-in library lives in src/library (issue 4). It is looked up lazily so that this
// package works before it exists: `libraryVersion` is then refused with a clear 400.
import { compileLibrary, type Library } from "../lang/index.ts";

export interface BuiltinLibrary {
  library: Library;
  source: Record<string, unknown>;
}

const cache = new Map<string, BuiltinLibrary | null>();

export async function findBuiltinLibrary(version: string): Promise<BuiltinLibrary | null> {
  if (cache.has(version)) return cache.get(version)!;
  let found: BuiltinLibrary | null = null;
  try {
    const mod: Record<string, unknown> = await import("../library/index.ts");
    found = pickBuiltin(mod, version);
  } catch {
    found = null; // src/library not written yet, or it failed to load
  }
  cache.set(version, found);
  return found;
}

/** Accepts the shapes src/library may export: a chatLibrary JSON object, or a function of the version. */
function pickBuiltin(mod: Record<string, unknown>, version: string): BuiltinLibrary | null {
  const candidate = mod.builtinLibrary ?? mod.BUILTIN_LIBRARY ?? mod.getBuiltinLibrary ?? mod.default;
  const value = typeof candidate === "function" ? (candidate as (v: string) => unknown)(version) : candidate;
  const libVersion = (mod.BUILTIN_LIBRARY_VERSION ?? mod.builtinLibraryVersion) as string | undefined;
  if (libVersion !== undefined && libVersion !== version) return null;
  if (!value || typeof value !== "object") return null;
  const source = value as Record<string, unknown>;
  return { library: compileLibrary(source), source };
}
