// The artifact tool inside Responses ({"type": "artifact"}, what @openuidev/thesys-server's
// artifactTool() writes): the model calls thesys_generate_slides / thesys_edit_slides / …, the
// service runs the artifact job (the stand-in model writes the program, with mistakes), stores the
// version, streams the function_call's arguments as the program is written, and adds the
// function_call_output `]]>openui:artifact {header}` + program. Read back with the official openai
// client (JSON, responses.stream(), background) and with OpenUI's own code: react-headless's
// openAIResponsesAdapter and processStreamedMessage, and @openuidev/thesys's artifact renderers.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { plugin } from "bun";
import OpenAI from "openai";
import { startResponsesHarness, until, type ResponsesHarness } from "../../responses-harness.ts";

// @openuidev/thesys imports DotMatrixLoader, which the newest published @openuidev/react-ui lacks
// (it draws a loading placeholder): supplied empty, the rest is the packages' own code.
plugin({
  name: "react-ui-with-dot-matrix-loader",
  setup(b) {
    b.onLoad({ filter: /@openuidev\/react-ui\/dist\/index\.mjs$/ }, async (a) => ({
      contents: `${await Bun.file(a.path).text()}\nexport const DotMatrixLoader = () => null;\n`,
      loader: "js",
    }));
  },
});

let H: ResponsesHarness;
let client: OpenAI;
let renderers: { toolName: string[]; type: string; parser: (input: { args: string; response: string | null }, o: { isStreaming: boolean }) => any }[];
const MODEL = "openai/gpt-stand-in";
const ARTIFACT_TOOL = { type: "artifact", artifacts: [{ artifact_type: "slides", library_version: "0.1.0" }, { artifact_type: "report" }] } as any;

beforeAll(async () => {
  H = await startResponsesHarness("artifact-tool");
  client = H.responses;
  renderers = (await import("@openuidev/thesys")).artifactRenderers as any;
});
afterAll(() => H.close());
beforeEach(() => {
  H.E.reset();
  H.E.h.server.config.artifactPrice = 0;
  H.E.h.server.config.responsesPrice = 0;
});

const DECK = `root = SlideShow("Coffee Sales", "Q3 review", [cover, numbers])
cover = Slide("cover", StandardTitle("Coffee Sales", "Q3 review"))
numbers = Slide("numbers", ContentClassic("Numbers", ["Revenue up 12%", "Six new stores"]))`;
// What the stand-in writes: fenced, with a misspelt component the check mends.
const WRITTEN = `Here you go:\n\`\`\`openui\n${DECK.replace("ContentClassic", "ContentClasic")}\n\`\`\``;

/** The next model calls: the turn's model calls `name`, then the artifact model writes `program`. */
function script(name: string, args: Record<string, unknown>, program: string) {
  H.E.openai.queue.push({ toolCalls: [{ id: `call_${name}_${H.E.openai.calls.length}`, name, arguments: JSON.stringify(args) }] });
  H.E.openai.queue.push({ text: program });
}

async function stored(id: string) {
  const res = await fetch(`${H.base}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${H.key}` } });
  return { status: res.status, body: (await res.json()) as any };
}

/** What @openuidev/thesys's renderer for this tool makes of a call (as react-ui's runRenderer calls it). */
function render(toolName: string, args: string, response: string | null, isStreaming = false) {
  const renderer = renderers.find((r) => r.toolName.includes(toolName));
  if (!renderer) throw new Error(`no thesys renderer for ${toolName}`);
  return { type: renderer.type, ...renderer.parser({ args, response }, { isStreaming }) };
}

describe("the artifact tool", () => {
  test("JSON: the call runs the artifact job; function_call and function_call_output as the thesys renderer reads them; the model reads the result", async () => {
    script("thesys_generate_slides", { instruction: "A deck about coffee sales in Q3" }, WRITTEN);
    const r = await client.responses.create({ model: MODEL, input: "Make me a deck about our coffee sales", tools: [ARTIFACT_TOOL] });
    expect(r.status).toBe("completed");
    expect(r.output.map((i) => i.type)).toEqual(["function_call", "function_call_output", "message"]);
    const [call, out] = r.output as any[];
    expect(call).toMatchObject({ name: "thesys_generate_slides", status: "completed" });
    expect(out.call_id).toBe(call.call_id);
    const args = JSON.parse(call.arguments);
    expect(args).toMatchObject({
      type: "slides",
      artifact_type: "slides",
      instruction: "A deck about coffee sales in Q3",
      artifact_content: DECK,
      name: "Coffee Sales",
      version: "1",
    });
    const header = { artifact_id: args.artifact_id, type: "slides", name: "Coffee Sales", version: "1" };
    expect(out.output).toBe(`]]>openui:artifact ${JSON.stringify(header)}\n${DECK}`);
    // Stored as version 1 of the organization's artifact.
    expect((await stored(args.artifact_id)).body).toMatchObject({ kind: "slides", name: "Coffee Sales", version: 1, content: DECK });
    // The artifact model was asked in the slides library, with the instruction.
    const artifactCall = H.E.openai.calls[1]!.body;
    expect(artifactCall.messages[0].content).toContain("SlideShow(title: string, subtitle?: string, slides: Slide[])");
    expect(artifactCall.messages.at(-1)).toEqual({ role: "user", content: "A deck about coffee sales in Q3" });
    // The turn's model was offered the four functions, and read the result.
    const first = H.E.openai.calls[0]!.body;
    expect(first.tools.map((t: any) => t.function.name).sort()).toEqual([
      "thesys_edit_report",
      "thesys_edit_slides",
      "thesys_generate_report",
      "thesys_generate_slides",
    ]);
    const second = H.E.openai.calls[2]!.body;
    expect(second.messages.find((m: any) => m.role === "tool").content).toBe(out.output);
    // @openuidev/thesys's renderer: the deck, ready, under its id and version.
    const seen = render(call.name, call.arguments, out.output);
    expect(seen).toMatchObject({ type: "slides", props: { kind: "slides", artifactId: args.artifact_id, content: DECK, phase: "ready" } });
    expect(seen.meta).toEqual({ id: args.artifact_id, version: 1, heading: "Coffee Sales" });
    // And from the result alone (a stripped reload keeps only the result).
    expect(render(call.name, "", out.output).props).toMatchObject({ artifactId: args.artifact_id, content: DECK });
  });

  test("streamed: OpenUI's adapter and message builder read the call live and finished; the thesys renderer draws the partial deck, then the stored one", async () => {
    const { openAIResponsesAdapter, processStreamedMessage, pairToolActivity, EventType } = await import("@openuidev/react-headless");
    (globalThis as any).requestAnimationFrame ??= (cb: () => void) => setTimeout(cb, 0);
    (globalThis as any).cancelAnimationFrame ??= (id: any) => clearTimeout(id);
    script("thesys_generate_slides", { instruction: "Coffee sales, Q3" }, WRITTEN);
    const res = await fetch(`${H.base}/v1/embed/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${H.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, input: "A deck please", stream: true, tools: [ARTIFACT_TOOL] }),
    });
    const [forAdapter, forMessages] = res.body!.tee();
    const events: any[] = [];
    for await (const e of openAIResponsesAdapter().parse(new Response(forAdapter))) events.push(e);
    expect(events.some((e) => e.type === EventType.RUN_ERROR)).toBe(false);
    const start = events.find((e) => e.type === EventType.TOOL_CALL_START);
    expect(start.toolCallName).toBe("thesys_generate_slides");
    const deltas = events.filter((e) => e.type === EventType.TOOL_CALL_ARGS && e.toolCallId === start.toolCallId).map((e) => e.delta as string);
    // The arguments come in pieces as the program is written: the deck's first slide is drawn before its last line came.
    expect(deltas.length).toBeGreaterThan(3);
    let partial = "";
    let drawnEarly: any = null;
    for (const d of deltas) {
      partial += d;
      if (!drawnEarly && partial.includes("StandardTitle") && !partial.includes("Six new stores"))
        drawnEarly = render("thesys_generate_slides", partial, null, true);
    }
    expect(drawnEarly?.props).toMatchObject({ kind: "slides", phase: "streaming" });
    expect(drawnEarly.props.content).toContain('cover = Slide("cover", StandardTitle("Coffee Sales", "Q3 review"))');
    const result = events.find((e) => e.type === EventType.TOOL_CALL_RESULT);
    expect(result.toolCallId).toBe(start.toolCallId);
    expect(result.content.startsWith("]]>openui:artifact ")).toBe(true);

    // The messages react-headless builds from the same stream, paired as its tool renderers pair them.
    const messages: any[] = [];
    await processStreamedMessage({
      response: new Response(forMessages),
      adapter: openAIResponsesAdapter(),
      createMessage: (m: any) => messages.push(m),
      updateMessage: (m: any) => {
        const i = messages.findIndex((x) => x.id === m.id);
        if (i < 0) messages.push(m);
        else messages[i] = m;
      },
    } as any);
    const assistant = messages.find((m) => m.role === "assistant" && m.toolCalls?.length);
    const [activity] = pairToolActivity(assistant, messages);
    expect(activity.status).toBe("complete");
    const seen = render(activity.toolName, activity.toolCall.function.arguments, activity.result ?? null);
    expect(seen.props).toMatchObject({ kind: "slides", content: DECK, phase: "ready" });
    expect(seen.meta).toMatchObject({ version: 1, heading: "Coffee Sales" });
    expect((await stored(seen.meta.id)).body.content).toBe(DECK);
  });

  test("streamed through the official client's responses.stream(): the argument deltas add up to the stored item; the final response is the stored one", async () => {
    script(
      "thesys_generate_report",
      { instruction: "The staff survey results" },
      'root = ReportView("Staff Survey", "2025", [front])\nfront = Page("front", MinimalFrontPage("Staff Survey", TextContent("What 412 colleagues said.")))',
    );
    const stream = client.responses.stream({ model: MODEL, input: "A report on the survey", tools: [ARTIFACT_TOOL] });
    const types: string[] = [];
    let args = "";
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === "response.function_call_arguments.delta") args += e.delta;
    }
    const final = await stream.finalResponse();
    const call = final.output.find((i) => i.type === "function_call") as any;
    expect(args).toBe(call.arguments);
    expect(JSON.parse(args)).toMatchObject({ type: "report", name: "Staff Survey", version: "1" });
    const added = types.indexOf("response.output_item.added");
    expect(types.slice(added, added + 2)).toEqual(["response.output_item.added", "response.function_call_arguments.delta"]);
    expect(types.filter((t) => t === "response.output_item.added")).toHaveLength(3);
    expect(types.at(-1)).toBe("response.completed");
    const again = await client.responses.retrieve(final.id);
    // The stream helper adds parsed fields of its own; the items are otherwise the stored ones.
    expect(again.output.slice(0, 2)).toEqual([{ ...call, parsed_arguments: undefined }, final.output[1]] as any);
    expect(again.output_text).toBe(final.output_text);
    expect(render(call.name, call.arguments, (final.output[1] as any).output).props).toMatchObject({ kind: "report", phase: "ready" });
  });

  test("an edit by artifact_id: the patch is merged into the latest version, stored as version 2; priced once per job that ran", async () => {
    H.E.h.server.config.artifactPrice = 3;
    const before = await H.E.h.credits("artifact-tool");
    script("thesys_generate_slides", { instruction: "Coffee" }, DECK);
    const made = await client.responses.create({ model: MODEL, input: "A deck", tools: [ARTIFACT_TOOL] });
    const id = JSON.parse((made.output[0] as any).arguments).artifact_id;
    script(
      "thesys_edit_slides",
      { artifact_id: id, instruction: "Revenue is up 14%, add a plan slide" },
      'numbers = Slide("numbers", ContentClassic("Numbers", ["Revenue up 14%"]))\nplan = Slide("plan", ContentClassic("Plan", ["Open two stores"]))\nroot = SlideShow("Coffee Sales", "Q3 review", [cover, numbers, plan])',
    );
    const edited = await client.responses.create({ model: MODEL, input: "Update it", previous_response_id: made.id, tools: [ARTIFACT_TOOL] });
    const [call, out] = edited.output as any[];
    expect(call.name).toBe("thesys_edit_slides");
    const merged = `root = SlideShow("Coffee Sales", "Q3 review", [cover, numbers, plan])
cover = Slide("cover", StandardTitle("Coffee Sales", "Q3 review"))
numbers = Slide("numbers", ContentClassic("Numbers", ["Revenue up 14%"]))
plan = Slide("plan", ContentClassic("Plan", ["Open two stores"]))`;
    expect(out.output).toBe(`]]>openui:artifact ${JSON.stringify({ artifact_id: id, type: "slides", name: "Coffee Sales", version: "2" })}\n${merged}`);
    // The edit model was given the stored program in edit mode.
    const editCall = H.E.openai.calls.find((c) => String(c.body.messages?.[0]?.content).includes("## Edit mode"))!.body;
    expect(editCall.messages[1].content).toContain(DECK);
    expect((await stored(id)).body).toMatchObject({ version: 2, content: merged });
    // The rendered args read as the merged deck (the program edited, then the patch's statements).
    expect(render(call.name, call.arguments, out.output).props.content).toContain("Open two stores");
    expect(await H.E.h.credits("artifact-tool")).toBe(before - 6);
  });

  test("a failed job is a failed tool output the model reads: the turn goes on, nothing stored or charged", async () => {
    H.E.h.server.config.artifactPrice = 3;
    const before = await H.E.h.credits("artifact-tool");
    // An edit of an artifact that does not exist, then a program nothing can repair.
    script("thesys_edit_slides", { artifact_id: "no-such-deck", instruction: "Shorter" }, DECK);
    H.E.openai.queue.pop();
    const a = await client.responses.create({ model: MODEL, input: "Edit it", tools: [ARTIFACT_TOOL] });
    expect(a.status).toBe("completed");
    expect(a.output.map((i) => i.type)).toEqual(["function_call", "function_call_output", "message"]);
    expect((a.output[1] as any).output).toContain("The slide deck was not changed: no artifact no-such-deck");
    // An edit of a report with the slides function: refused before any model is asked.
    script(
      "thesys_generate_report",
      { instruction: "A survey report" },
      'root = ReportView("Survey", "2025", [front])\nfront = Page("front", MinimalFrontPage("Survey", TextContent("Results.")))',
    );
    const report = await client.responses.create({ model: MODEL, input: "A report", tools: [ARTIFACT_TOOL] });
    const reportId = JSON.parse((report.output[0] as any).arguments).artifact_id;
    const calls = H.E.openai.calls.length;
    script("thesys_edit_slides", { artifact_id: reportId, instruction: "Shorter" }, DECK);
    H.E.openai.queue.pop();
    const wrong = await client.responses.create({ model: MODEL, input: "Edit the report", tools: [ARTIFACT_TOOL] });
    expect((wrong.output[1] as any).output).toContain(`${reportId} is a report: edit it with thesys_edit_report`);
    expect(H.E.openai.calls.length).toBe(calls + 2);
    script("thesys_generate_slides", { instruction: "Anything" }, "root = Zqxwv([Plmok(1)])");
    const b = await client.responses.create({ model: MODEL, input: "Make one", tools: [ARTIFACT_TOOL] });
    expect(b.status).toBe("completed");
    const out = (b.output[1] as any).output as string;
    expect(out.startsWith("The slide deck was not made:")).toBe(true);
    expect(out).toContain("Nothing was stored.");
    expect(b.output_text).toContain("The tool answered:");
    // Only the report was stored and charged.
    expect(await H.E.h.credits("artifact-tool")).toBe(before - 3);
  });

  test("an edit of an artifact not stored here starts from the program the conversation's last result for it holds", async () => {
    const header = { artifact_id: "from-elsewhere", type: "slides", name: "Coffee Sales", version: "4" };
    const input = [
      { type: "message", role: "user", content: "A deck" },
      { type: "function_call", call_id: "c-old", name: "thesys_generate_slides", arguments: '{"instruction":"Coffee"}' },
      { type: "function_call_output", call_id: "c-old", output: `]]>openui:artifact ${JSON.stringify(header)}\n${DECK}` },
      { type: "message", role: "user", content: "Now say revenue is up 20%" },
    ];
    script(
      "thesys_edit_slides",
      { artifact_id: "from-elsewhere", instruction: "Revenue up 20%" },
      'numbers = Slide("numbers", ContentClassic("Numbers", ["Revenue up 20%"]))',
    );
    const r = await client.responses.create({ model: MODEL, input: input as any, tools: [ARTIFACT_TOOL] });
    const out = (r.output[1] as any).output as string;
    expect(out.startsWith("]]>openui:artifact ")).toBe(true);
    const expected = DECK.replace('["Revenue up 12%", "Six new stores"]', '["Revenue up 20%"]');
    expect(out.endsWith(`\n${expected}`)).toBe(true);
    expect((await stored("from-elsewhere")).body).toMatchObject({ version: 1, content: expected });
  });

  test("past max_tool_calls a call is not run: its output says so, nothing is stored", async () => {
    H.E.openai.queue.push({
      toolCalls: [
        { id: "c1", name: "thesys_generate_slides", arguments: '{"instruction":"One"}' },
        { id: "c2", name: "thesys_generate_report", arguments: '{"instruction":"Two"}' },
      ],
    });
    H.E.openai.queue.push({ text: DECK });
    const r = await client.responses.create({ model: MODEL, input: "Both", tools: [ARTIFACT_TOOL], max_tool_calls: 1 } as any);
    expect(r.output.map((i) => i.type)).toEqual(["function_call", "function_call", "function_call_output", "function_call_output", "message"]);
    const outputs = r.output.filter((i) => i.type === "function_call_output") as any[];
    expect(outputs[0].call_id).toBe("c1");
    expect(outputs[0].output.startsWith("]]>openui:artifact ")).toBe(true);
    expect(outputs[1]).toMatchObject({ call_id: "c2" });
    expect(outputs[1].output).toContain("max_tool_calls");
    // The second call never reached the artifact model.
    expect(H.E.openai.calls.filter((c) => String(c.body.messages?.[0]?.content).includes("ReportView("))).toHaveLength(0);
  });

  test("background: the job runs in the queued response; retrieved, it holds the call, the result and the answer", async () => {
    script("thesys_generate_slides", { instruction: "Coffee" }, DECK);
    const queued = await client.responses.create({ model: MODEL, input: "A deck, later", tools: [ARTIFACT_TOOL], background: true });
    const done = await until(
      () => client.responses.retrieve(queued.id),
      (r) => r.status === "completed" || r.status === "failed",
    );
    expect(done.status).toBe("completed");
    expect(done.output.map((i) => i.type)).toEqual(["function_call", "function_call_output", "message"]);
    const header = JSON.parse((done.output[1] as any).output.split("\n")[0].slice("]]>openui:artifact ".length));
    expect((await stored(header.artifact_id)).body).toMatchObject({ version: 1, content: DECK });
  });

  test("a frontend token needs artifacts:write for the artifact tool; what its turn makes is its user's", async () => {
    const mint = async (user: string, scopes: string[]) => {
      const res = await fetch(`${H.base}/v1/frontend-tokens`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${H.key}` },
        body: JSON.stringify({ user, scopes }),
      });
      return ((await res.json()) as { token: string }).token;
    };
    const browser = (token: string) => new OpenAI({ baseURL: `${H.base}/v1/embed`, apiKey: token, maxRetries: 0, dangerouslyAllowBrowser: true });
    const without = await mint("ada", ["responses:create"]);
    const refused = await browser(without)
      .responses.create({ model: MODEL, input: "A deck", tools: [ARTIFACT_TOOL] })
      .then(
        () => null,
        (e) => e,
      );
    expect(refused?.status).toBe(403);
    expect(H.E.openai.calls).toHaveLength(0);
    const ada = await mint("ada", ["responses:create", "artifacts:read", "artifacts:write"]);
    const bob = await mint("bob", ["artifacts:read"]);
    script("thesys_generate_slides", { instruction: "Coffee" }, DECK);
    const r = await browser(ada).responses.create({ model: MODEL, input: "A deck", tools: [ARTIFACT_TOOL] });
    const id = JSON.parse((r.output[0] as any).arguments).artifact_id;
    const get = (token: string) => fetch(`${H.base}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await get(ada)).status).toBe(200);
    expect((await get(bob)).status).toBe(404);
  });

  test("tool entries are checked: each problem a 400 naming tools; nothing reaches the model", async () => {
    const bad = [
      [{ type: "artifact", artifacts: [] }, "empty"],
      [{ type: "artifact", artifacts: [{ artifact_type: "slides" }, { artifact_type: "slides" }] }, "twice"],
      [{ type: "artifact", artifacts: [{ artifact_type: "dashboard" }] }, "artifact_type"],
      [{ type: "artifact", artifacts: [{ artifact_type: "slides", library_version: "9.9.9" }] }, "9.9.9"],
    ] as const;
    for (const [tool, says] of bad) {
      const err = await client.responses.create({ model: MODEL, input: "x", tools: [tool as any] }).then(
        () => null,
        (e) => e,
      );
      expect(err?.status).toBe(400);
      expect(err?.message).toContain(says);
    }
    const two = await client.responses.create({ model: MODEL, input: "x", tools: [{ type: "artifact" } as any, { type: "artifact" } as any] }).then(
      () => null,
      (e) => e,
    );
    expect(two?.status).toBe(400);
    expect(H.E.openai.calls).toHaveLength(0);
  });
});
