// Request-level keys, refused early: a blob that is not exactly what /encryption/encrypt wrote,
// and a plain key that could not travel in an HTTP header.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { embedSuite } from "../../embed-harness.ts";
import { post, startHarness, type Harness } from "../../harness.ts";

const S = embedSuite("byok", 10);

async function encrypt(apiKey: string) {
  return post(S.E.h.base, "/encryption/encrypt", S.key, { provider: "openai", apiKey });
}

const chat = (encryptedApiKey: string) =>
  post(S.E.h.base, "/v1/embed/chat/completions", S.key, {
    model: "openai/gpt-test",
    messages: [{ role: "user", content: "x" }],
    byok: { provider: "openai", encryptedApiKey },
  });

test("a blob opens as written; with anything appended it is a 400 and the provider is never called", async () => {
  const blob = (await (await encrypt("sk-user-appended")).json()).encryptedApiKey as string;
  expect((await chat(blob)).status).toBe(200);
  expect(S.E.openai.calls.at(-1)!.headers.authorization).toBe("Bearer sk-user-appended");
  S.E.openai.calls.length = 0;
  for (const tail of [".", ".x", ".AAAA", "A", "AA", "=", "==", "!", " ", "\n", "\u00e9", "%00"]) {
    const res = await chat(blob + tail);
    expect([JSON.stringify(tail), res.status]).toEqual([JSON.stringify(tail), 400]);
    expect((await res.json()).error.param).toBe("byok.encryptedApiKey");
  }
  for (const head of [" ", "x", "."]) expect((await chat(head + blob)).status).toBe(400);
  expect(S.E.openai.calls).toHaveLength(0);
});

test("encrypt refuses control characters and characters outside ASCII in apiKey, naming the field and the first one", async () => {
  const cases: [string, string][] = [
    ["sk-a\r\nX-Injected: 1", "a control character, U+000D, at position 4"],
    ["sk-a\n", "a control character, U+000A, at position 4"],
    ["sk-\u0000a", "a control character, U+0000, at position 3"],
    ["\tsk-a", "a control character, U+0009, at position 0"],
    ["sk-a\u007f", "a control character, U+007F, at position 4"],
    ["sk-\u0085a", "a control character, U+0085, at position 3"],
    ["sk-ключ", "a character outside ASCII, U+043A, at position 3"],
    // A key pasted with a typographic ellipsis, as documentation often prints it.
    ["sk-ant-\u2026", "a character outside ASCII, U+2026, at position 7"],
  ];
  for (const [bad, says] of cases) {
    const res = await encrypt(bad);
    expect([JSON.stringify(bad), res.status]).toEqual([JSON.stringify(bad), 400]);
    const { error } = await res.json();
    expect(error.param).toBe("apiKey");
    expect(error.message).toContain("printable ASCII");
    expect(error.message).toContain(says);
  }
  expect((await encrypt("sk-proj-AbC_123-xyz.456 ok")).status).toBe(200);
});

test("a generated master key is 0600 in a folder made 0700, made when the server starts", async () => {
  const parent = mkdtempSync(join(tmpdir(), "tessera-master-"));
  const old = process.umask(0o022);
  let h: Harness | null = null;
  try {
    h = await startHarness({ dataDir: join(parent, "made", "here") });
    expect(statSync(join(parent, "made")).mode & 0o777).toBe(0o700);
    expect(statSync(join(parent, "made", "here")).mode & 0o777).toBe(0o700);
    expect(statSync(join(parent, "made", "here", "master.key")).mode & 0o777).toBe(0o600);
    const own = await h.org("sealer", 0);
    expect((await post(h.base, "/encryption/encrypt", own, { provider: "openai", apiKey: "sk-any" })).status).toBe(200);
  } finally {
    process.umask(old);
    await h?.close();
    rmSync(parent, { recursive: true, force: true });
  }
});
