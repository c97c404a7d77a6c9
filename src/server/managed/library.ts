// Config block → compiled Library: the application's own chatLibrary, compiled by the language
// core, or the built-in library that `libraryVersion` names (src/library). A block is read and its
// library compiled once per distinct text: a bounded LRU cache keeps the compiled Library (and with
// it the verdict tables, which src/lang/verdict-table.ts keeps per Library).
import { compileLibrary, LibraryError } from "../../lang/index.ts";
import type { Library } from "../../lang/index.ts";
import { readConfigBlock, type ConfigBlock } from "../../client/config-block.ts";
import { findBuiltinLibrary } from "../../client/builtin.ts";
import { HttpError } from "../errors.ts";
import type { BuiltinPrompt } from "../../prompt/builtin.ts";

export interface ResolvedLibrary {
  library: Library;
  /** The library as JSON, for the fixing model's prompt. */
  source: Record<string, unknown>;
  /** A built-in library's own prompt pieces (src/prompt/builtin.ts); absent for the application's own. */
  prompt?: BuiltinPrompt;
}

export interface ResolvedConfig extends ResolvedLibrary {
  block: ConfigBlock;
}

/**
 * Distinct config blocks kept compiled. An application sends the same block with every request;
 * a few hundred applications on one server still fit, and the total size is bounded below.
 */
export const LIBRARY_CACHE_ENTRIES = 256;
/** Characters of block text the cache holds at most (a block can be up to the 1 MB body). */
export const LIBRARY_CACHE_CHARS = 16 * 1024 * 1024;

/** A Map in use order: a hit moves the entry to the end; the oldest go first. */
class LruCache<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;
  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (key.length > this.maxChars) return;
    if (this.entries.delete(key)) this.chars -= key.length;
    this.entries.set(key, value);
    this.chars += key.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

const compiled = new LruCache<ResolvedConfig>(LIBRARY_CACHE_ENTRIES, LIBRARY_CACHE_CHARS);
let compilations = 0;

/** How many blocks were read and compiled, and how many are kept (for tests and the bench). */
export function libraryCacheStats(): { compilations: number; entries: number } {
  return { compilations, entries: compiled.size };
}

/**
 * The config block in `text`, read and its library compiled: from the cache when this text was
 * seen before. Malformed blocks and invalid libraries are a 400 naming `param`, and not cached.
 */
export function readConfig(text: string, param: string): ResolvedConfig {
  const hit = compiled.get(text);
  if (hit) return hit;
  const read = readConfigBlock(text);
  if (!read.ok) throw new HttpError(400, `malformed config block: ${read.problem}`, { param });
  compilations++;
  const resolved = { block: read.block, ...resolveLibrary(read.block, param) };
  compiled.set(text, resolved);
  return resolved;
}

export function resolveLibrary(block: ConfigBlock, param = "messages[0].content"): ResolvedLibrary {
  if (block.chatLibrary) {
    try {
      return { library: compileLibrary(block.chatLibrary), source: block.chatLibrary };
    } catch (e) {
      if (e instanceof LibraryError) {
        throw new HttpError(400, `malformed config block: the library is invalid: ${e.problems.join("; ")}`, { param });
      }
      throw e;
    }
  }
  const builtin = findBuiltinLibrary(block.libraryVersion);
  if (!builtin) {
    throw new HttpError(
      400,
      `there is no built-in library of libraryVersion ${JSON.stringify(block.libraryVersion)}; send a known version or your own chatLibrary`,
      { param },
    );
  }
  return builtin;
}
