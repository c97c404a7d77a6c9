// The language core's public API: the same on the server, in Deno, Node and the browser.
import { engineLoaded, loadEngine } from "./engine.ts";
import { compileLibrary as compile, LibraryError, type Library } from "./library.ts";
import { inspect as inspectOnce, parse as parseOnce, parseAndInspect as parseAndInspectOnce, type Inspection } from "./parse.ts";
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

/** The statements, broken lines and positioned errors behind `parse`: for tools that edit the text. */
export function inspect(generation: string, library: Library): Inspection {
  requireLoaded();
  return inspectOnce(String(generation), library);
}

/** parse() and, unless the generation is certainly valid, inspect(), from one parse of the text. */
export function parseAndInspect(generation: string, library: Library): { result: ParseResult; inspection: Inspection | null } {
  requireLoaded();
  return parseAndInspectOnce(String(generation), library);
}
export type { Inspection } from "./parse.ts";
export type { BrokenLine, Expr, Statement, StatementKind } from "./types.ts";
export type { PlacedError } from "./check.ts";
export type { Component, Prop, PropSchema } from "./library.ts";

/** True exactly when the result has no errors. */
export function isValid(result: ParseResult): boolean {
  return result.errors.length === 0;
}

function requireLoaded(): void {
  if (!engineLoaded()) throw new Error("call `await loadLanguage()` once before parsing");
}
