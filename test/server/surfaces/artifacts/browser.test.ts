// Artifacts seen in a browser: a deck and a report generated through Artifact Chat Completions
// (the official openai client, a stand-in model), and the deck after an edit, each fetched back
// from the store and drawn in headless Chromium by @openuidev/thesys's own Presentation and Report
// viewers; every slide's and page's title must be on the page. Screenshots go to
// $TESSERA_SCREENSHOTS (default: the system temp folder).
//
// Chromium (test/support/chromium.mjs finds it, and says when the test is skipped: without one
// outside CI, or with TESSERA_SKIP_BROWSER=1) is driven by playwright-core, as in test/browser.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import type { Browser, Page } from "playwright-core";
import { startEmbedHarness, type EmbedHarness } from "../../embed-harness.ts";
import { findChromium, launchChromium } from "../../../support/chromium.mjs";
import { buildViewer } from "../../../support/thesys-viewer.ts";

const browserFound = findChromium();
const SHOTS = process.env.TESSERA_SCREENSHOTS || tmpdir();

const DECK = `root = SlideShow("Coffee Sales 2025", "Quarterly review", [cover, numbers, trend, next])
cover = Slide("cover", StandardTitle("Coffee Sales 2025", "Quarterly review", "Prepared for the board"))
numbers = Slide("numbers", KeyInfoWithTitle("The year in numbers", [{title: "Revenue", description: "4.2 M, up 12%"}, {title: "Stores", description: "48, six new"}]))
trend = Slide("trend", ChartWithContext("Revenue by quarter", revenue, "Q4 carried the year."))
revenue = BarChartV2({data: {labels: ["Q1", "Q2", "Q3", "Q4"], series: [{category: "Revenue", values: [0.9, 1, 1.05, 1.25]}]}, unit: "m"})
next = Slide("next", ContentClassic("Next steps", ["Open two stores in the north", "Launch the loyalty app"]))`;
const DECK_TITLES = ["Coffee Sales 2025", "The year in numbers", "Revenue by quarter", "Next steps"];

// The edit: one slide retitled, one added, one dropped (`= null`), as a patch.
const PATCH = `numbers = Slide("numbers", KeyInfoWithTitle("2025 at a glance", [{title: "Revenue", description: "4.3 M, up 14%"}]))
team = Slide("team", TextBody("Thank you, baristas", ["Every store beat its target."]))
next = null
root = SlideShow("Coffee Sales 2025", "Quarterly review", [cover, numbers, trend, team])`;
const EDITED_TITLES = ["Coffee Sales 2025", "2025 at a glance", "Revenue by quarter", "Thank you, baristas"];

const REPORT = `root = ReportView("Remote Work Survey", "Results of the 2025 staff survey", [front, findings])
front = Page("front", MinimalFrontPage("Remote Work Survey", TextContent("What 412 colleagues told us about working from home."), "2025 results"))
findings = Page("findings", ContentPage([InlineHeader("Key findings", "Share of answers"), TextContent("Most teams prefer two office days a week.")]))`;
const REPORT_TITLES = ["Remote Work Survey", "Key findings"];

let e: EmbedHarness;
let key: string;
let browser: Browser;
let pages: ReturnType<typeof Bun.serve>;
let tab: Page;
const pageErrors: string[] = [];
const skipWhy = "skip" in browserFound ? browserFound.skip : null;
if (skipWhy) console.log(`skipped: artifacts in a browser: ${skipWhy}`);

beforeAll(async () => {
  if (skipWhy) return;
  if (!("path" in browserFound)) throw new Error("missing" in browserFound ? browserFound.missing : browserFound.skip);
  e = await startEmbedHarness();
  key = await e.h.org("artifacts-browser", 10);
  const files = await buildViewer();
  pages = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const file = files.get(new URL(req.url).pathname);
      if (file) return new Response(file.body, { headers: { "content-type": file.type } });
      return new Response(
        '<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="/viewer.css"><div id="artifact"></div><script type="module" async src="/viewer.js"></script>',
        { headers: { "content-type": "text/html" } },
      );
    },
  });
  browser = await launchChromium(browserFound);
  // One page for every drawing: the viewers' bundle is large, and loaded once.
  tab = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  tab.on("pageerror", (err) => pageErrors.push(err.message));
  await tab.goto(`http://127.0.0.1:${pages.port}/`, { waitUntil: "commit" });
  await tab.waitForFunction(() => typeof (window as any).renderArtifact === "function", undefined, { timeout: 240_000 });
}, 400_000);
afterAll(async () => {
  await browser?.close();
  pages?.stop(true);
  await e?.close();
});

async function storedProgram(id: string): Promise<string> {
  const res = await fetch(`${e.h.base}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { content: string }).content;
}

/** Draws the program with the kind's viewer; the page's text once every title is there, and a screenshot. */
async function draw(kind: "slides" | "report", program: string, titles: string[], shot: string) {
  await tab.evaluate(([k, p]) => (window as any).renderArtifact(k, p), [kind, program] as const);
  await tab.waitForFunction((want) => want.every((t) => document.body.innerText.includes(t)), titles, { timeout: 60_000 }).catch(() => {});
  const text = await tab.evaluate(() => document.body.innerText);
  const path = join(SHOTS, shot);
  await tab.screenshot({ path, fullPage: true });
  return { text, path };
}

test.skipIf(skipWhy !== null)(
  "a generated deck and report, and the deck after an edit, drawn by the thesys viewers: every title on the page",
  async () => {
    const client = new OpenAI({ baseURL: `${e.h.base}/v1/artifact`, apiKey: key, maxRetries: 0 });
    const make = async (id: string, type: string, answer: string, messages: OpenAI.ChatCompletionMessageParam[], edit = false) => {
      e.openai.queue.push({ text: answer });
      return client.chat.completions.create({
        model: "openai/gpt-standin",
        messages,
        metadata: { thesys: JSON.stringify({ id, c1_artifact_type: type, ...(edit ? { is_edit: true } : {}) }) },
      } as any);
    };
    await make("coffee-deck", "slides", DECK, [{ role: "user", content: "A deck on 2025 coffee sales" }]);
    await make("survey-report", "report", REPORT, [{ role: "user", content: "A report on the survey" }]);
    const deck = await storedProgram("coffee-deck");
    await make(
      "coffee-deck",
      "slides",
      PATCH,
      [
        { role: "assistant", content: deck },
        { role: "user", content: "Retitle the numbers, thank the team instead of next steps" },
      ],
      true,
    );
    const edited = await storedProgram("coffee-deck");
    expect(edited).not.toContain("Next steps");

    for (const [kind, program, titles, shot] of [
      ["slides", deck, DECK_TITLES, "tessera-artifact-deck.png"],
      ["report", await storedProgram("survey-report"), REPORT_TITLES, "tessera-artifact-report.png"],
      ["slides", edited, EDITED_TITLES, "tessera-artifact-deck-edited.png"],
    ] as const) {
      const drawn = await draw(kind, program, [...titles], shot);
      expect(pageErrors).toEqual([]);
      for (const title of titles) expect(drawn.text).toContain(title);
      if (program === edited) expect(drawn.text).not.toContain("Next steps");
      console.log(`screenshot: ${drawn.path}`);
    }
  },
  240_000,
);

// Only a skipped run names itself, with the reason (printed above).
if (skipWhy !== null) test.skip(`artifacts in a browser: skipped (${skipWhy})`, () => {});
