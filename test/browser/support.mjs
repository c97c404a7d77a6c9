// Shared by the plain-Node tests (test/browser, test/node): the browser bundle, built when it is
// missing or older than the sources, and the real fixtures in ../shared when they are there.
// (Not a test file: `node --test test/browser/` runs only *.test.mjs here.)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BUNDLE_DIR = ROOT + "dist/browser/";
export const BUNDLE = BUNDLE_DIR + "index.js";
export const BUNDLE_URL = pathToFileURL(BUNDLE).href;
/** What the bundle exports, sorted: the public API, the same in Node and in the browser. */
export const BUNDLE_EXPORTS = [
  "LibraryError",
  "compileLibrary",
  "createStreamParser",
  "frame",
  "inspect",
  "isValid",
  "loadLanguage",
  "parse",
  "parseAndInspect",
];

const SOURCES = [ROOT + "src/lang/", ROOT + "package.json"];

function newestSource(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestSource(path + (path.endsWith("/") ? "" : "/") + name));
  return newest;
}

function upToDate() {
  return existsSync(BUNDLE) && statSync(BUNDLE).mtimeMs >= Math.max(...SOURCES.map(newestSource));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes sure dist/browser/index.js exists and is not older than src/lang: builds it with
 * `bun src/build/lang-bundle.ts` otherwise. A lock directory keeps two test processes from writing it at
 * once (node --test runs files in parallel).
 */
export async function ensureBundle() {
  if (upToDate()) return BUNDLE;
  mkdirSync(ROOT + "dist", { recursive: true });
  const lock = ROOT + "dist/.bundle-lock";
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      if (Date.now() > deadline) throw new Error(`${lock} has been held for a minute; remove it if no build is running`);
      await sleep(100);
    }
  }
  try {
    if (upToDate()) return BUNDLE; // another process built it while we waited
    const bun = [ROOT + "node_modules/.bin/bun", "bun"].find((b) => b === "bun" || existsSync(b));
    const run = spawnSync(bun, ["src/build/lang-bundle.ts"], { cwd: ROOT, encoding: "utf8" });
    if (run.error || run.status !== 0) {
      throw new Error(`building the bundle failed (run \`npm run build\`): ${run.error?.message ?? ""}${run.stdout}${run.stderr}`);
    }
    if (!existsSync(BUNDLE)) throw new Error(`src/build/lang-bundle.ts ran but ${BUNDLE} is missing`);
    return BUNDLE;
  } finally {
    rmdirSync(lock);
  }
}

const SHARED = fileURLToPath(new URL("../../../shared/fixtures/", import.meta.url));

/** Why the real fixtures cannot be used, or null when ../shared/fixtures is there. */
export const FIXTURES_MISSING = existsSync(SHARED) ? null : `../shared/fixtures is absent (looked in ${SHARED})`;

/** The real 53-component library as a chatLibrary object with root component Stack. */
export function realLibraryConfig() {
  return { root: "Stack", schema: JSON.parse(readFileSync(SHARED + "libraries/openui-default.schema.json", "utf8")) };
}

/** The seven real model outputs, by file name, sorted. */
export function realSamples() {
  const dir = SHARED + "samples/";
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith(".oui"))
      .sort()
      .map((f) => [f, readFileSync(dir + f, "utf8")]),
  );
}
