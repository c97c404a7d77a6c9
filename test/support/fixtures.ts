// The real material in ../shared/fixtures, when it is there.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const shared = fileURLToPath(new URL("../../../shared/fixtures/", import.meta.url));
export const FIXTURES_MISSING = existsSync(shared) ? null : `../shared/fixtures is absent (looked in ${shared})`;

/** The real 53-component library as a chatLibrary object with root component Stack. */
export function realLibraryConfig(): { root: string; schema: Record<string, unknown> } {
  return { root: "Stack", schema: JSON.parse(readFileSync(shared + "libraries/openui-default.schema.json", "utf8")) };
}

/** The seven real model outputs, by file name. */
export function realSamples(): Record<string, string> {
  const dir = shared + "samples/";
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith(".oui"))
      .sort()
      .map((f) => [f, readFileSync(dir + f, "utf8")]),
  );
}
