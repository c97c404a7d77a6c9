// `tessera org` refuses amounts that are not whole credits within 10^15, before touching the
// database: 99999999999999999999 used to be stored as the REAL 1e20.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database as Sqlite } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN = join(import.meta.dir, "../../src/cli/bin.js");
let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tessera-cli-credits-"));
  env = { ...(process.env as Record<string, string>), TESSERA_DB: join(dir, "tessera.db") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tessera(...args: string[]) {
  const r = Bun.spawnSync(["node", BIN, ...args], { env, cwd: dir });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

function balance(): { credits: unknown; type: string } {
  const raw = new Sqlite(env.TESSERA_DB, { readonly: true });
  try {
    return raw.query("SELECT credits, typeof(credits) AS type FROM organizations WHERE name = 'acme'").get() as { credits: unknown; type: string };
  } finally {
    raw.close();
  }
}

test("org credit and org create --credits refuse amounts past 10^15 and non-integers, with a usage error", () => {
  expect(tessera("org", "create", "acme", "--credits", "5").code).toBe(0);
  for (const amount of ["99999999999999999999", "-99999999999999999999", "1000000000000001", "9007199254740993", "1.5", "1e3", "0x10", "Infinity"]) {
    const r = tessera("org", "credit", "acme", amount);
    expect([amount, r.code]).toEqual([amount, 2]);
    expect(r.stderr).toMatch(/N must be (a whole number|at most 1000000000000000)/);
  }
  const big = tessera("org", "create", "big", "--credits", "99999999999999999999");
  expect(big.code).toBe(2);
  expect(big.stderr).toContain("--credits must be at most 1000000000000000 (10^15) credits");
  expect(balance()).toEqual({ credits: 5, type: "integer" });
});

test("a balance stops at 10^15: the credit that would pass it is refused and nothing changes", () => {
  expect(tessera("org", "credit", "acme", "999999999999995").code).toBe(0);
  expect(balance()).toEqual({ credits: 1_000_000_000_000_000, type: "integer" });
  const over = tessera("org", "credit", "acme", "1");
  expect(over.code).toBe(1);
  expect(over.stderr).toContain("a balance may be at most 1000000000000000");
  expect(tessera("org", "credit", "acme", "-1000000000000000").code).toBe(0);
  expect(balance()).toEqual({ credits: 0, type: "integer" });
});
