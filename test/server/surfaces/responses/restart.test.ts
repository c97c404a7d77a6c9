// A background response across a server crash: the process running it is killed with -9 mid-run;
// the next server (same database) marks it failed, saying why, once its lease has lapsed, instead
// of leaving it in progress forever.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase } from "../../../../src/db/index.ts";
import { freshDatabase } from "../../../support/postgres.ts";
import { eventually } from "../../../support/eventually.ts";
import { startServerProcess } from "../../../support/server-process.ts";
import { startSlowOpenAI } from "../../../support/slow-openai.ts";

const dir = mkdtempSync(join(tmpdir(), "tessera-restart-"));
const slow = startSlowOpenAI(400, 50); // 20 s of answer: the kill lands mid-run
const fresh = await freshDatabase(undefined, "restart");
afterAll(async () => {
  slow.stop();
  rmSync(dir, { recursive: true, force: true });
  await fresh.drop();
});

test("a background response survives a kill -9 of its server as a failed response, not an eternal in_progress", async () => {
  const db = await openDatabase(fresh.target);
  const org = await createOrganization(db, "restart", 10);
  const { key } = await createApiKey(db, org.id);
  await db.destroy();
  const env = { TESSERA_DB: fresh.target, TESSERA_DATA_DIR: dir, TESSERA_LEASE_SECONDS: "1", LOCAL_BASE_URL: slow.url };
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

  const first = await startServerProcess(env);
  const created = await (
    await fetch(`${first.base}/v1/embed/responses`, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: "local/slow", input: "a long one", background: true }),
    })
  ).json();
  const read = (base: string) => fetch(`${base}/v1/embed/responses/${created.id}`, { headers }).then((r) => r.json() as Promise<any>);
  await eventually(
    () => read(first.base),
    (seen) => seen.status === "in_progress" && slow.started > 0,
    { what: "the run to start" },
  );
  await first.stop("SIGKILL");

  const second = await startServerProcess(env);
  try {
    const after = await eventually(
      () => read(second.base),
      (r) => r.status !== "in_progress" && r.status !== "queued",
      { ms: 15_000, what: "the orphaned run to end" },
    );
    expect(after.status).toBe("failed");
    expect(after.error.message).toContain("stopped before it finished");
    const replay = await (await fetch(`${second.base}/v1/embed/responses/${created.id}?stream=true`, { headers })).text();
    expect(replay).toContain("event: response.failed");
    expect(replay.trim().endsWith("data: [DONE]")).toBe(true);
  } finally {
    await second.stop();
  }
}, 30_000);
