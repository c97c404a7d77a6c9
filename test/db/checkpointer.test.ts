// A server's SQLite log is copied into the database file by a worker thread, not by the commits
// on its event loop (whose checkpoints, with their disk sync, were its longest stalls).
import { expect, test } from "bun:test";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { createOrganization, openDatabase } from "../../src/db/index.ts";
import { BACKSTOP_PAGES } from "../../src/db/checkpointer.ts";
import { eventually } from "../support/eventually.ts";

test("with a checkpointer the log reaches the database file off the event loop; the server's own commits only back it up", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "tessera-ckpt-")), "t.db");
  const db = await openDatabase(path, { checkpointer: true });
  try {
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db);
    expect(rows[0]!.wal_autocheckpoint).toBe(BACKSTOP_PAGES);
    const org = await createOrganization(db, "ckpt", 0);
    const before = statSync(path).size;
    // 4 MB of logs: a thousand pages, far below the backstop, so only the worker copies them.
    const conversation = "x".repeat(40_000);
    await db.transaction().execute(async (tx) => {
      for (let i = 0; i < 100; i++) {
        await tx
          .insertInto("request_logs")
          .values({
            request_id: `c${i}`,
            organization_id: org.id,
            endpoint: "/v1/autofix",
            model: "m",
            status: 200,
            conversation,
            outcome: "fixed",
            charge: 0,
            duration_ms: 1,
            created_at: new Date().toISOString(),
          })
          .execute();
      }
    });
    const size = await eventually(
      () => statSync(path).size,
      (s) => s >= before + 4_000_000,
      { what: "the file to grow" },
    );
    expect(size).toBeGreaterThanOrEqual(before + 4_000_000);
  } finally {
    await db.destroy();
  }
});
