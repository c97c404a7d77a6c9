// A server's request logs and reliability events are written by a worker thread through a
// connection of its own (src/db/log-writer.ts), not by the server's connection: the same rows,
// each library block once, and a record the database refuses still costs only itself.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { createOrganization, flushLogs, openDatabase, writeReliabilityEvent, writeRequestLog, type Db } from "../../src/db/index.ts";
import { pack, unpack } from "../../src/db/log-writer.ts";
import type { CallRecords } from "../../src/db/logs.ts";

/** PRAGMA data_version: it changes, for a connection, when another connection commits. */
const dataVersion = async (db: Db) => (await sql<{ data_version: number }>`PRAGMA data_version`.execute(db)).rows[0]!.data_version;

test("with a log writer, the logs are committed by another connection; the rows are as the server's own would be", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tessera-log-writer-"));
  const db = await openDatabase(join(dir, "t.db"), { logWriter: true });
  try {
    const org = await createOrganization(db, "writer", 0);
    const library = { hash: "a".repeat(64), config: "<library block>" };
    const before = await dataVersion(db);
    const conversation = JSON.stringify([{ role: "assistant", content: "x".repeat(100_000) }]);
    for (let i = 0; i < 3; i++) {
      writeRequestLog(
        db,
        {
          request_id: `r${i}`,
          organization_id: org.id,
          endpoint: "/v1/autofix",
          model: "m",
          status: 200,
          conversation,
          outcome: "fixed",
          charge: 1,
          duration_ms: 2,
        },
        library,
      );
    }
    writeReliabilityEvent(db, { organization_id: org.id, model: "m", endpoint: "/v1/autofix", outcome: "fixed", corrected_codes: '["unknown-component"]' });
    await flushLogs(db);
    expect(await dataVersion(db)).not.toBe(before);
    // One the database refuses (no such organization) fails its batch: each is then written alone,
    // and it is reported, the others stored.
    writeRequestLog(db, {
      request_id: "orphan",
      organization_id: 999_999,
      endpoint: "/v1/autofix",
      model: "m",
      status: 200,
      conversation: "[]",
      outcome: "x",
      charge: 0,
      duration_ms: 1,
    });
    writeRequestLog(
      db,
      {
        request_id: "r3",
        organization_id: org.id,
        endpoint: "/v1/autofix",
        model: "m",
        status: 200,
        conversation,
        outcome: "fixed",
        charge: 1,
        duration_ms: 2,
      },
      library,
    );
    await flushLogs(db);
    const logs = await db.selectFrom("request_logs").select(["request_id", "conversation", "library_hash", "charge", "input_tokens"]).orderBy("id").execute();
    expect(logs).toEqual([0, 1, 2, 3].map((i) => ({ request_id: `r${i}`, conversation, library_hash: library.hash, charge: 1, input_tokens: null })));
    expect(await db.selectFrom("log_libraries").select(["hash", "config"]).execute()).toEqual([library]);
    expect(await db.selectFrom("reliability_events").select(["outcome", "corrected_codes"]).execute()).toEqual([
      { outcome: "fixed", corrected_codes: '["unknown-component"]' },
    ]);
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a batch crosses to the writer's thread whole: every field, each library block once", () => {
  const at = new Date().toISOString();
  const library = { hash: "b".repeat(64), config: "<block>" };
  const batch: CallRecords[] = [
    {
      log: {
        request_id: "r1",
        organization_id: 1,
        endpoint: "/e",
        model: "m",
        status: 200,
        conversation: '["\\"quoted\\"\\n"]',
        outcome: "fixed",
        charge: 3,
        duration_ms: 4,
        input_tokens: 5,
        output_tokens: null,
        created_at: at,
      },
      library,
      event: { organization_id: 1, model: "m", endpoint: "/e", outcome: "fixed", corrected_codes: "[]", created_at: at },
    },
    { log: null, library: null, event: { organization_id: 2, model: "n", endpoint: "/f", outcome: "error", corrected_codes: '["x"]', created_at: at } },
    {
      log: {
        request_id: "r2",
        organization_id: 1,
        endpoint: "/e",
        model: "m",
        status: 429,
        conversation: "[]",
        outcome: "rejected",
        charge: 0,
        duration_ms: 1,
        created_at: at,
      },
      library,
      event: null,
    },
  ];
  const packed = pack(batch);
  expect(packed.text.split(library.config)).toHaveLength(2);
  expect(unpack(structuredClone(packed))).toEqual([
    batch[0]!,
    batch[1]!,
    { ...batch[2]!, log: { ...batch[2]!.log!, input_tokens: null, output_tokens: null } },
  ]);
});
