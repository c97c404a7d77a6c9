// A name that installs: the package is @tessera-ui/tessera (`tessera` on npm is someone else's).
// From a copy of the checkout (its tracked files and node_modules, as a clone after `npm install`
// has them), `npm pack` runs the `prepare` step, which builds the entry points into the tarball.
// The tarball is laid out in an application's node_modules as npm lays out a dependency; there
// the entry points import by the package's name under Node, and `npx tessera` finds its CLI.
// Run: node --test test/node/
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "../browser/support.mjs";

const NAME = "@tessera-ui/tessera";
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
let dir;
let tarball;
let app;

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" },
    timeout: 300_000,
  });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")}\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), "tessera-package-"));
  // The checkout as a fresh clone has it: tracked and unignored files, nothing built.
  const checkout = join(dir, "checkout");
  const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT).split("\0").filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    try {
      copyFileSync(join(ROOT, file), join(checkout, file));
    } catch (e) {
      if (e.code !== "ENOENT") throw e; // deleted in the working tree, not yet committed
    }
  }
  symlinkSync(join(ROOT, "node_modules"), join(checkout, "node_modules"));
  // The build's own lines come first on stdout; npm's JSON report is the last thing printed.
  const out = run("npm", ["pack", "--json", "--pack-destination", dir], checkout);
  const packed = JSON.parse(out.slice(out.search(/^\[/m)));
  tarball = join(dir, packed[0].filename);

  // An application with the package installed: node_modules/@tessera-ui/tessera, its dependencies
  // beside it (linked to this checkout's), and the bins npm links.
  app = join(dir, "app");
  const home = join(app, "node_modules", ...NAME.split("/"));
  mkdirSync(home, { recursive: true });
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module", dependencies: { [NAME]: pkg.version } }));
  run("tar", ["-xzf", tarball, "--strip-components=1", "-C", home], dir);
  for (const dep of Object.keys(pkg.dependencies)) {
    // A scoped dependency (@scope/name) is linked inside its scope's folder.
    const at = join(app, "node_modules", ...dep.split("/"));
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", dep), at);
  }
  mkdirSync(join(app, "node_modules", ".bin"));
  for (const [bin, target] of Object.entries(pkg.bin)) {
    chmodSync(join(home, target), 0o755);
    symlinkSync(join(home, target), join(app, "node_modules", ".bin", bin));
  }
  symlinkSync(join(ROOT, "node_modules", ".bin", "bun"), join(app, "node_modules", ".bin", "bun"));
});

after(() => rmSync(dir, { recursive: true, force: true }));

test("the package has a name of its own, its bin is still `tessera`, and `prepare` builds the entry points", () => {
  assert.equal(pkg.name, NAME);
  assert.equal(pkg.private, undefined);
  assert.deepEqual(Object.keys(pkg.bin), ["tessera"]);
  assert.match(pkg.scripts.prepare, /src\/client\/build\.ts/);
  const listed = run("tar", ["-tzf", tarball], dir).split("\n");
  for (const entry of Object.values(pkg.exports)) {
    for (const file of typeof entry === "string" ? [entry] : Object.values(entry))
      assert.ok(listed.includes(`package/${file.slice(2)}`), `${file} is in the tarball`);
  }
  assert.ok(listed.includes("package/src/cli/bin.js"));
});

test("an application imports the entry points by the package's name under Node", () => {
  const script =
    `const c = await import("${NAME}/client"); const l = await import("${NAME}/lang"); await l.loadLanguage();` +
    `const lib = l.compileLibrary({root: "Stack", schema: {$defs: {Stack: {properties: {children: {type: "array"}}, required: ["children"]}}}});` +
    `console.log([c.libraryConfig(undefined, {markers: "openui"}).split("\\n")[0], l.isValid(l.parse("root = Stack([])", lib))].join(" "));`;
  assert.equal(run("node", ["--input-type=module", "-e", script], app).trim(), "]]>openui:config true");
});

test("`npx tessera` in the application runs this package's CLI", () => {
  const out = run("npx", ["--offline", "--no-install", "tessera", "--help"], app);
  assert.match(out, /^Usage: tessera/m);
  assert.match(run("npx", ["--offline", "--no-install", "tessera", "validate", "--help"], app), /]]>openui:config/);
});
