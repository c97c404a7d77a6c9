// Reads a library for validate/fix: a file holding a chatLibrary ({root?, schema: {$defs}}), a
// config JSON ({chatLibrary: …} or {libraryVersion: …}), a config block (`]]>openui:config` or
// `]]>service:config`, then its JSON line) or a bare JSON Schema with $defs (then with no root
// component); or, when no file has that name, the name of a built-in library ("0.1.0", "thesys/chat").
import { existsSync, readFileSync } from "node:fs";
import { isConfigBlock, readConfigBlock } from "../client/config-block.ts";
import { compileLibrary, LibraryError, type Library } from "../lang/index.ts";
import { builtInLibraries, getBuiltinLibrary } from "../library/index.ts";
import { CommandFailed } from "./io.ts";

function builtin(name: string, path: string): Record<string, unknown> {
  const found = getBuiltinLibrary(name);
  if (!found)
    throw new CommandFailed(`library ${path} names no built-in library ${JSON.stringify(name)}; built-in: ${Object.keys(builtInLibraries).join(", ")}`);
  return found.chatLibrary;
}

function sourceOf(text: string, path: string): Record<string, unknown> {
  if (isConfigBlock(text)) {
    const read = readConfigBlock(text);
    if (!read.ok) throw new CommandFailed(`library ${path} is a malformed config block: ${read.problem}`);
    return read.block.chatLibrary ?? builtin(read.block.libraryVersion, path);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CommandFailed(`cannot read library ${path}: ${(e as Error).message}`);
  }
  const source = json as Record<string, unknown>;
  if (source && typeof source === "object" && "chatLibrary" in source) return source.chatLibrary as Record<string, unknown>;
  if (source && typeof source === "object" && typeof source.libraryVersion === "string" && !("schema" in source)) return builtin(source.libraryVersion, path);
  if (source && typeof source === "object" && "$defs" in source && !("schema" in source)) return { schema: source };
  return source;
}

export function loadLibraryFile(path: string): { library: Library; source: Record<string, unknown> } {
  let source: Record<string, unknown>;
  if (!existsSync(path) && getBuiltinLibrary(path)) source = getBuiltinLibrary(path)!.chatLibrary;
  else {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new CommandFailed(`cannot read library ${path}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
    }
    source = sourceOf(text, path);
  }
  try {
    return { library: compileLibrary(source), source };
  } catch (e) {
    if (e instanceof LibraryError) throw new CommandFailed(`library ${path} is invalid:\n  ${e.problems.join("\n  ")}`);
    throw e;
  }
}

export function readGenerationFile(path: string): string {
  try {
    return path === "-" ? readFileSync(0, "utf8") : readFileSync(path, "utf8");
  } catch (e) {
    throw new CommandFailed(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
}
