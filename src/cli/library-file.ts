// Reads a library file for validate/fix: a chatLibrary ({root?, schema: {$defs}}), a config JSON
// ({chatLibrary: …}) or a bare JSON Schema with $defs (then with no root component).
import { readFileSync } from "node:fs";
import { compileLibrary, LibraryError, type Library } from "../lang/index.ts";
import { CommandFailed } from "./io.ts";

export function loadLibraryFile(path: string): { library: Library; source: Record<string, unknown> } {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new CommandFailed(`cannot read library ${path}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
  let source = json as Record<string, unknown>;
  if (source && typeof source === "object" && "chatLibrary" in source) source = source.chatLibrary as Record<string, unknown>;
  else if (source && typeof source === "object" && "$defs" in source && !("schema" in source)) source = { schema: source };
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
