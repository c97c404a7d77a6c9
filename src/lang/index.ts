// The language core's public API: the same on the server, in Deno, Node and the browser.
import { engineLoaded, loadEngine } from "./engine.ts";
import { compileLibrary as compile, LibraryError, type Library } from "./library.ts";
import { parse as parseOnce } from "./parse.ts";
import { createStreamParser as createStream } from "./stream.ts";
import { frame } from "./frame.ts";
import type { ParseResult } from "./types.ts";

export type { ElementNode, ErrorCode, FixError, ParseResult } from "./types.ts";
export type { Library } from "./library.ts";
export type { StreamParser } from "./stream.ts";
export { frame, LibraryError };

/** Instantiates the WebAssembly parser; everything else is synchronous after it. */
export function loadLanguage(): Promise<void> {
  return loadEngine();
}

/** Checks and compiles the `chatLibrary` object of a config block; throws a LibraryError listing every problem. */
export function compileLibrary(config: unknown): Library {
  return compile(config);
}

/** Parses and checks a bare, fenced or enveloped generation. Never throws on any string. */
export function parse(generation: string, library: Library): ParseResult {
  requireLoaded();
  return parseOnce(String(generation), library);
}

export function createStreamParser(library: Library): { push(chunk: string): ParseResult; end(): ParseResult } {
  requireLoaded();
  return createStream(library);
}

/** True exactly when the result has no errors. */
export function isValid(result: ParseResult): boolean {
  return result.errors.length === 0;
}

function requireLoaded(): void {
  if (!engineLoaded()) throw new Error("call `await loadLanguage()` once before parsing");
}
