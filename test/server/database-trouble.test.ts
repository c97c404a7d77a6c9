// A database that cannot take writes (its disk full, or read-only): every paid call is a 503 with
// Retry-After that names the trouble, never a 500 and never a success whose charge went unrecorded;
// the log names it (not "cannot rollback"); /health is degraded until the trouble passes, then
// everything serves again. SQLite's own limits stand in for the disk: max_page_count fills it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { findOrganizationByName } from "../../src/db/index.ts";
import { books } from "../support/books.ts";
import { until } from "../support/server-process.ts";
import { autofixBody, BROKEN, post } from "./harness.ts";
import { startEmbedHarness, type EmbedHarness } from "./embed-harness.ts";

let E: EmbedHarness;
beforeAll(async () => {
  E = await startEmbedHarness();
});
afterAll(async () => {
  await E.h.server.stop();
  await E.close().catch(() => {});
});

const sqliteOnly = () => E.h.database !== "sqlite";

async function paid(key: string, n: number) {
  const out: { status: number; retryAfter: string | null; body: any; surface: string }[] = [];
  for (let i = 0; i < n; i++) {
    for (const surface of ["autofix", "embed"]) {
      const res =
        surface === "autofix"
          ? await post(E.h.base, "/v1/autofix", key, autofixBody(BROKEN))
          : await post(E.h.base, "/v1/embed/chat/completions", key, {
              model: "openai/gpt-4o-mini",
              messages: [{ role: "user", content: `hi ${"x".repeat(2000)}` }],
            });
      out.push({ status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json(), surface });
    }
  }
  return out;
}

for (const kind of ["disk_full", "read_only"] as const) {
  test(`${kind}: 503 with Retry-After naming it, no charge unrecorded, /health degraded, then serving again`, async () => {
    if (sqliteOnly()) return; // SQLite's pragmas stand in for the disk; PostgreSQL's faults are in test/faults
    E.h.server.config.embedPrice = 1;
    const key = await E.h.org(`trouble-${kind}`, 10_000);
    const org = (await findOrganizationByName(E.h.server.db, `trouble-${kind}`))!;
    const db = E.h.server.db;
    const { page_count } = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]!;
    await sql.raw(kind === "disk_full" ? `pragma max_page_count = ${page_count}` : "pragma query_only = on").execute(db);
    const answers: Awaited<ReturnType<typeof paid>> = [];
    try {
      // Pages left free in the file take a few writes before the disk is found full.
      for (let round = 0; round < 50 && !answers.some((a) => a.status === 503); round++) answers.push(...(await paid(key, 5)));
      const health = await fetch(`${E.h.base}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: "degraded", database: kind });
      expect((await fetch(`${E.h.base}/health/live`)).status).toBe(200);
    } finally {
      await sql.raw(kind === "disk_full" ? "pragma max_page_count = 1073741823" : "pragma query_only = off").execute(db);
    }
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of answers) expect([200, 503]).toContain(a.status);
    for (const a of refused) {
      expect(a.retryAfter).toBe("30");
      expect(a.body.error.code).toBe("service_unavailable");
      expect(a.body.error.message).toContain(kind === "disk_full" ? "disk is full" : "read-only");
    }
    expect(E.h.lines.some((l) => l.includes(`database trouble (${kind})`))).toBe(true);
    expect(E.h.lines.some((l) => l.includes("cannot rollback"))).toBe(false);

    // The trouble passed: /health clears (its probe writes), calls succeed again.
    expect((await fetch(`${E.h.base}/health`)).status).toBe(200);
    const after = await paid(key, 1);
    expect(after.map((a) => a.status)).toEqual([200, 200]);

    // Every success was charged, and only those; holds of refused calls came back.
    await E.h.server.idle();
    const b = await books(db, org.id);
    expect(b.balanced).toBe(true);
    const ok = [...answers, ...after].filter((a) => a.status === 200).length;
    await until("the refused calls' holds to come back", async () => (await books(db, org.id)).openHolds === 0);
    expect(10_000 - (await books(db, org.id)).credits).toBe(ok);
  });
}
