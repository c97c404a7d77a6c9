// The real `tessera` CLI (node src/cli/bin.js → Bun → src/cli/main.ts) on a temporary TESSERA_DB
// (a SQLite file, or a PostgreSQL URL when TESSERA_TEST_DB=postgres).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import { BROKEN, FIXED, HOPELESS, SMALL_LIBRARY, VALID } from "../server/harness.ts";

const BIN = join(import.meta.dir, "../../src/cli/bin.js");
let dir: string;
let env: Record<string, string>;
let fresh: TestDatabase;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tessera-cli-"));
  fresh = await freshDatabase(undefined, "cli");
  const target = fresh.kind === "sqlite" ? join(dir, "db", "tessera.db") : fresh.target;
  env = { ...(process.env as Record<string, string>), TESSERA_DB: target };
  writeFileSync(join(dir, "lib.json"), JSON.stringify(SMALL_LIBRARY));
  writeFileSync(join(dir, "valid.oui"), VALID);
  writeFileSync(join(dir, "broken.oui"), BROKEN);
  writeFileSync(join(dir, "hopeless.oui"), HOPELESS);
  // The folder db/ does not exist yet: init creates it (and the database).
  const init = tessera("init");
  expect([init.code, init.stderr]).toEqual([0, ""]);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await fresh.drop();
});

function tessera(...args: string[]) {
  const r = Bun.spawnSync(["node", BIN, ...args], { env, cwd: dir });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

test("--help everywhere, exit 0; no command is a usage error", () => {
  for (const args of [
    ["--help"],
    ["init", "--help"],
    ["org", "--help"],
    ["org", "create", "--help"],
    ["key", "--help"],
    ["key", "create", "--help"],
    ["validate", "--help"],
    ["fix", "--help"],
  ]) {
    const r = tessera(...args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: tessera/);
  }
  expect(tessera().code).toBe(2);
});

test("a SQLite path whose folder does not exist is refused, creating nothing; init creates it, and again changes nothing", () => {
  const missing = join(dir, "no", "such", "folder", "x.db");
  for (const args of [
    ["org", "show", "acme"],
    ["org", "create", "acme"],
    ["key", "list", "--org", "acme"],
  ]) {
    const r = Bun.spawnSync(["node", BIN, ...args], { env: { ...env, TESSERA_DB: missing }, cwd: dir });
    expect([args.join(" "), r.exitCode]).toEqual([args.join(" "), 1]);
    expect(r.stderr.toString()).toContain(`no database at ${missing}: its folder ${join(dir, "no", "such", "folder")} does not exist`);
    expect(r.stderr.toString()).toContain("tessera init");
  }
  expect(existsSync(join(dir, "no"))).toBe(false);
  const init = (target: string) => Bun.spawnSync(["node", BIN, "init"], { env: { ...env, TESSERA_DB: target }, cwd: dir });
  expect(init(missing).stdout.toString().trim()).toBe(`created database: ${missing}`);
  expect(statSync(join(dir, "no")).mode & 0o777).toBe(0o700);
  expect(statSync(missing).mode & 0o777).toBe(0o600);
  expect(init(missing).stdout.toString().trim()).toBe(`database up to date: ${missing}`);
  const show = Bun.spawnSync(["node", BIN, "org", "show", "acme"], { env: { ...env, TESSERA_DB: missing }, cwd: dir });
  expect(show.stderr.toString()).toContain('no organization named "acme"');
});

test("org create / show / credit / suspend / resume", () => {
  expect(tessera("org", "create", "acme", "--credits", "5").code).toBe(0);
  expect(JSON.parse(tessera("org", "show", "acme", "--json").stdout)).toMatchObject({ name: "acme", credits: 5, suspended: false });
  expect(tessera("org", "credit", "acme", "10").stdout).toContain("15");
  expect(tessera("org", "credit", "acme", "-3").code).toBe(0);
  expect(JSON.parse(tessera("org", "show", "acme", "--json").stdout).credits).toBe(12);
  const over = tessera("org", "credit", "acme", "-100");
  expect(over.code).toBe(1);
  expect(over.stderr).toContain("only 12");
  expect(tessera("org", "suspend", "acme").code).toBe(0);
  expect(JSON.parse(tessera("org", "show", "acme", "--json").stdout).suspended).toBe(true);
  expect(tessera("org", "resume", "acme").code).toBe(0);
  expect(JSON.parse(tessera("org", "show", "acme", "--json").stdout).suspended).toBe(false);
  expect(tessera("org", "show", "acme").stdout).toMatch(/credits:\s+12/);
});

test("bad input: clear message and exit code", () => {
  const dup = tessera("org", "create", "acme");
  expect(dup.code).toBe(1);
  expect(dup.stderr).toContain("already exists");
  const missing = tessera("org", "show", "nobody");
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("no organization named");
  for (const args of [
    ["org", "credit", "acme", "lots"],
    ["org", "create"],
    ["org", "create", "x", "--credits"],
    ["org", "frobnicate"],
    ["frobnicate"],
    ["key", "create"],
    ["org", "show", "acme", "--bogus"],
  ]) {
    const r = tessera(...args);
    expect(r.code).toBe(2);
    expect(r.stderr.length).toBeGreaterThan(0);
  }
});

test("key create prints the key alone on its last line; list and revoke by prefix", () => {
  const created = tessera("key", "create", "--org", "acme");
  expect(created.code).toBe(0);
  const key = created.stdout.trim().split("\n").at(-1)!;
  expect(key).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
  const list = tessera("key", "list", "--org", "acme");
  const prefix = key.slice(0, 12);
  expect(list.stdout).toContain(prefix);
  expect(list.stdout).not.toContain(key);
  expect(list.stdout).toContain("active");
  expect(tessera("key", "revoke", prefix).code).toBe(0);
  expect(tessera("key", "list", "--org", "acme").stdout).toContain("revoked");
  expect(tessera("key", "revoke", prefix).code).toBe(1);
});

test("validate: 'valid' and exit 0, or the errors and exit 1", () => {
  const ok = tessera("validate", "valid.oui", "--library", "lib.json");
  expect(ok.code).toBe(0);
  expect(ok.stdout.trim()).toBe("valid");
  const bad = tessera("validate", "broken.oui", "--library", "lib.json");
  expect(bad.code).toBe(1);
  expect(bad.stdout).toContain("unknown-component");
  const json = tessera("validate", "broken.oui", "--library", "lib.json", "--json");
  expect(JSON.parse(json.stdout).valid).toBe(false);
  expect(tessera("validate", "nope.oui", "--library", "lib.json").code).toBe(1);
  expect(tessera("validate", "valid.oui").code).toBe(2);
});

test("fix: prints the corrected generation and the summary", () => {
  const fixed = tessera("fix", "broken.oui", "--library", "lib.json");
  expect(fixed.code).toBe(0);
  expect(fixed.stdout).toBe(FIXED + "\n");
  expect(fixed.stderr).toContain("status: fixed");
  expect(fixed.stderr).toContain("unknown-component");
  const json = JSON.parse(tessera("fix", "broken.oui", "--library", "lib.json", "--json").stdout);
  expect(json).toMatchObject({ status: "fixed", content: FIXED });
  const failed = tessera("fix", "hopeless.oui", "--library", "lib.json");
  expect(failed.code).toBe(1);
  expect(failed.stderr).toContain("status: fix_failed");
  expect(tessera("fix", "valid.oui", "--library", "lib.json").stderr).toContain("already_valid");
});
