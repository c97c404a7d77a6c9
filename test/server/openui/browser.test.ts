// OpenUI's own front end against Tessera, in headless Chromium: a page built with
// @openuidev/react-ui 0.12's AgentInterface and tessera/openui (test/support/openui-app/page.jsx,
// bundled with esbuild) talks to Tessera directly with a frontend token. A chat turn streams and
// renders; a second turn continues the thread; a reload lists the thread. The stand-in model
// streams a program with mistakes: the page shows the repaired UI and no program text.
//
// Chromium (test/support/chromium.mjs finds it, and says when the test is skipped) is driven by
// playwright-core.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { findChromium, launchChromium } from "../../support/chromium.mjs";
import { skip } from "../../support/harness.ts";
import { startEmbedHarness, type EmbedHarness } from "../embed-harness.ts";

const browserFound = findChromium();
const MODEL = "openai/gpt-openui";
const PAGE = fileURLToPath(new URL("../../support/openui-app/page.jsx", import.meta.url));

// The library react-ui exports (openuiChatLibrary, root Card), with a model's mistakes: a misspelt
// component, an enum in the wrong case, a reference to nothing, a line cut short, an orphan.
const FIRST = [
  "root = Card([header, summary, ghost, tags])",
  'header = CardHeader("Quarterly revenue", "2025")',
  'summary = TextContnt("Revenue grew 12% over the quarter.", "LARGE")',
  'tags = TagBlock(["growth", "q3"',
  'stray = TextContent("left over")',
].join("\n");
const SECOND = 'root = Card([answer])\nanswer = TextContent("Europe led the growth.")';

if ("skip" in browserFound) {
  skip("an OpenUI app (react-ui) against Tessera in a real browser", browserFound.skip);
} else {
  let E: EmbedHarness;
  let browser: Browser;
  let app: ReturnType<typeof Bun.serve>;
  let key: string;

  beforeAll(async () => {
    const bundled = await build({
      entryPoints: [PAGE],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      target: "es2022",
      jsx: "automatic",
      loader: { ".css": "empty" },
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "error",
    });
    const script = bundled.outputFiles[0]!.text;
    E = await startEmbedHarness();
    key = await E.h.org("openui-app", 1000);
    // The application: its page, and its one server route, which mints the browser's token.
    app = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const path = new URL(req.url).pathname;
        if (path === "/page.js") return new Response(script, { headers: { "content-type": "text/javascript" } });
        if (path === "/token") {
          return fetch(`${E.h.base}/v1/frontend-tokens`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({
              user_id: "ada",
              scopes: ["responses:create", "conversations:read", "conversations:write", "artifacts:read", "artifacts:write"],
              models: [MODEL],
              ttl_seconds: 600,
            }),
          });
        }
        const config = JSON.stringify({ base: E.h.base, model: MODEL });
        return new Response(
          `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title><div id="app" style="height:100vh"></div><script>window.APP=${config}</script><script type="module" src="/page.js"></script>`,
          { headers: { "content-type": "text/html" } },
        );
      },
    });
    E.h.server.config.corsOrigins = [`http://127.0.0.1:${app.port}`];
    browser = await launchChromium(browserFound);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    app?.stop(true);
    await E?.close();
  });

  async function send(page: Page, text: string) {
    const box = page.locator("textarea").first();
    await box.waitFor({ state: "visible", timeout: 30_000 });
    await box.fill(text);
    await box.press("Enter");
  }

  test("a chat turn streams and renders repaired; a second continues the thread; a reload lists it", async () => {
    const pieces = (t: string) => t.match(/[\s\S]{1,5}/g)!;
    E.openai.queue.push({ text: FIRST, pieces: pieces(FIRST) }, { text: SECOND, pieces: pieces(SECOND) });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${app.port}/`);

    await send(page, "How did revenue do?");
    await page.getByText("Revenue grew 12% over the quarter.").waitFor({ timeout: 30_000 });
    await page.getByText("Quarterly revenue").first().waitFor();
    // The repaired UI only: no program text.
    const shown = await page.locator("body").innerText();
    for (const raw of ["root =", "TextContnt", "CardHeader(", "ghost", "TagBlock", '"LARGE"']) expect(shown).not.toContain(raw);

    await send(page, "Which region led?");
    await page.getByText("Europe led the growth.").waitFor({ timeout: 30_000 });
    // The second turn went out with the first in its history: the thread is one conversation.
    const second = E.openai.calls.at(-1)!.body.messages as { role: string; content: unknown }[];
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(JSON.stringify(second[2]!.content)).toContain("Card(");
    const conversations = await (await fetch(`${E.h.base}/v1/conversations`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(conversations.data).toHaveLength(1);
    expect(conversations.data[0].title).toBe("How did revenue do?");

    await page.reload();
    await page.getByText("How did revenue do?").first().waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
}
