// A background response across a server crash: the process running it is killed with -9 mid-run;
// the next server (same database) marks it failed, saying why, once its lease has lapsed, instead
// of leaving it in progress forever.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase } from "../../../../src/db/index.ts";
import { freshDatabase } from "../../../support/postgres.ts";
import { freePort } from "../../../support/ports.ts";
import { startSlowOpenAI } from "../../../support/slow-openai.ts";

const root = new URL("../../../..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "tessera-restart-"));
const slow = startSlowOpenAI(400, 50); // 20 s of answer: the kill lands mid-run
const fresh = await freshDatabase(undefined, "restart");
afterAll(async () => {
  slow.stop();
  rmSync(dir, { recursive: true, force: true });
  await fresh.drop();
});

async function serve(port: number) {
  const proc = Bun.spawn([process.execPath, "src/server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), TESSERA_DB: fresh.target, TESSERA_DATA_DIR: dir, TESSERA_LEASE_SECONDS: "1", LOCAL_BASE_URL: slow.url },
    stdout: "pipe",
    stderr: "pipe",
  });
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return proc;
    await Bun.sleep(50);
  }
  throw new Error("server did not start");
}

test("a background response survives a kill -9 of its server as a failed response, not an eternal in_progress", async () => {
  const db = await openDatabase(fresh.target);
  const org = await createOrganization(db, "restart", 10);
  const { key } = await createApiKey(db, org.id);
  await db.destroy();
  const port = await freePort();
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

  const first = await serve(port);
  const created = await (
    await fetch(`http://127.0.0.1:${port}/v1/embed/responses`, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: "local/slow", input: "a long one", background: true }),
    })
  ).json();
  let seen: any;
  do {
    await Bun.sleep(100);
    seen = await (await fetch(`http://127.0.0.1:${port}/v1/embed/responses/${created.id}`, { headers })).json();
  } while (seen.status !== "in_progress" || slow.started === 0);
  first.kill(9);
  await first.exited;

  const second = await serve(port);
  try {
    let after: any;
    for (let i = 0; i < 60; i++) {
      after = await (await fetch(`http://127.0.0.1:${port}/v1/embed/responses/${created.id}`, { headers })).json();
      if (after.status !== "in_progress" && after.status !== "queued") break;
      await Bun.sleep(100);
    }
    expect(after.status).toBe("failed");
    expect(after.error.message).toContain("stopped before it finished");
    const replay = await (await fetch(`http://127.0.0.1:${port}/v1/embed/responses/${created.id}?stream=true`, { headers })).text();
    expect(replay).toContain("event: response.failed");
    expect(replay.trim().endsWith("data: [DONE]")).toBe(true);
  } finally {
    second.kill();
    await second.exited;
  }
}, 30_000);
