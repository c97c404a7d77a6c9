// Managed UI on Embed Chat Completions: the config block is replaced by the assembled prompt, the
// answer is checked and repaired, the correction shows up in reliability monitoring. Also: the
// built-in libraries compile and their packages' examples check valid with the real parser.
import { expect, test } from "bun:test";
import { writeConfigBlock } from "../../../src/client/config-block.ts";
import { compileLibrary, isValid, parse } from "../../../src/lang/index.ts";
import { BUILTIN_VERSION, builtInLibraries } from "../../../src/library/index.ts";
import { assembleBuiltinPrompt, assembleSystemPrompt } from "../../../src/prompt/index.ts";
import { CHAT_ORDERS, CHAT_REVENUE } from "../../support/openui-programs.ts";
import { promptAssemblies } from "../../../src/server/managed/mode.ts";
import { embedSuite } from "../embed-harness.ts";
import { SMALL_LIBRARY } from "../harness.ts";

const S = embedSuite("managed", 100);

test("every built-in library compiles; every example its package gives is valid with the real parser", () => {
  expect(BUILTIN_VERSION).toBe("0.1.0");
  let examples = 0;
  for (const source of Object.values(builtInLibraries)) {
    const lib = compileLibrary(source.chatLibrary);
    for (const ex of source.prompt.examples) {
      // The package titles each example ("Example 1 — …:") on the lines before the program.
      const result = parse(ex.slice(ex.indexOf(":\n\n") + 3), lib);
      expect(result.errors).toEqual([]);
      expect(isValid(result)).toBe(true);
      examples++;
    }
  }
  expect(examples).toBeGreaterThanOrEqual(8);
});

test("prompt: syntax rules, every signature in positional order with enums and defaults, groups, valid examples only, options, instructions", () => {
  const lib = compileLibrary(SMALL_LIBRARY);
  const prompt = assembleSystemPrompt({
    library: SMALL_LIBRARY,
    options: { preamble: "You build dashboards.", additionalRules: ["Prefer tables."], examples: ['root = Stack([Text("ok")])', "root = Nope()"] },
    instructions: "Answer in French.",
    checkExample: (p) => isValid(parse(p, lib)),
  });
  expect(prompt.startsWith("You build dashboards.")).toBe(true);
  expect(prompt).toContain("positional");
  expect(prompt).toContain("Stack(children: any[])");
  expect(prompt).toContain('Text(text: string, size?: "small" | "large")');
  expect(prompt).toContain("- Prefer tables.");
  expect(prompt).toContain('root = Stack([Text("ok")])');
  expect(prompt).not.toContain("Nope()");
  expect(prompt.trim().endsWith("Answer in French.")).toBe(true);
  const builtin = assembleBuiltinPrompt(builtInLibraries["0.1.0"]!.prompt);
  expect(builtin).toContain('Col(label?: string, type?: "string" | "number" | "action"');
  expect(builtin).toContain("Table(columns?: Col[]");
  expect(builtin).toContain("every program must define `root = Card(...)`");
});

test("managed (built-in library): the block is replaced by the assembled prompt; a valid answer comes back as is", async () => {
  const program = CHAT_ORDERS;
  S.E.openai.queue.push({ text: program });
  const out = await S.client.chat.completions.create({
    model: "openai/gpt-test",
    messages: [
      { role: "system", content: writeConfigBlock({ libraryVersion: "0.1.0" }, "Keep it short.") },
      { role: "user", content: "Show my orders" },
    ],
  });
  expect(out.choices[0]!.message.content).toBe(program);
  const sent = S.E.openai.calls[0]!.body.messages;
  expect(sent[0].role).toBe("system");
  expect(sent[0].content).not.toContain("]]>service:config");
  expect(sent[0].content).toContain("Card(children?:");
  expect(sent[0].content.trim().endsWith("Keep it short.")).toBe(true);
  expect(sent[1]).toEqual({ role: "user", content: "Show my orders" });
});

test("managed: a block's prompt is assembled once, however often the block comes, and every request gets it whole", async () => {
  const instructions = `Answer in French (block ${crypto.randomUUID()})`;
  const block = writeConfigBlock({ chatLibrary: SMALL_LIBRARY }, instructions);
  const before = promptAssemblies();
  for (let i = 0; i < 4; i++) {
    S.E.openai.queue.push({ text: 'root = Stack([Text("Bonjour", "m")])' });
    await S.client.chat.completions.create({
      model: "openai/gpt-test",
      messages: [
        { role: "system", content: block },
        { role: "user", content: `Hello ${i}` },
      ],
    });
  }
  expect(promptAssemblies() - before).toBe(1);
  const sent = S.E.openai.calls.map((c) => c.body.messages[0].content);
  expect(sent).toHaveLength(4);
  expect(new Set(sent).size).toBe(1);
  expect(sent[0]).toContain("Text(text: string");
  expect(sent[0].trim().endsWith(instructions)).toBe(true);
});

test("managed (app library): an invalid answer is repaired and the correction recorded under the model", async () => {
  S.E.anthropic.queue.push({ text: `root = Stack([greeting])\ngreeting = text("Hello", "large")` });
  const out = await S.client.chat.completions.create({
    model: "anthropic/claude-managed",
    messages: [
      { role: "system", content: writeConfigBlock({ chatLibrary: SMALL_LIBRARY }) },
      { role: "user", content: "Greet me" },
    ],
  });
  const content = out.choices[0]!.message.content!;
  expect(isValid(parse(content, compileLibrary(SMALL_LIBRARY)))).toBe(true);
  expect(S.E.anthropic.calls[0]!.body.system).toContain("Text(text: string");
  await S.E.h.server.idle(); // recorded just after the answer goes out
  const events = await S.E.h.server.db.selectFrom("reliability_events").selectAll().where("model", "=", "anthropic/claude-managed").execute();
  expect(events).toHaveLength(1);
  expect(events[0]!.outcome).toBe("fixed");
  expect(JSON.parse(events[0]!.corrected_codes).length).toBeGreaterThan(0);
  const res = await fetch(`${S.E.h.base}/v1/monitoring/reliability`, { headers: { authorization: `Bearer ${S.key}` } });
  expect(JSON.stringify(await res.json())).toContain("anthropic/claude-managed");
});

test("managed streaming passes chunks through as they come", async () => {
  const program = CHAT_REVENUE;
  S.E.gemini.queue.push({ text: program });
  const stream = await S.client.chat.completions.create({
    model: "google/gemini-test",
    stream: true,
    messages: [
      { role: "system", content: writeConfigBlock({ libraryVersion: "0.1.0" }) },
      { role: "user", content: "Revenue" },
    ],
  });
  let text = "";
  let n = 0;
  for await (const c of stream) {
    text += c.choices[0]?.delta.content ?? "";
    n++;
  }
  expect(text).toBe(program);
  expect(n).toBeGreaterThan(5);
  expect(S.E.gemini.calls[0]!.body.systemInstruction.parts[0].text).toContain("BarChart(labels: string[]");
});

test("a malformed config block is a 400; a plain system prompt is passthrough", async () => {
  const e = await S.client.chat.completions
    .create({
      model: "openai/gpt-test",
      messages: [
        { role: "system", content: "]]>service:config\n{not json" },
        { role: "user", content: "x" },
      ],
    })
    .catch((x) => x);
  expect(e.status).toBe(400);
  expect(e.message).toContain("config block");
  const selfHosted = "You write UI programs. Components: Stack(children)…";
  await S.client.chat.completions.create({
    model: "openai/gpt-test",
    messages: [
      { role: "system", content: selfHosted },
      { role: "user", content: "x" },
    ],
  });
  expect(S.E.openai.calls[0]!.body.messages[0]).toEqual({ role: "system", content: selfHosted });
});
