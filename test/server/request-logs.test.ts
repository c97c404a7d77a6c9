// What request logs keep: a bounded excerpt of a rejected request, and an accepted request's
// conversation with its library config block stored once per distinct block.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeConfigBlock } from "../../src/client/config-block.ts";
import { findOrganizationByName, purgeOldLogs } from "../../src/db/index.ts";
import { REJECTED_EXCERPT_BYTES } from "../../src/server/logged-conversation.ts";
import { autofixBody, BROKEN, CONFIG, post, SMALL_LIBRARY, startHarness, VALID, type Harness } from "./harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function logsOf(name: string) {
  await h.server.idle();
  const org = (await findOrganizationByName(h.server.db, name))!;
  return h.server.db.selectFrom("request_logs").selectAll().where("organization_id", "=", org.id).orderBy("id").execute();
}

test("rejected requests (400, 413, 429) keep an excerpt of at most REJECTED_EXCERPT_BYTES", async () => {
  const rich = await h.org("rejected", 5);
  const broke = await h.org("rejected-broke", 0);
  const long = "é".repeat(150_000); // two bytes each: the cut must not split one
  expect((await post(h.base, "/v1/autofix", rich, autofixBody(long))).status).toBe(400);
  expect((await post(h.base, "/v1/autofix", broke, autofixBody(VALID + "\n" + "x = 1\n".repeat(15_000)))).status).toBe(429);
  expect((await post(h.base, "/v1/autofix", rich, "x".repeat(1024 * 1024 + 1))).status).toBe(413);
  const logs = [...(await logsOf("rejected")), ...(await logsOf("rejected-broke"))];
  expect(logs.map((l) => l.status).sort()).toEqual([400, 413, 429]);
  for (const log of logs) {
    expect(Buffer.byteLength(log.conversation, "utf8")).toBeLessThanOrEqual(REJECTED_EXCERPT_BYTES);
    expect(log.library_hash).toBeNull();
    expect(log.conversation).not.toContain("\uFFFD");
  }
  const tooLong = logs.find((l) => l.status === 400)!;
  expect(tooLong.conversation).toStartWith(JSON.stringify(autofixBody(long).messages).slice(0, 100));
  expect(tooLong.conversation).toContain("excerpt");
});

test("accepted requests keep the conversation; each distinct library block is stored once", async () => {
  const key = await h.org("accepted", 5);
  const other = writeConfigBlock({ chatLibrary: SMALL_LIBRARY }, "Prefer large text.");
  const sent = [
    autofixBody(VALID),
    autofixBody(BROKEN),
    autofixBody(VALID, {}, [{ role: "user", content: "a greeting" }]),
    {
      messages: [
        { role: "system", content: other },
        { role: "assistant", content: VALID },
      ],
    },
  ];
  for (const body of sent) expect((await post(h.base, "/v1/autofix", key, body)).status).toBe(200);
  const logs = await logsOf("accepted");
  expect(logs).toHaveLength(sent.length);
  const libraries = await h.server.db.selectFrom("log_libraries").selectAll().execute();
  const byHash = new Map(libraries.map((l) => [l.hash, l.config]));
  expect(new Set(logs.map((l) => l.library_hash)).size).toBe(2);
  logs.forEach((log, i) => {
    expect(log.conversation).not.toContain("service:config");
    // The conversation and its library give back exactly what was sent.
    const messages = JSON.parse(log.conversation);
    const { library_hash, ...rest } = messages[0];
    expect(library_hash).toBe(log.library_hash);
    messages[0] = { ...rest, content: byHash.get(log.library_hash!) };
    expect(messages).toEqual(sent[i]!.messages);
  });
  expect(byHash.get(logs[0]!.library_hash!)).toBe(CONFIG);
});

test("retention takes a library block with the last log that names it", async () => {
  const before = await h.server.db.selectFrom("log_libraries").select("hash").execute();
  expect(before.length).toBeGreaterThan(0);
  // Blocks older than the window that recent logs still name stay.
  await h.server.db
    .updateTable("log_libraries")
    .set({ created_at: new Date(Date.now() - 40 * 86_400_000).toISOString() })
    .execute();
  expect(await purgeOldLogs(h.server.db, 30)).toBe(0);
  expect(await h.server.db.selectFrom("log_libraries").select("hash").execute()).toHaveLength(before.length);
  // Everything is older than a retention of -1 days.
  expect(await purgeOldLogs(h.server.db, -1)).toBeGreaterThan(0);
  expect(await h.server.db.selectFrom("log_libraries").select("hash").execute()).toHaveLength(0);
});
