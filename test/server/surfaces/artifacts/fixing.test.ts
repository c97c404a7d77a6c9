// An artifact the sanitizer cannot mend goes to the fixing model (TESSERA_AUTOFIX_MODEL) before it
// is stored; a program over the size limit is refused. Both models are stand-ins on loopback.
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { startFakeOpenAI } from "../../../support/fake-providers.ts";
import { startHarness, type Harness } from "../../harness.ts";
import { readArtifactStream } from "./read-stream.ts";
import { mergeProgram } from "../../../../src/artifacts/merge.ts";

const writer = startFakeOpenAI();
const fixer = startFakeOpenAI();
let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness({
    providers: { OPENAI_BASE_URL: writer.url, OPENAI_API_KEY: "sk-writer" },
    fixingModel: { provider: "openai", model: "fixer-1", baseUrl: fixer.url, apiKey: "sk-fixer" },
  });
  key = await h.org("artifacts-fixing", 10);
});
afterAll(async () => {
  await h.close();
  writer.stop();
  fixer.stop();
});

const client = () => new OpenAI({ baseURL: `${h.base}/v1/artifact`, apiKey: key, maxRetries: 0 });
const DECK = `root = SlideShow("Plan", "2026", [intro])
intro = Slide("intro", ContentClassic("Where we stand", ["Three stores", "Two launches"]))`;

test("what the sanitizer leaves broken, the fixing model mends; the mended program is stored", async () => {
  // No component of the library at all: nothing for the sanitizer to keep.
  writer.queue.push({ text: "root = Zqxwv([Plmok(1)])" });
  fixer.queue.push({ text: "```\n" + DECK + "\n```" });
  const answer = await client().chat.completions.create({
    model: "openai/writer-1",
    messages: [{ role: "user", content: "A plan deck" }],
    metadata: { thesys: JSON.stringify({ id: "fixed-by-model", c1_artifact_type: "slides" }) },
  } as any);
  expect(answer.choices[0]!.message.content).toBe(DECK);
  expect((answer as any).artifact).toMatchObject({ version: 1, outcome: "fixed" });
  expect(fixer.calls).toHaveLength(1);
  expect(fixer.calls[0]!.body.model).toBe("fixer-1");
  expect(JSON.stringify(fixer.calls[0]!.body.messages)).toContain("SlideShow");
  // The usage counts both models' tokens.
  expect(answer.usage).toMatchObject({ prompt_tokens: 22, completion_tokens: 14 });
  const stored = await (await fetch(`${h.base}/v1/artifacts/fixed-by-model`, { headers: { authorization: `Bearer ${key}` } })).json();
  expect(stored.content).toBe(DECK);
});

test("streamed, a program the fixing model mends: the text sent reads as the mended program, which the finish chunk carries", async () => {
  // A slide of a component the library lacks, beside a good one: streamed as it comes, then mended.
  writer.queue.push({
    text: 'root = SlideShow("Plan", "2026", [intro, odd])\nintro = Slide("intro", ContentClassic("Where we stand", ["Three stores", "Two launches"]))\nodd = Zqxwv(Plmok(1))',
  });
  fixer.queue.push({ text: DECK });
  const stream = await client().chat.completions.create({
    model: "openai/writer-1",
    stream: true,
    messages: [{ role: "user", content: "A plan deck" }],
    metadata: { thesys: JSON.stringify({ id: "fixed-live", c1_artifact_type: "slides" }) },
  } as any);
  const { text, artifact } = await readArtifactStream(stream as any);
  expect(artifact).toMatchObject({ id: "fixed-live", version: 1, outcome: "fixed", content: DECK });
  // Read as the language reads it (a later statement of a name wins, unreachable ones dropped).
  expect(mergeProgram("", text).program.split("\n").sort()).toEqual(DECK.split("\n").sort());
  const stored = await (await fetch(`${h.base}/v1/artifacts/fixed-live`, { headers: { authorization: `Bearer ${key}` } })).json();
  expect(stored.content).toBe(DECK);
});

test("a program over 100,000 characters is refused, nothing stored", async () => {
  const items = Array.from({ length: 4000 }, (_, i) => `"point number ${i} of a very long list"`).join(", ");
  writer.queue.push({ text: `root = SlideShow("Long", "x", [s])\ns = Slide("s", ContentClassic("Long", [${items}]))` });
  const err = await client()
    .chat.completions.create({
      model: "openai/writer-1",
      messages: [{ role: "user", content: "A long deck" }],
      metadata: { thesys: JSON.stringify({ id: "too-long", c1_artifact_type: "slides" }) },
    } as any)
    .then(
      () => null,
      (x) => x,
    );
  expect(err?.status).toBe(502);
  expect(err?.code).toBe("artifact_too_large");
  expect((await fetch(`${h.base}/v1/artifacts/too-long`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
});
