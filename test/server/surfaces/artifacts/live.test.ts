// Artifact Chat Completions streamed live: the program's lines reach the client, repaired, while
// the model is still writing; the stream ends with the stored version; a client that hangs up
// stops the model, and nothing is stored or charged. The model is a gated stand-in on loopback
// (OpenAI's chat-completions wire) behind the local provider.
import { beforeEach, expect, test } from "bun:test";
import { embedSuite } from "../../embed-harness.ts";
import { eventually } from "../../../support/eventually.ts";

const S = embedSuite("artifacts-live", 100);
beforeEach(() => {
  S.E.h.server.config.artifactPrice = 0;
});

const enc = new TextEncoder();
const dec = new TextDecoder();
const frame = (content: string | null, finish: string | null = null) =>
  enc.encode(
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`,
  );

/** A model that writes `first`, waits for the test, then writes `rest`; `aborted` resolves if the service hangs up on it. */
function gatedModel(first: string, rest: string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let aborted!: () => void;
  const hungUp = new Promise<void>((r) => (aborted = r));
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      req.signal.addEventListener("abort", () => aborted());
      return new Response(
        new ReadableStream({
          async start(ctrl) {
            ctrl.enqueue(frame(first));
            await Promise.race([gate, hungUp]);
            try {
              ctrl.enqueue(frame(rest));
              ctrl.enqueue(frame(null, "stop"));
              ctrl.enqueue(enc.encode("data: [DONE]\n\n"));
              ctrl.close();
            } catch {
              // The service hung up: the stream is gone.
            }
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    },
  });
  const providers = S.E.h.server.config.providers;
  const saved = providers.LOCAL_BASE_URL;
  providers.LOCAL_BASE_URL = `http://127.0.0.1:${server.port}/v1`;
  return {
    release,
    hungUp,
    stop() {
      providers.LOCAL_BASE_URL = saved;
      server.stop(true);
    },
  };
}

function ask(id: string) {
  return fetch(`${S.E.h.base}/v1/artifact/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${S.key}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "local/gated",
      stream: true,
      messages: [{ role: "user", content: "A deck about coffee" }],
      metadata: { thesys: JSON.stringify({ id, c1_artifact_type: "slides" }) },
    }),
  });
}

/** Reads until `seen` holds `want`; fails (never spins) when the stream ends first. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, seen: { text: string }, want: string) {
  while (!seen.text.includes(want)) {
    const r = await reader.read();
    if (r.done) throw new Error(`the stream ended before ${want}: ${seen.text}`);
    seen.text += dec.decode(r.value, { stream: true });
  }
}

const chunks = (sse: string) =>
  sse
    .split("\n\n")
    .filter((f) => f.startsWith("data: {"))
    .map((f) => JSON.parse(f.slice(6)));

const HEAD = 'root = SlideShow("Coffee", "Q3", [cover, numbers])\ncover = Slide("cover", StandardTitle("Coffee", "Q3"))\nnumbers = Slide("numbers", Conte';
const TAIL = 'ntClasic("Numbers", ["Revenue up 12%"]))';
const PROGRAM =
  'root = SlideShow("Coffee", "Q3", [cover, numbers])\ncover = Slide("cover", StandardTitle("Coffee", "Q3"))\nnumbers = Slide("numbers", ContentClassic("Numbers", ["Revenue up 12%"]))';

test("the first lines reach the client, repaired, while the model is still writing; the stream ends with the stored version", async () => {
  const model = gatedModel(HEAD, TAIL);
  try {
    const res = await ask("live-1");
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const seen = { text: "" };
    await readUntil(reader, seen, "StandardTitle");
    // Nothing is stored yet, and the line being written is not sent.
    expect(seen.text).not.toContain("Conte");
    expect((await fetch(`${S.E.h.base}/v1/artifacts/live-1`, { headers: { authorization: `Bearer ${S.key}` } })).status).toBe(404);
    model.release();
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen.text += dec.decode(r.value, { stream: true });
    expect(seen.text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    const all = chunks(seen.text);
    const text = all.map((c) => c.choices[0]?.delta?.content ?? "").join("");
    // The misspelt component was mended as its line ended; the text is the stored program.
    expect(text).toBe(PROGRAM);
    const last = all.find((c) => c.choices[0]?.finish_reason === "stop");
    expect(last.artifact).toMatchObject({ id: "live-1", version: 1, content: PROGRAM, outcome: "fixed" });
    const stored = await (await fetch(`${S.E.h.base}/v1/artifacts/live-1`, { headers: { authorization: `Bearer ${S.key}` } })).json();
    expect(stored).toMatchObject({ version: 1, content: PROGRAM });
  } finally {
    model.stop();
  }
});

test("a client that hangs up mid-stream stops the model: nothing is stored or charged", async () => {
  S.E.h.server.config.artifactPrice = 5;
  const before = await S.E.h.credits("artifacts-live");
  const model = gatedModel(HEAD, TAIL);
  try {
    const res = await ask("live-gone");
    const reader = res.body!.getReader();
    await readUntil(reader, { text: "" }, "StandardTitle");
    await reader.cancel();
    // The service hangs up on the model, and the call ends uncharged.
    await model.hungUp;
    const log = await eventually(
      () =>
        S.E.h.server.db
          .selectFrom("request_logs")
          .select(["status", "outcome", "charge"])
          .where("endpoint", "=", "/v1/artifact/chat/completions")
          .where("outcome", "=", "cancelled")
          .execute(),
      (rows) => rows.length === 1,
      { ms: 10_000 },
    );
    expect(log[0]).toMatchObject({ status: 499, charge: 0 });
    expect(await S.E.h.credits("artifacts-live")).toBe(before);
    expect((await fetch(`${S.E.h.base}/v1/artifacts/live-gone`, { headers: { authorization: `Bearer ${S.key}` } })).status).toBe(404);
  } finally {
    model.stop();
  }
});
