// Shared set-up for the repair tests: the real library from ../shared, or a printed skip reason.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileLibrary, loadLanguage, type Library } from "../../src/lang/index.ts";

export const FIXTURES = join(import.meta.dir, "..", "..", "..", "shared", "fixtures");
export const HAVE_SHARED = existsSync(join(FIXTURES, "libraries", "openui-default.schema.json"));
if (!HAVE_SHARED) console.log(`repair tests skipped: ${FIXTURES} is absent (it holds the real library and samples)`);

let lib: Library | null = null;

/** The real default library, wrapped with root Stack as a config's chatLibrary. */
export async function library(): Promise<Library> {
  await loadLanguage();
  lib ??= compileLibrary({ root: "Stack", schema: JSON.parse(readFileSync(join(FIXTURES, "libraries", "openui-default.schema.json"), "utf8")) });
  return lib;
}

export function sample(name: string): string {
  return readFileSync(join(FIXTURES, "samples", name), "utf8");
}

export const codes = (errors: { code: string }[]) => errors.map((e) => e.code);
