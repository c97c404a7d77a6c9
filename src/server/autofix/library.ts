// Config block → compiled Library. The application's own library is compiled with the language
// core; `libraryVersion` names the built-in library, used only once src/library provides one.
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
  const builtin = await findBuiltinLibrary(block.libraryVersion);
  if (!builtin) {
    throw new HttpError(
      400,
      `the built-in library (libraryVersion ${block.libraryVersion}) is not available yet; send your own chatLibrary in the config block`,
      { param },
    );
  }
  return builtin;
}
