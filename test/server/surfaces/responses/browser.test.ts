// The browser's way in, in a real browser: headless Chromium loads a page from another origin, the
// official openai client (bundled for the browser) takes a frontend token as its key and works on
// the Conversations routes across origins (CORS preflights for its own headers, errors readable:
// 404, 403, 401, not "CORS failure"). A page from an origin not in TESSERA_CORS_ORIGINS is refused
// by the browser itself.
//
// Chromium (test/support/chromium.mjs finds it, and says when the test is skipped) is driven by
// playwright-core, as in test/browser.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { findChromium, launchChromium } from "../../../support/chromium.mjs";
import { skip } from "../../../support/harness.ts";
import { startHarness, type Harness } from "../../harness.ts";

const browserFound = findChromium();

/** A page server on its own loopback port (its own origin) that serves the bundled openai client. */
function pageServer(bundle: string) {
  return Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/openai.js") return new Response(bundle, { headers: { "content-type": "text/javascript" } });
      return new Response("<!doctype html><title>app</title><p>app</p>", { headers: { "content-type": "text/html" } });
    },
  });
}

/** Runs in the page: everything a browser app does with the token, each refusal as the client reports it. */
async function scenario({ base, alice, aliceReadOnly, bob }: { base: string; alice: string; aliceReadOnly: string; bob: string }) {
  const { OpenAI } = await import("/openai.js" as string);
  const client = (key: string) => new OpenAI({ baseURL: `${base}/v1`, apiKey: key, dangerouslyAllowBrowser: true, maxRetries: 0 });
  const outcome = async (p: Promise<unknown>) => {
    try {
      await p;
      return "ok";
    } catch (e: any) {
      return e?.status ?? e?.constructor?.name ?? String(e);
    }
  };
  const a = client(alice),
    ro = client(aliceReadOnly),
    b = client(bob);
  const c = await a.conversations.create({ metadata: { title: "from the browser" }, items: [{ type: "message", role: "user", content: "hello" }] });
  await a.conversations.items.create(c.id, { items: [{ type: "message", role: "user", content: "again" }] });
  const texts: string[] = [];
  for await (const item of ro.conversations.items.list(c.id, { order: "asc", limit: 1 })) texts.push(item.content[0].text);
  const updated = await a.conversations.update(c.id, { metadata: { title: "renamed" } });
  return {
    id: c.id,
    texts,
    title: updated.metadata.title,
    bobReads: await outcome(b.conversations.retrieve(c.id)),
    readOnlyWrites: await outcome(ro.conversations.items.create(c.id, { items: [{ type: "message", role: "user", content: "x" }] })),
    alteredToken: await outcome(client(alice.slice(0, -3) + (alice.endsWith("AAA") ? "BBB" : "AAA")).conversations.retrieve(c.id)),
    deleted: (await a.conversations.delete(c.id)).deleted,
    afterDelete: await outcome(a.conversations.retrieve(c.id)),
  };
}

async function otherOrigin({ base, alice }: { base: string; alice: string }) {
  const { OpenAI } = await import("/openai.js" as string);
  const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: alice, dangerouslyAllowBrowser: true, maxRetries: 0 });
  try {
    await client.conversations.create();
    return "ok";
  } catch (e: any) {
    return e?.status ?? e?.constructor?.name;
  }
}

if ("skip" in browserFound) {
  skip("frontend tokens in a real browser", browserFound.skip);
} else {
  let h: Harness;
  let browser: Browser;
  let allowed: ReturnType<typeof pageServer>, refused: ReturnType<typeof pageServer>;
  let key: string;

  beforeAll(async () => {
    if (!("path" in browserFound)) throw new Error("missing" in browserFound ? browserFound.missing : "no browser");
    const built = await Bun.build({ entrypoints: [fileURLToPath(import.meta.resolve("openai"))], target: "browser", format: "esm" });
    if (!built.success) throw new Error(`bundling openai for the browser failed: ${built.logs.join("\n")}`);
    const bundle = await built.outputs[0]!.text();
    allowed = pageServer(bundle);
    refused = pageServer(bundle);
    h = await startHarness({ corsOrigins: [`http://127.0.0.1:${allowed.port}`] });
    key = await h.org("browser-app", 0);
    browser = await launchChromium(browserFound);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    allowed?.stop(true);
    refused?.stop(true);
    await h?.close();
  });

  const mint = async (body: Record<string, unknown>) => {
    const res = await fetch(`${h.base}/v1/frontend-tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { token: string }).token;
  };

  test("the openai client in a page of an allowed origin: conversations with a frontend token, errors readable", async () => {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${allowed.port}/`);
    const out = await page.evaluate(scenario, {
      base: h.base,
      alice: await mint({ user: "alice" }),
      aliceReadOnly: await mint({ user: "alice", scopes: ["conversations:read"] }),
      bob: await mint({ user: "bob" }),
    });
    await page.close();
    expect(out).toMatchObject({
      texts: ["hello", "again"],
      title: "renamed",
      bobReads: 404,
      readOnlyWrites: 403,
      alteredToken: 401,
      deleted: true,
      afterDelete: 404,
    });
  });

  test("a page of an origin not allowed is refused by the browser (the client sees a connection error)", async () => {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${refused.port}/`);
    const out = await page.evaluate(otherOrigin, { base: h.base, alice: await mint({ user: "alice" }) });
    await page.close();
    expect(out).toBe("APIConnectionError");
  });
}
