// `tessera validate` with a malformed library prints the problems with their schema paths
// (it printed "unexpected error: Type error").
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN = join(import.meta.dir, "../../src/cli/bin.js");
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tessera-cli-lib-"));
  writeFileSync(join(dir, "page.oui"), 'root = A("x")');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function validate(libraryText: string) {
  writeFileSync(join(dir, "lib.json"), libraryText);
  const r = Bun.spawnSync(["node", BIN, "validate", "page.oui", "--library", "lib.json"], { cwd: dir, env: { ...process.env, TESSERA_DB: join(dir, "t.db") } });
  return { code: r.exitCode, stderr: r.stderr.toString() };
}

const withProp = (p: string) => `{"root":"A","schema":{"$defs":{"A":{"properties":{"p":${p}}}}}}`;

test("each malformed schema: exit 1, the problem and its path, never 'unexpected error'", () => {
  for (const [p, says] of [
    ['{"enum":5}', "`$defs.A.properties.p.enum` must be an array"],
    ['{"anyOf":"xyz"}', "`$defs.A.properties.p.anyOf` must be a non-empty array of schemas"],
    ['{"anyOf":[null]}', "`$defs.A.properties.p.anyOf[0]` must be a JSON Schema object"],
    ['{"items":"x"}', "`$defs.A.properties.p.items` must be a JSON Schema object"],
    ['{"$ref":5}', "`$defs/A/properties/p` has $ref 5"],
    ["null", "`$defs.A.properties.p` must be a JSON Schema object, got null"],
    [`${'{"items":'.repeat(20_000)}{}${"}".repeat(20_000)}`, "`schema.$defs.A.properties.p.items.items."],
  ]) {
    const r = validate(withProp(p));
    expect([p.slice(0, 20), r.code]).toEqual([p.slice(0, 20), 1]);
    expect(r.stderr).toContain("library lib.json is invalid:");
    expect(r.stderr).toContain(says);
    expect(r.stderr).not.toContain("unexpected error");
  }
});
