// @tessera-ui/tessera/client and @tessera-ui/tessera/lang, the files package.json "exports", imported as they are by a
// page in headless Chromium (served over HTTP, no bundler in between), answering as in Node.
// Run: node --test test/browser/ (which Chromium, and when it is skipped: test/support/chromium.mjs).
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join, normalize } from "node:path";
import { pathToFileURL } from "node:url";
import { findChromium } from "../support/chromium.mjs";
import { ROOT } from "./support.mjs";

const DIST = join(ROOT, "dist");
const browserFound = findChromium();
const skip = "skip" in browserFound ? browserFound.skip : null;
if (skip) console.log(`skipped: package in the browser: ${skip}`);

before(() => {
  if (existsSync(join(DIST, "client/index.js")) && existsSync(join(DIST, "lang/index.js"))) return;
  const r = spawnSync(join(ROOT, "node_modules/.bin/bun"), [join(ROOT, "src/client/build.ts")], { cwd: ROOT, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
});

// Runs in the page and in Node alike: it may refer to nothing outside itself.
async function scenario({ clientUrl, langUrl }) {
  const client = await import(clientUrl);
  const lang = await import(langUrl);
  await lang.loadLanguage();
  const library = {
    root: "Stack",
    schema: {
      $defs: {
        Stack: { properties: { children: { type: "array" } }, required: ["children"] },
        Text: { properties: { text: { type: "string" } }, required: ["text"] },
      },
    },
  };
  const compiled = lang.compileLibrary(library);
  const broken = lang.parse("root = Stack([t])\nt = Text(42)", compiled);
  return JSON.stringify({
    client: Object.keys(client).sort(),
    lang: Object.keys(lang).sort(),
    block: client.libraryConfig(library),
    valid: await client.isValidGeneration("```\nroot = Stack([])\n```", library),
    errors: broken.errors.map((e) => e.code),
    split: client.splitGeneration("Here:\n```\nroot = Stack([])\n```\nBye"),
  });
}

function serve() {
  const server = createServer((req, res) => {
    const path = normalize(new URL(req.url, "http://x").pathname);
    if (path === "/") {
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end('<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>tessera package</title>');
      return;
    }
    const file = join(DIST, path);
    if (!file.startsWith(DIST) || !file.endsWith(".js") || !existsSync(file)) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("@tessera-ui/tessera/client and @tessera-ui/tessera/lang import in headless Chromium and answer as in Node", {
  skip: skip ?? false,
  timeout: 120_000,
}, async () => {
  assert.ok("path" in browserFound, browserFound.missing);
  const CHROMIUM = browserFound.path;
  const { chromium } = await import("playwright-core");
  const inNode = await scenario({ clientUrl: pathToFileURL(join(DIST, "client/index.js")).href, langUrl: pathToFileURL(join(DIST, "lang/index.js")).href });
  const server = await serve();
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const pageErrors = [];
  let inBrowser;
  try {
    const page = await browser.newPage();
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    await page.goto(`${origin}/`);
    inBrowser = await page.evaluate(scenario, { clientUrl: `${origin}/client/index.js`, langUrl: `${origin}/lang/index.js` });
  } finally {
    await browser.close();
    server.close();
  }
  assert.deepEqual(pageErrors, []);
  const node = JSON.parse(inNode);
  assert.ok(node.client.includes("libraryConfig") && node.client.includes("autofixSseStream"), node.client.join());
  assert.deepEqual(node.errors, ["type-mismatch"]);
  assert.equal(node.valid, true);
  assert.deepEqual(JSON.parse(inBrowser), node);
});
