// The README's code, as a reader would paste it: every `ts` block that imports tessera/client or
// tessera/lang is type-checked against the published declarations and run under Node 20 through
// the package's own "exports" (the Autofix example against a real server started as npm start
// starts it). Bun and Deno import the same built entry points. Run: node --test test/node/
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../browser/support.mjs";

const BIN = (name) => join(ROOT, "node_modules/.bin", name);
const ENTRIES = { client: join(ROOT, "dist/client/index.js"), lang: join(ROOT, "dist/lang/index.js") };
// Inside the package, so that `tessera/…` resolves through package.json "exports" (self-reference).
const WORK = join(ROOT, "dist/readme-examples");

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Builds the entry points when they are missing or older than the sources (npm test builds first). */
function ensurePackage() {
  const built = Object.values(ENTRIES).every(existsSync) && Math.min(...Object.values(ENTRIES).map((f) => statSync(f).mtimeMs));
  if (built && built >= Math.max(newest(join(ROOT, "src/client")), newest(join(ROOT, "src/lang")), newest(join(ROOT, "package.json")))) return;
  const r = spawnSync(BIN("bun"), [join(ROOT, "src/client/build.ts")], { cwd: ROOT, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
}

/** The ```ts blocks of the README that import tessera/client or tessera/lang. */
function readmeBlocks() {
  const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
  const blocks = [];
  let open = null;
  for (const line of lines) {
    if (open === null && /^```ts\s*$/.test(line)) open = [];
    else if (open !== null && /^```\s*$/.test(line)) {
      blocks.push(open.join("\n"));
      open = null;
    } else if (open !== null) open.push(line);
  }
  return blocks.filter((b) => /from "tessera\/(client|lang)"/.test(b));
}

/** Imports stay at the top of the module; the rest runs inside an async function. */
function split(block) {
  const lines = block.split("\n");
  const imports = lines.filter((l) => /^import /.test(l));
  const body = lines.filter((l) => !/^import /.test(l));
  return { imports: imports.join("\n"), body: body.join("\n") };
}

const SMALL_LIBRARY = {
  root: "Stack",
  schema: {
    $defs: {
      Stack: { properties: { children: { type: "array" } }, required: ["children"] },
      Text: { properties: { text: { type: "string" } }, required: ["text"] },
    },
  },
};

// The names the examples leave to the reader, as declarations (for tsc) and as values (for Node).
const DECLARATIONS = `
declare const myLibrary: Record<string, unknown>;
declare const modelOutput: string;
declare const modelChunks: AsyncIterable<string>;
declare function render(root: unknown): void;
declare const generation: string;
declare const upstream: Response;
declare const stream: AsyncIterable<any>;
declare const library: Record<string, unknown>;
declare const baseUrl: string;
declare const apiKey: string;
`;
const values = (base, key) => `
const myLibrary = ${JSON.stringify(SMALL_LIBRARY)};
const modelOutput = "root = Stack([greeting])\\ngreeting = TEXT(\\"Hello\\")";
const modelChunks = (async function* () { yield "root = Stack([t"; yield "])\\nt = Text(\\"hi\\")"; })();
const rendered = [];
const render = (root) => rendered.push(root);
const generation = "Here you go:\\n\`\`\`\\nroot = Stack([])\\n\`\`\`";
const upstream = new Response("data: [DONE]\\n\\n");
const stream = (async function* () {})();
const library = myLibrary;
const baseUrl = ${JSON.stringify(base)};
const apiKey = ${JSON.stringify(key)};
`;

let server = null;
let base = "";
let key = "";
let dir = "";
let blocks = [];

before(async () => {
  ensurePackage();
  blocks = readmeBlocks();
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), "tessera-readme-"));
  const env = { ...process.env, PORT: "0", TESSERA_DB: join(dir, "tessera.db"), TESSERA_DATA_DIR: dir };
  const cli = (...args) => {
    const r = spawnSync("node", [join(ROOT, "src/cli/bin.js"), ...args], { env, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim().split("\n").at(-1);
  };
  cli("org", "create", "readme", "--credits", "10");
  key = cli("key", "create", "--org", "readme");
  server = spawn(BIN("bun"), [join(ROOT, "src/server/main.ts")], { env, stdio: ["ignore", "pipe", "inherit"] });
  base = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+:\d+)/.exec(out);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
});

after(() => {
  server?.kill();
  rmSync(dir, { recursive: true, force: true });
  rmSync(WORK, { recursive: true, force: true });
});

test("the README shows tessera/lang, the Autofix client and stream autofix through the package entry points", () => {
  // At least the three this was written for; a new block is checked and run like them.
  assert.ok(blocks.length >= 3, blocks.join("\n----\n"));
  for (const wanted of ['from "tessera/lang"', 'import { libraryConfig } from "tessera/client"', "autofixSseStream"]) {
    assert.ok(blocks.some((b) => b.includes(wanted)), wanted);
  }
  assert.ok(!readFileSync(join(ROOT, "README.md"), "utf8").includes("tessera/src/"), "no deep import into src/ is left");
});

test("every such block type-checks against dist/types (tsc, the package's exports)", () => {
  const files = blocks.map((block, i) => {
    const { imports, body } = split(block);
    const file = join(WORK, `block-${i}.ts`);
    writeFileSync(file, `${imports}\n${DECLARATIONS}\nexport async function example() {\n${body}\n}\n`);
    return file;
  });
  const r = spawnSync(
    BIN("tsc"),
    ["--noEmit", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--skipLibCheck", "--types", "node", ...files],
    { cwd: ROOT, encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("every such block runs under Node 20, importing tessera/client and tessera/lang by name", async () => {
  const { transform } = await import("esbuild");
  for (const [i, block] of blocks.entries()) {
    const { imports, body } = split(block);
    const fn = await transform(`async function example() {\n${body.replaceAll("http://localhost:8787", base)}\n}`, { loader: "ts", format: "esm", target: "es2022" });
    const file = join(WORK, `block-${i}.mjs`);
    writeFileSync(file, `${imports}\n${values(base, key)}\n${fn.code}\nawait example();\nconsole.log("ran " + rendered.length);\n`);
    const r = spawnSync("node", [file], { cwd: WORK, encoding: "utf8", env: { ...process.env, TESSERA_KEY: key, TESSERA_API_KEY: key }, timeout: 30_000 });
    assert.equal(r.status, 0, `block ${i}:\n${block}\n${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /^ran \d+/m);
  }
});

test("the built entry points import in Bun and Deno too, and need no Node built-ins", () => {
  const script = (a, b) =>
    `const c = await import(${JSON.stringify(a)}); const l = await import(${JSON.stringify(b)}); await l.loadLanguage();` +
    `const lib = l.compileLibrary(${JSON.stringify(SMALL_LIBRARY)});` +
    // One string, so that no runtime colours it (npm test sets FORCE_COLOR).
    `console.log([typeof c.libraryConfig, l.isValid(l.parse("root = Stack([])", lib)), await c.isValidGeneration("root = Stack([])", ${JSON.stringify(SMALL_LIBRARY)})].join(" "));`;
  const bun = spawnSync(BIN("bun"), ["--eval", script("tessera/client", "tessera/lang")], { cwd: ROOT, encoding: "utf8" });
  assert.equal(bun.stdout.trim(), "function true true", bun.stderr);
  const urls = Object.values(ENTRIES).map((f) => pathToFileURL(f).href);
  const deno = spawnSync(BIN("deno"), ["eval", script(urls[0], urls[1])], { cwd: tmpdir(), encoding: "utf8" });
  assert.equal(deno.stdout.trim(), "function true true", deno.stderr);
  for (const file of readdirSync(join(ROOT, "dist/shared")).map((f) => join(ROOT, "dist/shared", f)).concat(Object.values(ENTRIES))) {
    if (file.endsWith(".js")) assert.doesNotMatch(readFileSync(file, "utf8"), /from ["']node:|require\(/, file);
  }
});
