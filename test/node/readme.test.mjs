// The README's and docs/' code, as a reader would paste it. The README's quickstart runs as
// written: its first block (npm install && npm start) in the repository, the others in one shell,
// on a free port instead of 8787, with OPENAI_BASE_URL pointing at a stand-in OpenAI. Every `ts`
// block that imports @tessera-ui/tessera/client or /lang is type-checked against the published
// declarations and run under Node 20 through the package's own "exports", against a real server.
// Bun and Deno import the same built entry points. Run: node --test test/node/
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
// Inside the package, so that `@tessera-ui/tessera/…` resolves through package.json "exports" (self-reference).
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

/** The README and every page of docs/. */
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const read = (page) => readFileSync(join(ROOT, page), "utf8");

/** The fenced blocks of `text` in language `lang` (```ts, ```sh). */
function fenced(text, lang) {
  const blocks = [];
  let open = null;
  for (const line of text.split("\n")) {
    if (open === null && new RegExp(`^\`\`\`${lang}\\s*$`).test(line)) open = [];
    else if (open !== null && /^```\s*$/.test(line)) {
      blocks.push(open.join("\n"));
      open = null;
    } else if (open !== null) open.push(line);
  }
  return blocks;
}

/** The ```ts blocks of the README and docs/ that import @tessera-ui/tessera/client or /lang. */
function readmeBlocks() {
  return PAGES.flatMap((page) => fenced(read(page), "ts")).filter((b) => /from "@tessera-ui\/tessera\/(client|lang)"/.test(b));
}

/** The README's quickstart: its ```sh blocks, in order. */
function quickstartBlocks() {
  const readme = read("README.md");
  const start = readme.indexOf("## Quickstart");
  const end = readme.indexOf("\n## ", start + 1);
  return fenced(readme.slice(start, end), "sh");
}

/** The stand-in OpenAI in a process of its own (it serves until its stdin closes), and its base URL. */
async function startStandIn() {
  const child = spawn(BIN("bun"), [join(ROOT, "test/support/stand-in-openai.ts")], { stdio: ["pipe", "pipe", "inherit"] });
  const url = await waitFor(child, /^(http:\/\/\S+)$/m);
  return { child, url };
}

/** The first match of `re` in a child's standard output. */
function waitFor(child, re) {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = re.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`exited ${code} before printing ${re}: ${out}`)));
  });
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

let server = null;
let standIn = null;
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
  standIn = await startStandIn();
  const env = {
    ...process.env,
    PORT: "0",
    TESSERA_DB: join(dir, "tessera.db"),
    TESSERA_DATA_DIR: dir,
    OPENAI_BASE_URL: standIn.url,
    OPENAI_API_KEY: "sk-stand-in",
  };
  const cli = (...args) => {
    const r = spawnSync("node", [join(ROOT, "src/cli/bin.js"), ...args], { env, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim().split("\n").at(-1);
  };
  cli("org", "create", "readme", "--credits", "10");
  key = cli("key", "create", "--org", "readme");
  server = spawn(BIN("bun"), [join(ROOT, "src/server/main.ts")], { env, stdio: ["ignore", "pipe", "inherit"] });
  base = await waitFor(server, /listening on (http:\/\/\S+:\d+)/);
});

after(() => {
  server?.kill();
  standIn?.child.stdin.end();
  rmSync(dir, { recursive: true, force: true });
  rmSync(WORK, { recursive: true, force: true });
});

test("the README shows the language core, the Autofix client and stream autofix through the package entry points", () => {
  // At least the three this was written for; a new block is checked and run like them.
  assert.ok(blocks.length >= 3, blocks.join("\n----\n"));
  for (const wanted of ['from "@tessera-ui/tessera/lang"', 'import { libraryConfig } from "@tessera-ui/tessera/client"', "autofixSseStream"]) {
    assert.ok(
      blocks.some((b) => b.includes(wanted)),
      wanted,
    );
  }
  for (const page of PAGES) assert.ok(!read(page).includes("tessera/src/"), `no deep import into src/ is left (${page})`);
});

test("every such block type-checks against dist/types (tsc, the package's exports)", () => {
  const files = blocks.map((block, i) => {
    const { imports, body } = split(block);
    const file = join(WORK, `block-${i}.ts`);
    writeFileSync(file, `${imports}\nexport async function example() {\n${body}\n}\n`);
    return file;
  });
  const r = spawnSync(
    BIN("tsc"),
    ["--noEmit", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--skipLibCheck", "--types", "node", ...files],
    { cwd: ROOT, encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("every such block runs under Node 20, importing @tessera-ui/tessera/client and /lang by name", async () => {
  const { transform } = await import("esbuild");
  for (const [i, block] of blocks.entries()) {
    const { imports, body } = split(block);
    const fn = await transform(`async function example() {\n${body.replaceAll("http://127.0.0.1:8787", base)}\n}`, {
      loader: "ts",
      format: "esm",
      target: "es2022",
    });
    const file = join(WORK, `block-${i}.mjs`);
    writeFileSync(file, `${imports}\n${fn.code}\nawait example();\nconsole.log("ran to the end");\n`);
    const r = spawnSync("node", [file], { cwd: WORK, encoding: "utf8", env: { ...process.env, TESSERA_API_KEY: key }, timeout: 30_000 });
    assert.equal(r.status, 0, `block ${i}:\n${block}\n${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /^ran to the end$/m);
  }
});

test("the built entry points import in Bun and Deno too, and need no Node built-ins", () => {
  const script = (a, b) =>
    `const c = await import(${JSON.stringify(a)}); const l = await import(${JSON.stringify(b)}); await l.loadLanguage();` +
    `const lib = l.compileLibrary(${JSON.stringify(SMALL_LIBRARY)});` +
    // One string, so that no runtime colours it (npm test sets FORCE_COLOR).
    `console.log([typeof c.libraryConfig, l.isValid(l.parse("root = Stack([])", lib)), await c.isValidGeneration("root = Stack([])", ${JSON.stringify(SMALL_LIBRARY)})].join(" "));`;
  const bun = spawnSync(BIN("bun"), ["--eval", script("@tessera-ui/tessera/client", "@tessera-ui/tessera/lang")], { cwd: ROOT, encoding: "utf8" });
  assert.equal(bun.stdout.trim(), "function true true", bun.stderr);
  const urls = Object.values(ENTRIES).map((f) => pathToFileURL(f).href);
  const deno = spawnSync(BIN("deno"), ["eval", script(urls[0], urls[1])], { cwd: tmpdir(), encoding: "utf8" });
  assert.equal(deno.stdout.trim(), "function true true", deno.stderr);
  for (const file of readdirSync(join(ROOT, "dist/shared"))
    .map((f) => join(ROOT, "dist/shared", f))
    .concat(Object.values(ENTRIES))) {
    if (file.endsWith(".js")) assert.doesNotMatch(readFileSync(file, "utf8"), /from ["']node:|require\(/, file);
  }
});

test("the README's quickstart runs as written: server, organization, key, Embed, Autofix, Responses, a frontend token", async () => {
  const [startBlock, ...rest] = quickstartBlocks();
  assert.match(startBlock, /npm start/);
  assert.ok(rest.length >= 4, rest.join("\n----\n"));
  const qdir = mkdtempSync(join(tmpdir(), "tessera-quickstart-"));
  const env = {
    ...process.env,
    PORT: "0",
    TESSERA_DB: join(qdir, "tessera.db"),
    TESSERA_DATA_DIR: qdir,
    OPENAI_BASE_URL: standIn.url,
    OPENAI_API_KEY: "sk-stand-in",
    // npm install, as the block says, without asking the registry: node_modules is in place.
    npm_config_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
  // Its own process group, so that the server npm starts goes with the shell.
  const first = spawn("bash", ["-c", startBlock], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let startOutput = "";
  first.stderr.on("data", (d) => (startOutput += d));
  try {
    const url = await waitFor(first, /tessera listening on (http:\/\/\S+:\d+)/);
    const script = ["set -euo pipefail", ...rest].join("\n").replaceAll("http://127.0.0.1:8787", url);
    const r = spawnSync("bash", ["-c", script], { cwd: ROOT, env, encoding: "utf8", timeout: 120_000 });
    assert.equal(r.status, 0, `${script}\n${r.stdout}${r.stderr}`);
    const lines = r.stdout.split("\n");
    const answers = lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
    assert.deepEqual(answers[0], { status: "ok" });
    assert.ok(
      lines.some((l) => /^created organization acme with 100 credits$/.test(l)),
      r.stdout,
    );
    const [health, embed, autofix, response, next, token, ...more] = answers;
    assert.ok(health && more.length === 0, r.stdout);
    assert.equal(embed.object, "chat.completion");
    assert.equal(embed.model, "openai/gpt-4.1-mini");
    assert.match(embed.choices[0].message.content, /"Say hello in five words\." \(1 messages\)/);
    assert.equal(autofix.fix_summary.status, "fixed");
    assert.equal(autofix.choices[0].message.content, 'root = Stack([t])\nt = Text("Hello")');
    assert.equal(response.object, "response");
    assert.equal(response.status, "completed");
    assert.equal(next.status, "completed");
    assert.equal(next.previous_response_id, response.id);
    // The stored first turn went to the model with the second: user, assistant, user.
    assert.match(next.output[0].content[0].text, /What is my name\?.*\(3 messages\)/);
    // A browser's token for an OpenUI app: its user, its scopes, its models.
    assert.match(token.token, /^tft_/);
    assert.deepEqual(
      [token.user_id, token.scopes, token.models],
      ["ada", ["responses:create", "conversations:read", "conversations:write"], ["openai/gpt-4.1-mini"]],
    );
  } finally {
    try {
      process.kill(-first.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await new Promise((resolve) => (first.exitCode !== null ? resolve() : first.on("exit", resolve)));
    rmSync(qdir, { recursive: true, force: true });
  }
  assert.doesNotMatch(startOutput, /error/i, startOutput);
});
