// The browser bundle in a real headless Chromium reports exactly what the same bundle reports in
// Node: every real sample, broken programs across the error codes, fenced and enveloped
// generations, a library error, and streams in small chunks. Run: node --test test/browser/
//
// Chromium (test/support/chromium.mjs finds it: CHROMIUM_PATH, the system's, a package's cache) is
// driven by playwright-core. Without one the test is skipped, saying how to enable it; under CI it
// fails instead. TESSERA_SKIP_BROWSER=1 skips it, saying so.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { findChromium, launchChromium } from "../support/chromium.mjs";
import { BUNDLE_DIR, BUNDLE_EXPORTS, BUNDLE_URL, ensureBundle, FIXTURES_MISSING, realLibraryConfig, realSamples } from "./support.mjs";

const browserFound = findChromium();

// Broken programs against the real library (root component Stack), one or more codes each.
const BROKEN = {
  "unknown-component+type-mismatch": 'root = Stack([a, b])\na = Widget("x")\nb = TextContent(42, "huge")',
  "missing-required+null-required": 'root = Stack([btn, t])\nbtn = Button("Go")\nt = TextContent(null)',
  "excess-args": 'root = Stack([t], "column", "m", "start", "start", true, "extra")\nt = TextContent("hi")',
  "unresolved+orphaned": 'root = Stack([t, missing])\nt = TextContent("hi")\nlonely = TextContent("nobody uses me")',
  "missing-root": 'a = TextContent("hi")\nb = Stack([a])',
  "root-not-the-root-component": 'root = Card([TextContent("hi")])',
  syntax: 'root = Stack([t, u])\nt = TextContent(text: "named")\nHere is your UI!\nu = Button("a" "b")',
  incomplete: 'root = Stack([t])\nt = TextContent("unterminated',
  "inline-reserved": 'root = Stack([q])\nq = Stack([Query("orders")])',
  unicode: 'root = Stack([t])\nt = TextContent("h\u00e9llo \ud83c\udf0d \\u00e9 \\" \u2014 ok", "large")',
  empty: "",
  prose: "Sorry, I cannot build that UI.",
  // Nesting at the parser's limit (1,200 levels; a call and its list count two) and past it.
  "deep 600 calls": "root = " + "Stack([".repeat(600) + "])".repeat(600),
  "deep 1,200 levels of arrays": "root = Stack([" + "[".repeat(1198) + "]".repeat(1198) + "])",
  "too deep": "root = Stack([" + "[".repeat(1199) + "]".repeat(1199) + "])",
};

// One function for both sides: Playwright sends its source to the page, Node calls it directly.
// It must not refer to anything outside itself.
async function scenario({ bundleUrl, config, programs, generations, streams, repeats }) {
  const lang = await import(bundleUrl);
  await lang.loadLanguage();
  // FNV-1a over a string: the streams record every intermediate result without shipping megabytes.
  const digest = (text) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return h.toString(16).padStart(8, "0");
  };
  const out = { exports: Object.keys(lang).sort(), parses: {}, frames: {}, inspections: {}, streams: {}, libraryErrors: [], repeats: {} };
  const library = lang.compileLibrary(config);
  // Deep programs parsed again and again: the engine's first tiers (larger frames) and its
  // optimized one must all hold the nesting the parser allows.
  for (const name of repeats) {
    const codes = new Set();
    for (let i = 0; i < 40; i++) for (const e of lang.parse(programs[name], library).errors) codes.add(e.code);
    out.repeats[name] = [...codes].sort();
  }
  for (const [name, text] of Object.entries(programs)) {
    const result = lang.parse(text, library);
    out.parses[name] = { valid: lang.isValid(result), result };
  }
  for (const [name, text] of Object.entries(generations)) {
    const result = lang.parse(text, library);
    out.parses[name] = { valid: lang.isValid(result), result };
    out.frames[name] = lang.frame(text);
  }
  for (const name of Object.keys(programs).slice(0, 2)) out.inspections[name] = lang.inspect(programs[name], library);
  for (const { name, text, size } of streams) {
    const stream = lang.createStreamParser(library);
    const pushes = [];
    for (let at = 0; at < text.length; at += size) pushes.push(digest(JSON.stringify(stream.push(text.slice(at, at + size)))));
    const end = stream.end();
    out.streams[`${name} @${size}`] = {
      pushes,
      end,
      endEqualsParse: JSON.stringify(end) === JSON.stringify(lang.parse(text, library)),
    };
  }
  for (const bad of [{ root: "Nope", schema: { $defs: {} } }, { schema: { $defs: { A: { type: "object", properties: { x: { $ref: "#/$defs/B" } } } } } }, 42]) {
    try {
      lang.compileLibrary(bad);
      out.libraryErrors.push({ threw: false });
    } catch (error) {
      out.libraryErrors.push({ threw: true, name: error.name, message: error.message, problems: error.problems });
    }
  }
  return JSON.stringify(out);
}

function inputs() {
  const samples = realSamples();
  const programs = { ...samples, ...BROKEN };
  const generations = {
    "three fenced blocks":
      'Page:\n```ui\nroot = Stack([t, more])\n```\nThe title:\n```\nt = TextContent("Hi")\n```\nand\n```ui\nmore = TextContent(42)\n```\nDone.',
    "fenced pricing-page": "Here is the pricing page you asked for:\n\n```openui\n" + samples["pricing-page.oui"] + "\n```\n\nLet me know if you want changes.",
    "fenced settings-panel": "```\n" + samples["settings-panel.oui"] + "\n```",
    "enveloped dashboard": "]]>service:content\n" + samples["dashboard.oui"] + '\n]]>service:meta\n{"model":"m"}\n',
    "enveloped broken": "]]>service:content\n" + BROKEN["missing-required+null-required"] + "\n",
  };
  const streams = [
    ...Object.entries(samples).map(([name, text]) => ({ name, text, size: 7 })),
    { name: "settings-panel.oui", text: samples["settings-panel.oui"], size: 1 },
    { name: "fenced pricing-page", text: generations["fenced pricing-page"], size: 13 },
    { name: "syntax", text: BROKEN.syntax, size: 3 },
  ];
  streams.push({ name: "three fenced blocks", text: generations["three fenced blocks"], size: 5 });
  return { config: realLibraryConfig(), programs, generations, streams, repeats: ["deep 600 calls", "deep 1,200 levels of arrays"] };
}

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>tessera bundle</title>
<link rel="icon" href="data:,">
<script type="module">
  import * as lang from "./index.js";
  await lang.loadLanguage();
  window.__tessera = Object.keys(lang).sort();
</script>
`;

function serve() {
  const files = {
    "/": ["text/html; charset=utf-8", () => PAGE],
    "/index.html": ["text/html; charset=utf-8", () => PAGE],
    "/index.js": ["text/javascript; charset=utf-8", () => readFileSync(BUNDLE_DIR + "index.js")],
    "/index.js.map": ["application/json", () => readFileSync(BUNDLE_DIR + "index.js.map")],
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url, "http://x").pathname];
    if (!file) {
      res.writeHead(404).end("not found");
      return;
    }
    try {
      const body = file[1]();
      res.writeHead(200, { "content-type": file[0], "cache-control": "no-store" }).end(body);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const skipReason = FIXTURES_MISSING ?? ("skip" in browserFound ? browserFound.skip : null);
if (skipReason) console.log(`skipped: browser parity: ${skipReason}`);

test("the browser bundle in headless Chromium reports exactly what it reports in Node", { skip: skipReason ?? false, timeout: 180_000 }, async () => {
  assert.ok("path" in browserFound, browserFound.missing);
  await ensureBundle();
  const args = inputs();

  const inNode = await scenario({ bundleUrl: BUNDLE_URL, ...args });

  const server = await serve();
  const origin = `http://127.0.0.1:${server.address().port}`;
  // launch() gives Chromium a fresh, empty temporary profile (user-data-dir) and removes it on close.
  const browser = await launchChromium(browserFound);
  let inBrowser;
  let userAgent;
  const pageErrors = [];
  try {
    const page = await browser.newPage();
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
    await page.goto(`${origin}/index.html`);
    const exported = await page.waitForFunction(() => window.__tessera, null, { timeout: 30_000 }).then((h) => h.jsonValue());
    assert.deepEqual(exported, BUNDLE_EXPORTS);
    userAgent = await page.evaluate(() => navigator.userAgent);
    inBrowser = await page.evaluate(scenario, { bundleUrl: `${origin}/index.js`, ...args });
  } finally {
    await browser.close();
    server.close();
  }
  assert.deepEqual(pageErrors, [], "the page logged errors");
  console.log(`browser: ${userAgent}; result ${inBrowser.length} characters of JSON`);

  // Sanity of the Node side, so that parity is parity of the right answers.
  const node = JSON.parse(inNode);
  const valid = Object.fromEntries(Object.entries(node.parses).map(([name, p]) => [name, p.valid]));
  for (const name of Object.keys(realSamples())) assert.equal(valid[name], name !== "settings-panel.oui", name);
  assert.deepEqual(
    node.parses["settings-panel.oui"].result.errors.map((e) => e.code),
    Array(5).fill("type-mismatch"),
  );
  const codes = new Set(Object.values(node.parses).flatMap((p) => p.result.errors.map((e) => e.code)));
  for (const code of [
    "unknown-component",
    "missing-required",
    "null-required",
    "type-mismatch",
    "excess-args",
    "inline-reserved",
    "incomplete",
    "unresolved",
    "orphaned",
    "missing-root",
    "syntax",
  ]) {
    assert.ok(codes.has(code), `no program produced ${code}`);
  }
  for (const [name, s] of Object.entries(node.streams)) assert.ok(s.endEqualsParse, `stream ${name}: end() differs from parse()`);
  assert.ok(
    node.libraryErrors.every((e) => e.threw && e.name === "LibraryError"),
    JSON.stringify(node.libraryErrors),
  );
  // The deepest programs the parser allows parse in every tier (whatever else the library says of them).
  for (const [name, codes] of Object.entries(node.repeats)) assert.ok(!codes.includes("syntax"), `${name}: ${codes}`);
  assert.match(node.parses["too deep"].result.errors[0].message, /^nested too deep: expected at most 1200 levels/);
  assert.deepEqual(node.frames["three fenced blocks"].blocks.length, 3);

  // The point: the same JSON, byte for byte.
  if (inBrowser !== inNode) {
    const browser = JSON.parse(inBrowser);
    for (const part of Object.keys(node)) {
      for (const key of Object.keys({ ...node[part], ...browser[part] })) {
        assert.deepEqual(browser[part]?.[key], node[part]?.[key], `${part} / ${key}: Chromium differs from Node`);
      }
    }
    assert.equal(inBrowser, inNode);
  }
});
