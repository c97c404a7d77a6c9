// Which Chromium the browser tests drive, for Node's and Bun's tests alike: CHROMIUM_PATH when it
// is set (and then only that), else the system's (Debian's `chromium`, or Chrome), else one a
// package downloaded into its cache (`npx playwright install chromium`, puppeteer). Where there is
// none, the browser tests are skipped with a line saying how to enable them, except under CI
// (CI set to anything but "false" or "0"), where nothing is skipped silently: they fail, naming
// what is missing. TESSERA_SKIP_BROWSER=1 skips them anywhere, saying so.
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const SYSTEM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

/** Executables inside the download caches of playwright and puppeteer, newest build first. */
function fromPackageCaches() {
  const found = [];
  const playwright = process.env.PLAYWRIGHT_BROWSERS_PATH || join(homedir(), ".cache", "ms-playwright");
  const inside = {
    chromium: ["chrome-linux/chrome", "chrome-linux64/chrome"],
    chromium_headless_shell: ["chrome-linux/headless_shell", "chrome-headless-shell-linux64/chrome-headless-shell"],
  };
  if (existsSync(playwright)) {
    for (const dir of readdirSync(playwright).sort().reverse()) {
      const kind = dir.replace(/-\d+$/, "");
      for (const rel of inside[kind] ?? []) found.push(join(playwright, dir, rel));
    }
  }
  const puppeteer = join(process.env.PUPPETEER_CACHE_DIR || join(homedir(), ".cache", "puppeteer"), "chrome");
  if (existsSync(puppeteer)) {
    for (const dir of readdirSync(puppeteer).sort().reverse()) found.push(join(puppeteer, dir, "chrome-linux64", "chrome"));
  }
  return found;
}

/** Whether this run is CI's (where a missing part fails the run instead of being skipped). */
export const inCI = (env = process.env) => !!env.CI && env.CI !== "false" && env.CI !== "0";

const HOW = "apt-get install chromium, or set CHROMIUM_PATH to a Chromium or Chrome, or run `npx playwright install chromium`";

/**
 * The browser to launch: `{ path }`; or `{ skip }`, why the browser tests do not run (printed);
 * or `{ missing }`, why they cannot run (they fail with it).
 */
export function findChromium(env = process.env, candidates = [...SYSTEM, ...fromPackageCaches()]) {
  if (env.TESSERA_SKIP_BROWSER === "1") return { skip: "TESSERA_SKIP_BROWSER=1 is set" };
  if (env.CHROMIUM_PATH) {
    return existsSync(env.CHROMIUM_PATH) ? { path: env.CHROMIUM_PATH } : { missing: `CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist` };
  }
  const path = candidates.find((p) => existsSync(p));
  if (path) return { path };
  const why = `no Chromium found (looked for ${SYSTEM.join(", ")} and in playwright's and puppeteer's caches)`;
  return inCI(env) ? { missing: `${why}; under CI the browser tests must run: ${HOW}` } : { skip: `${why}; to run them: ${HOW}` };
}

/** What every browser test launches Chromium with: headless, no sandbox (CI runs as root), no network of its own. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Launches the Chromium `findChromium()` found through playwright-core, on a fresh temporary
 * profile that closing removes; throws why when there is none to launch.
 * @param {{ path?: string, skip?: string, missing?: string }} found
 * @returns {Promise<import("playwright-core").Browser>}
 */
export async function launchChromium(found = findChromium()) {
  if (!found.path) throw new Error(found.missing ?? found.skip);
  let chromium;
  try {
    ({ chromium } = await import("playwright-core"));
  } catch (error) {
    throw new Error(`playwright-core cannot be imported (run npm ci): ${error.message}`);
  }
  return chromium.launch({ executablePath: found.path, args: CHROMIUM_FLAGS });
}
