// Writes after the response: the answer does not wait for them, and a stopping server does.
import { expect, test } from "bun:test";
import { findOrganizationByName, openDatabase } from "../../src/db/index.ts";
import { Background } from "../../src/server/background.ts";
import { until } from "../support/server-process.ts";
import { autofixBody, post, startHarness, VALID } from "./harness.ts";

test("idle() waits for every task, also those a task starts; a failure is logged, not thrown", async () => {
  const lines: string[] = [];
  const bg = new Background((l) => lines.push(l));
  const done: string[] = [];
  bg.later("a", async () => {
    await Bun.sleep(30);
    done.push("a");
    bg.later("b", async () => {
      await Bun.sleep(30);
      done.push("b");
    });
  });
  bg.later("c", async () => {
    throw new Error("disk full");
  });
  expect(done).toEqual([]); // nothing runs before the caller has returned its answer
  await bg.idle();
  expect(done).toEqual(["a", "b"]);
  expect(lines).toEqual(["c failed: disk full"]);
  expect(bg.size).toBe(0);
});

test("stop() amid requests: every free and rejected request answered is in the logs", async () => {
  const h = await startHarness();
  const key = await h.org("stopping", 1);
  const broke = await h.org("stopping-broke", 0);
  const status = (r: Promise<Response>) =>
    r.then(
      (a) => a.status,
      () => 0,
    ); // 0: refused, the server was stopping
  const sent = Promise.all([
    ...Array.from({ length: 40 }, () => status(post(h.base, "/v1/autofix", key, autofixBody(VALID)))),
    ...Array.from({ length: 20 }, () => status(post(h.base, "/v1/autofix", broke, autofixBody(VALID)))),
  ]);
  // Stop once half have been answered: the log writes of the last answers are still to come.
  await until("30 requests answered", () => h.lines.length >= 30);
  const path = h.target;
  await h.server.stop();
  const answers = await sent;
  const free = answers.filter((s) => s === 200).length;
  const refused = answers.filter((s) => s === 429).length;
  expect(free + refused + answers.filter((s) => s === 0).length).toBe(60);
  expect(free + refused).toBeGreaterThanOrEqual(30);
  const db = await openDatabase(path);
  try {
    const ok = (await findOrganizationByName(db, "stopping"))!;
    const no = (await findOrganizationByName(db, "stopping-broke"))!;
    expect(await db.selectFrom("request_logs").select("id").where("organization_id", "=", ok.id).execute()).toHaveLength(free);
    expect(await db.selectFrom("reliability_events").select("id").where("organization_id", "=", ok.id).execute()).toHaveLength(free);
    expect(await db.selectFrom("request_logs").select("id").where("organization_id", "=", no.id).execute()).toHaveLength(refused);
  } finally {
    await db.destroy();
    await h.close();
  }
});
