// Artifact Chat Completions through the official openai client (base URL {base}/v1/artifact),
// JSON and SSE, generation and edits, against a stand-in model that answers in whole programs
// and in patches, with mistakes; then the stored versions, conflicts, isolation and billing.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import OpenAI from "openai";
import { startEmbedHarness, type EmbedHarness } from "../../embed-harness.ts";
import { post } from "../../harness.ts";
import { readArtifactStream } from "./read-stream.ts";
import { mergeProgram } from "../../../../src/artifacts/merge.ts";

let e: EmbedHarness;
let keyA: string;
let keyB: string;
beforeAll(async () => {
  e = await startEmbedHarness();
  keyA = await e.h.org("artifacts-a", 100);
  keyB = await e.h.org("artifacts-b", 100);
});
afterAll(() => e.close());
beforeEach(() => {
  e.reset();
  e.h.server.config.artifactPrice = 0;
});

const client = (key: string) => new OpenAI({ baseURL: `${e.h.base}/v1/artifact`, apiKey: key, maxRetries: 0 });
const thesys = (id: string, type = "slides", extra: Record<string, unknown> = {}) => ({ thesys: JSON.stringify({ id, c1_artifact_type: type, ...extra }) });
const MODEL = "openai/gpt-standin";

const DECK = `root = SlideShow("Coffee Sales", "Q3 review", [cover, numbers])
cover = Slide("cover", StandardTitle("Coffee Sales", "Q3 review"))
numbers = Slide("numbers", ContentClassic("Numbers", ["Revenue up 12%", "Six new stores"]))`;

const REPORT = `root = ReportView("Staff Survey", "2025", [front])
front = Page("front", MinimalFrontPage("Staff Survey", TextContent("What 412 colleagues said.")))`;

async function stored(key: string, id: string, version?: number) {
  const res = await fetch(`${e.h.base}/v1/artifacts/${id}${version ? `?version=${version}` : ""}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
}

/** Generates `id` from `program` (what the stand-in answers) and returns the stored content. */
async function generate(id: string, program: string, key = keyA, type = "slides") {
  e.openai.queue.push({ text: program });
  const answer = await client(key).chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "Make it" }],
    metadata: thesys(id, type),
  } as any);
  return answer.choices[0]!.message.content!;
}

test("a generation: the library's prompt goes to the model, the fenced answer comes back bare, checked, stored as version 1", async () => {
  e.openai.queue.push({ text: "Here is your deck:\n```openui\n" + DECK + "\n```\nEnjoy!" });
  const answer = await client(keyA).chat.completions.create({
    model: MODEL,
    messages: [
      { role: "system", content: "Use a friendly tone." },
      { role: "user", content: "A deck about coffee sales" },
    ],
    metadata: thesys("gen-1"),
  } as any);
  expect(answer.object).toBe("chat.completion");
  expect(answer.choices[0]!.message.content).toBe(DECK);
  expect((answer as any).artifact).toMatchObject({ id: "gen-1", kind: "slides", name: "Coffee Sales", version: 1, outcome: "already_valid" });
  const sent = e.openai.calls[0]!.body;
  expect(sent.model).toBe("gpt-standin");
  expect(sent.messages[0].role).toBe("system");
  expect(sent.messages[0].content).toContain("SlideShow(title: string, subtitle?: string, slides: Slide[])");
  expect(sent.messages[0].content).toContain("Use a friendly tone.");
  expect(sent.messages.at(-1)).toEqual({ role: "user", content: "A deck about coffee sales" });
  const got = await stored(keyA, "gen-1");
  expect(got.status).toBe(200);
  expect(got.body).toMatchObject({ id: "gen-1", object: "artifact", kind: "slides", name: "Coffee Sales", version: 1, content: DECK, conversation_id: null });
  expect(typeof got.body.created_at).toBe("number");
});

test("a report is written in the report library (rooted at ReportView)", async () => {
  expect(await generate("rep-1", REPORT, keyA, "report")).toBe(REPORT);
  expect(e.openai.calls[0]!.body.messages[0].content).toContain("ReportView(title: string, subtitle?: string, pages: Page[])");
  expect((await stored(keyA, "rep-1")).body).toMatchObject({ kind: "report", name: "Staff Survey" });
});

test("streamed: the chunks put together are the checked, stored program", async () => {
  // A misspelt component: the sanitizer mends it before anything is streamed.
  e.openai.queue.push({ text: DECK.replace("ContentClassic", "ContentClasic") });
  const stream = await client(keyA).chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "Go" }],
    metadata: thesys("stream-1"),
    stream: true,
    stream_options: { include_usage: true },
  } as any);
  let text = "";
  let finish: string | null = null;
  let usage: unknown = null;
  for await (const chunk of stream as any) {
    text += chunk.choices[0]?.delta?.content ?? "";
    finish = chunk.choices[0]?.finish_reason ?? finish;
    usage = chunk.usage ?? usage;
  }
  expect(text).toBe(DECK);
  expect(finish).toBe("stop");
  expect(usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7 });
  expect((await stored(keyA, "stream-1")).body.content).toBe(DECK);
});

test("an edit: the model is asked for a patch in edit mode; the answer is the whole merged program, stored as version 2", async () => {
  await generate("edit-1", DECK);
  // A patch with a string holding `=`, an added slide, and a fence around it all.
  e.openai.queue.push({
    text: '```\nnumbers = Slide("numbers", ContentClassic("Numbers = facts", ["Revenue up 14%"]))\nplan = Slide("plan", ContentClassic("Plan", ["Open two stores"]))\nroot = SlideShow("Coffee Sales", "Q3 review", [cover, numbers, plan])\n```',
  });
  const answer = await client(keyA).chat.completions.create({
    model: MODEL,
    messages: [
      { role: "assistant", content: DECK },
      { role: "user", content: "Update the numbers and add a plan slide" },
    ],
    metadata: thesys("edit-1", "slides", { is_edit: true }),
  } as any);
  const merged = `root = SlideShow("Coffee Sales", "Q3 review", [cover, numbers, plan])
cover = Slide("cover", StandardTitle("Coffee Sales", "Q3 review"))
numbers = Slide("numbers", ContentClassic("Numbers = facts", ["Revenue up 14%"]))
plan = Slide("plan", ContentClassic("Plan", ["Open two stores"]))`;
  expect(answer.choices[0]!.message.content).toBe(merged);
  expect((answer as any).artifact).toMatchObject({ version: 2, merge: { replaced: ["numbers", "root"], added: ["plan"], deleted: [], removed: [] } });
  const sent = e.openai.calls[1]!.body.messages;
  expect(sent[0].content).toContain("## Edit mode");
  expect(sent[1].role).toBe("user");
  expect(sent[1].content).toContain(DECK);
  expect(sent[1].content).toContain("Update the numbers and add a plan slide");
  expect((await stored(keyA, "edit-1")).body).toMatchObject({ version: 2, content: merged });
  expect((await stored(keyA, "edit-1", 1)).body).toMatchObject({ version: 1, latest_version: 2, content: DECK });
});

test("an edit answered with a whole program holding mistakes: merged the same way, then repaired", async () => {
  await generate("edit-2", DECK);
  const whole = `root = SlideShow("Coffee Sales", "Q3 review", [numbers])\nnumbers = Slide("numbers", ContentClasic("Numbers", ["Flat"]))`;
  e.openai.queue.push({ text: whole });
  const stream = await client(keyA).chat.completions.create({
    model: MODEL,
    stream: true,
    messages: [
      { role: "assistant", content: "```\n" + DECK + "\n```" },
      { role: "user", content: "Drop the cover; numbers are flat" },
    ],
    metadata: thesys("edit-2", "slides", { is_edit: true }),
  } as any);
  const { text, artifact } = await readArtifactStream(stream as any);
  const merged = `root = SlideShow("Coffee Sales", "Q3 review", [numbers])\nnumbers = Slide("numbers", ContentClassic("Numbers", ["Flat"]))`;
  // Streamed live: the program being edited, then the patch's statements (a later one of a name
  // wins), read by the language as the merged program; the finish chunk carries it as stored.
  expect(mergeProgram("", text).program.split("\n").sort()).toEqual(merged.split("\n").sort());
  expect(artifact).toMatchObject({ id: "edit-2", version: 2, content: merged });
  expect((await stored(keyA, "edit-2")).body).toMatchObject({ version: 2, content: merged });
});

test("an edit from a version that is no longer the latest is a 409 (nothing stored or charged) unless it forks", async () => {
  e.h.server.config.artifactPrice = 2;
  await generate("stale-1", DECK);
  e.openai.queue.push({ text: 'cover = Slide("cover", StandardTitle("Coffee", "v2"))' });
  await client(keyA).chat.completions.create({
    model: MODEL,
    messages: [
      { role: "assistant", content: DECK },
      { role: "user", content: "v2" },
    ],
    metadata: thesys("stale-1", "slides", { is_edit: true }),
  } as any);
  const before = await e.h.credits("artifacts-a");
  e.openai.queue.push({ text: 'cover = Slide("cover", StandardTitle("Coffee", "from v1"))' });
  const stale = client(keyA).chat.completions.create({
    model: MODEL,
    messages: [
      { role: "assistant", content: DECK },
      { role: "user", content: "again" },
    ],
    metadata: thesys("stale-1", "slides", { is_edit: true }),
  } as any);
  const err = await stale.then(
    () => null,
    (x) => x,
  );
  expect(err).toBeInstanceOf(OpenAI.ConflictError);
  expect(err.code).toBe("artifact_conflict");
  expect(await e.h.credits("artifacts-a")).toBe(before);
  expect((await stored(keyA, "stale-1")).body.version).toBe(2);
  const forked = await client(keyA).chat.completions.create({
    model: MODEL,
    messages: [
      { role: "assistant", content: DECK },
      { role: "user", content: "again" },
    ],
    metadata: thesys("stale-1", "slides", { is_edit: true, fork: true }),
  } as any);
  expect(forked.choices[0]!.message.content).toContain('StandardTitle("Coffee", "from v1")');
  expect((forked as any).artifact.version).toBe(3);
  expect(await e.h.credits("artifacts-a")).toBe(before - 2);
  const versions = await (await fetch(`${e.h.base}/v1/artifacts/stale-1/versions`, { headers: { authorization: `Bearer ${keyA}` } })).json();
  expect(versions.data.map((v: any) => [v.version, v.base_version, v.source])).toEqual([
    [1, null, "generate"],
    [2, 1, "edit"],
    [3, 1, "edit"],
  ]);
});

test("two concurrent edits of one version over HTTP: exactly one is stored, the other is a 409; with fork both are", async () => {
  await generate("race-1", DECK);
  const edit = (text: string, fork: boolean) => {
    e.openai.queue.push({ text, delayMs: 200 });
    return post(e.h.base, "/v1/artifact/chat/completions", keyA, {
      model: MODEL,
      messages: [
        { role: "assistant", content: DECK },
        { role: "user", content: text },
      ],
      metadata: thesys("race-1", "slides", { is_edit: true, fork }),
    });
  };
  const [a, b] = await Promise.all([edit('cover = Slide("cover", StandardTitle("A"))', false), edit('cover = Slide("cover", StandardTitle("B"))', false)]);
  expect([a.status, b.status].sort()).toEqual([200, 409]);
  const winner = (await (a.status === 200 ? a : b).json()) as any;
  expect((await stored(keyA, "race-1")).body).toMatchObject({ version: 2, content: winner.choices[0].message.content });
  const current = winner.choices[0].message.content;
  const forks = await Promise.all(
    [1, 2].map((i) => {
      e.openai.queue.push({ text: `cover = Slide("cover", StandardTitle("F${i}"))`, delayMs: 100 });
      return post(e.h.base, "/v1/artifact/chat/completions", keyA, {
        model: MODEL,
        messages: [
          { role: "assistant", content: current },
          { role: "user", content: `fork ${i}` },
        ],
        metadata: thesys("race-1", "slides", { is_edit: true, fork: true }),
      });
    }),
  );
  expect(forks.map((f) => f.status)).toEqual([200, 200]);
  expect(((await Promise.all(forks.map((f) => f.json()))) as any[]).map((f) => f.artifact.version).sort()).toEqual([3, 4]);
});

test("metadata.thesys is checked, each problem a 400 naming the field; nothing reaches the model", async () => {
  const cases: [unknown, string][] = [
    [undefined, "metadata.thesys"],
    [{ thesys: { id: "x" } }, "metadata.thesys"],
    [{ thesys: "{not json" }, "metadata.thesys"],
    [{ thesys: JSON.stringify({ c1_artifact_type: "slides" }) }, "metadata.thesys.id"],
    [{ thesys: JSON.stringify({ id: "a b", c1_artifact_type: "slides" }) }, "metadata.thesys.id"],
    [{ thesys: JSON.stringify({ id: "x" }) }, "metadata.thesys.c1_artifact_type"],
    [{ thesys: JSON.stringify({ id: "x", c1_artifact_type: "poster" }) }, "metadata.thesys.c1_artifact_type"],
    [{ thesys: JSON.stringify({ id: "x", c1_artifact_type: "report", is_edit: "yes" }) }, "metadata.thesys.is_edit"],
  ];
  for (const [metadata, param] of cases) {
    const err = await client(keyA)
      .chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "x" }], metadata } as any)
      .then(
        () => null,
        (x) => x,
      );
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.param).toBe(param);
  }
  // An edit of an artifact that does not exist, with no program to edit.
  const missing = await client(keyA)
    .chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "x" }], metadata: thesys("nope", "slides", { is_edit: true }) } as any)
    .then(
      () => null,
      (x) => x,
    );
  expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
  // A report id regenerated as slides.
  await generate("kind-1", REPORT, keyA, "report");
  e.openai.queue.push({ text: DECK });
  const kind = await client(keyA)
    .chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "x" }], metadata: thesys("kind-1", "slides") } as any)
    .then(
      () => null,
      (x) => x,
    );
  expect(kind).toBeInstanceOf(OpenAI.BadRequestError);
  expect(kind.param).toBe("metadata.thesys.c1_artifact_type");
  expect(e.openai.calls).toHaveLength(2);
});

test("a program nothing can repair is a 502: nothing stored, nothing charged", async () => {
  e.h.server.config.artifactPrice = 5;
  const before = await e.h.credits("artifacts-a");
  e.openai.queue.push({ text: "root = Zqxwv([Plmok(1)])" });
  const err = await client(keyA)
    .chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "x" }], metadata: thesys("hopeless") } as any)
    .then(
      () => null,
      (x) => x,
    );
  expect(err).toBeInstanceOf(OpenAI.InternalServerError);
  expect(err.status).toBe(502);
  expect(err.code).toBe("artifact_invalid");
  expect((await stored(keyA, "hopeless")).status).toBe(404);
  expect(await e.h.credits("artifacts-a")).toBe(before);
  e.openai.queue.push({ text: DECK });
  await client(keyA).chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "x" }], metadata: thesys("priced") } as any);
  expect(await e.h.credits("artifacts-a")).toBe(before - 5);
});

test("organizations see only their own artifacts, though ids may coincide", async () => {
  await generate("same-id", DECK, keyA);
  expect((await stored(keyB, "same-id")).status).toBe(404);
  await generate("same-id", REPORT, keyB, "report");
  expect((await stored(keyA, "same-id")).body.kind).toBe("slides");
  expect((await stored(keyB, "same-id")).body.kind).toBe("report");
  const list = await (await fetch(`${e.h.base}/v1/artifacts?limit=100`, { headers: { authorization: `Bearer ${keyB}` } })).json();
  expect(list.data.map((a: any) => a.id)).toEqual(["same-id"]);
  const del = await fetch(`${e.h.base}/v1/artifacts/same-id`, { method: "DELETE", headers: { authorization: `Bearer ${keyB}` } });
  expect(del.status).toBe(200);
  expect((await stored(keyA, "same-id")).status).toBe(200);
  expect((await stored(keyB, "same-id")).status).toBe(404);
});

test("the stored routes: list by kind and name with paging, write content (checked and repaired), versions, delete", async () => {
  const keyC = await e.h.org("artifacts-c", 10);
  await generate("c-deck", DECK, keyC);
  await generate("c-report", REPORT, keyC, "report");
  const get = (path: string) =>
    fetch(`${e.h.base}${path}`, { headers: { authorization: `Bearer ${keyC}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const all = await get("/v1/artifacts");
  expect(all.body).toMatchObject({ object: "list", has_more: false, last_id: "c-deck" });
  expect(all.body.data.map((a: any) => [a.id, a.kind, a.name, a.version])).toEqual([
    ["c-report", "report", "Staff Survey", 1],
    ["c-deck", "slides", "Coffee Sales", 1],
  ]);
  expect((await get("/v1/artifacts?kind=slides")).body.data.map((a: any) => a.id)).toEqual(["c-deck"]);
  expect((await get("/v1/artifacts?kind=slides&kind=report")).body.data).toHaveLength(2);
  expect((await get("/v1/artifacts?name=survey")).body.data.map((a: any) => a.id)).toEqual(["c-report"]);
  const page = await get("/v1/artifacts?limit=1");
  expect([page.body.data[0].id, page.body.has_more, page.body.last_id]).toEqual(["c-report", true, "c-report"]);
  expect((await get("/v1/artifacts?limit=1&after=c-report")).body.data[0].id).toBe("c-deck");
  expect((await get("/v1/artifacts?kind=poster")).status).toBe(400);
  expect((await get("/v1/artifacts?limit=0")).status).toBe(400);

  const write = (id: string, body: unknown) =>
    post(e.h.base, `/v1/artifacts/${id}`, keyC, body).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const misspelt = DECK.replace("StandardTitle", "StandardTitel");
  const written = await write("c-deck", { content: misspelt });
  expect(written.status).toBe(200);
  expect(written.body).toMatchObject({ version: 2, content: DECK, outcome: "fixed" });
  // An envelope, as the thesys front end writes objects.
  expect((await write("c-deck", { content: { artifact_id: "c-deck", type: "slides", content: DECK.replace("Q3 review", "Q4 review") } })).body.version).toBe(3);
  expect((await write("c-deck", { content: "root = Zqxwv()" })).body.error.param).toBe("content");
  expect((await write("c-deck", { content: DECK, base_version: 1 })).status).toBe(409);
  expect((await write("c-deck", { content: "x".repeat(100_001) })).status).toBe(400);
  expect((await write("c-new", { content: DECK })).status).toBe(404);
  expect((await write("c-new", { content: DECK, kind: "slides" })).body).toMatchObject({ id: "c-new", version: 1 });
  expect((await get("/v1/artifacts/c-deck/versions")).body.data.map((v: any) => [v.version, v.source])).toEqual([
    [1, "generate"],
    [2, "write"],
    [3, "write"],
  ]);
  expect((await get("/v1/artifacts/c-deck?version=9")).status).toBe(404);
  expect((await get("/v1/artifacts/c-deck?version=2")).body.content).toBe(DECK);
  const del = await fetch(`${e.h.base}/v1/artifacts/c-deck`, { method: "DELETE", headers: { authorization: `Bearer ${keyC}` } });
  expect(await del.json()).toEqual({ id: "c-deck", object: "artifact.deleted", deleted: true });
  expect((await get("/v1/artifacts/c-deck")).status).toBe(404);
  expect((await get("/v1/artifacts/c-deck/versions")).status).toBe(404);
});

test("a frontend token without the artifact scopes is refused (403), and the stored routes answer browsers from the allowed origins", async () => {
  const minted = await post(e.h.base, "/v1/frontend-tokens", keyA, { user: "ada" });
  const { token } = (await minted.json()) as { token: string };
  const asToken = (method: string, path: string, body?: unknown) =>
    fetch(`${e.h.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  expect((await asToken("GET", "/v1/artifacts")).status).toBe(403);
  expect((await asToken("GET", "/v1/artifacts/gen-1")).status).toBe(403);
  expect((await asToken("POST", "/v1/artifacts/gen-1", { content: DECK })).status).toBe(403);
  expect((await asToken("DELETE", "/v1/artifacts/gen-1")).status).toBe(403);
  const completion = await asToken("POST", "/v1/artifact/chat/completions", {
    model: MODEL,
    messages: [{ role: "user", content: "x" }],
    metadata: thesys("by-token"),
  });
  expect(completion.status).toBe(403);
  expect(e.openai.calls).toHaveLength(0);

  e.h.server.config.corsOrigins = ["http://app.example"];
  try {
    const preflight = await fetch(`${e.h.base}/v1/artifacts/gen-1`, {
      method: "OPTIONS",
      headers: { origin: "http://app.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://app.example");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    const listed = await fetch(`${e.h.base}/v1/artifacts`, { headers: { authorization: `Bearer ${keyA}`, origin: "http://app.example" } });
    expect(listed.headers.get("access-control-allow-origin")).toBe("http://app.example");
    const other = await fetch(`${e.h.base}/v1/artifacts`, { headers: { authorization: `Bearer ${keyA}`, origin: "http://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  } finally {
    e.h.server.config.corsOrigins = [];
  }
});

test("frontend tokens with the artifact scopes: a user's artifacts are theirs alone; the API key sees the organization's", async () => {
  const mint = async (user: string, scopes: string[]) =>
    ((await (await post(e.h.base, "/v1/frontend-tokens", keyA, { user, scopes })).json()) as { token: string }).token;
  const ada = await mint("ada", ["artifacts:read", "artifacts:write"]);
  const bob = await mint("bob", ["artifacts:read", "artifacts:write"]);
  const adaReadOnly = await mint("ada", ["artifacts:read"]);
  e.openai.queue.push({ text: DECK });
  const made = await client(ada).chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "mine" }], metadata: thesys("ada-deck") } as any);
  expect((made as any).artifact).toMatchObject({ id: "ada-deck", version: 1 });
  const as = (token: string, method: string, path: string, body?: unknown) =>
    fetch(`${e.h.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  expect((await as(ada, "GET", "/v1/artifacts/ada-deck")).status).toBe(200);
  expect((await as(adaReadOnly, "GET", "/v1/artifacts/ada-deck")).status).toBe(200);
  expect((await as(adaReadOnly, "POST", "/v1/artifacts/ada-deck", { content: DECK })).status).toBe(403);
  expect((await as(bob, "GET", "/v1/artifacts/ada-deck")).status).toBe(404);
  expect((await as(bob, "POST", "/v1/artifacts/ada-deck", { content: DECK })).status).toBe(404);
  expect((await as(bob, "DELETE", "/v1/artifacts/ada-deck")).status).toBe(404);
  expect(((await (await as(bob, "GET", "/v1/artifacts")).json()) as any).data).toEqual([]);
  expect(((await (await as(ada, "GET", "/v1/artifacts")).json()) as any).data.map((a: any) => a.id)).toEqual(["ada-deck"]);
  expect((await stored(keyA, "ada-deck")).status).toBe(200);
  // Bob cannot take Ada's id by generating with it.
  e.openai.queue.push({ text: DECK });
  const taken = await client(bob)
    .chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "x" }], metadata: thesys("ada-deck") } as any)
    .then(
      () => null,
      (x) => x,
    );
  expect(taken?.status).toBe(409);
  expect((await stored(keyA, "ada-deck")).body.version).toBe(1);
});
