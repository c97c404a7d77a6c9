// Config block → compiled Library: the application's own chatLibrary, compiled by the language
// core, or the built-in library that `libraryVersion` names (src/library).
import { compileLibrary, LibraryError } from "../../lang/index.ts";
import type { Library } from "../../lang/index.ts";
import type { ConfigBlock } from "../../client/config-block.ts";
import { findBuiltinLibrary } from "../../client/builtin.ts";
import { HttpError } from "../errors.ts";

export interface ResolvedLibrary {
  library: Library;
  /** The library as JSON, for the fixing model's prompt. */
  source: Record<string, unknown>;
}

export async function resolveLibrary(block: ConfigBlock): Promise<ResolvedLibrary> {
  const param = "messages[0].content";
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
