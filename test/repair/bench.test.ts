// The repair benchmark's targets, held by a test: every broken program comes back valid.
import { describe, expect, test } from "bun:test";
import { isValid, parse } from "../../src/lang/index.ts";
import { BREAKERS, OWN_PROGRAMS, run } from "../../bench/repair.ts";
import { HAVE_SHARED, library, sample } from "./support.ts";

describe.skipIf(!HAVE_SHARED)("repair benchmark", () => {
  test("every breaker really breaks, and the sanitizer brings every case back valid, >= 95% exactly", async () => {
    const lib = await library();
    const programs: Record<string, string> = { ...OWN_PROGRAMS, dashboard: sample("dashboard.oui"), "pricing-page": sample("pricing-page.oui") };
    for (const [name, p] of Object.entries(programs)) {
      expect(isValid(parse(p, lib))).toBe(true);
      for (const breaker of Object.values(BREAKERS)) {
        const broken = breaker(p, lib);
        if (broken !== null) expect(isValid(parse(broken, lib)), name).toBe(false);
      }
    }
    const { rows } = run(programs, lib);
    const cases = rows.reduce((n, r) => n + r.cases, 0);
    expect(rows.reduce((n, r) => n + r.valid, 0)).toBe(cases);
    expect(rows.reduce((n, r) => n + r.restored, 0)).toBeGreaterThanOrEqual(0.95 * cases);
  });
});
