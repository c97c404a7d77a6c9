// OpenUI's own packages against the service: what @openuidev/thesys-server's generateSystemPrompt()
// writes is taken by Autofix and Embed as the config block it is, and every answer the service
// gives for a built-in library is one that @openuidev/lang-core's own parser renders (no errors, the
// library's root), whatever mistakes the model made.
import { expect, test } from "bun:test";
import { generateSystemPrompt } from "@openuidev/thesys-server";
import { createParser, generateSystemPrompt as langCorePrompt } from "@openuidev/lang-core";
import { openuiChatLibrary, openuiChatPromptOptions, openuiLibrary, openuiPromptOptions } from "@openuidev/react-ui/genui-lib";
import { builtInLibraries } from "../../../src/library/index.ts";
import { assembleBuiltinPrompt } from "../../../src/prompt/builtin.ts";
import { CHAT_ORDERS, mistakesOf, validProgramFor } from "../../support/openui-programs.ts";
import { embedSuite } from "../embed-harness.ts";
import { post } from "../harness.ts";

process.env.OPENUI_TELEMETRY_DISABLED = "1"; // lang-core reports prompt generation to its authors otherwise

const S = embedSuite("openui-sdk", 1000);

const BROKEN = CHAT_ORDERS.replace("Header(", "Heder(");

async function autofix(block: string, answer: string) {
  const res = await post(S.E.h.base, "/v1/autofix", S.key, {
    messages: [
      { role: "system", content: block },
      { role: "assistant", content: answer },
    ],
  });
  expect(res.status).toBe(200);
  return res.json();
}

async function embed(block: string, answer: string) {
  S.E.openai.queue.push({ text: answer });
  const out = await S.client.chat.completions.create({
    model: "openai/gpt-test",
    messages: [
      { role: "system", content: block },
      { role: "user", content: "Show me" },
    ],
  });
  const sent = S.E.openai.calls.at(-1)!.body.messages[0].content as string;
  return { content: out.choices[0]!.message.content!, sent };
}

test("generateSystemPrompt() without a library: the built-in chat library, prompted as @openuidev/thesys's", async () => {
  const chat = builtInLibraries["0.1.0"]!;
  for (const instructions of [undefined, "Answer in French.\nKeep it short."]) {
    const block = generateSystemPrompt(instructions ? { instructions } : undefined);
    expect(block.startsWith(']]>openui:config\n{"libraryVersion":"0.1.0"}')).toBe(true);
    const fixed = await autofix(block, BROKEN);
    expect(fixed.fix_summary.status).toBe("fixed");
    expect(fixed.choices[0].message.content).toBe(CHAT_ORDERS);
    const { content, sent } = await embed(block, BROKEN);
    expect(content).toBe(CHAT_ORDERS);
    expect(sent).toBe(assembleBuiltinPrompt(chat.prompt, {}, instructions));
    expect(sent).not.toContain("libraryVersion");
  }
});

test("generateSystemPrompt() with a library and prompt options: the application's library, its options in the prompt", async () => {
  const spec = openuiChatLibrary.toSpec();
  const block = generateSystemPrompt({
    library: spec,
    promptOptions: { ...openuiChatPromptOptions, preamble: "You are Acme's assistant." },
    instructions: "Be brief.",
  });
  expect(block.startsWith(']]>openui:config\n{"chatLibrary":')).toBe(true);
  expect(block.length).toBeGreaterThan(20_000); // the whole library rides in the block
  const program = validProgramFor("react-ui/openui-chat", openuiChatPromptOptions.examples!);
  const broken = program.replace("TextContent(", "Textcontent(");
  expect(broken).not.toBe(program);
  const fixed = await autofix(block, broken);
  expect(fixed.fix_summary.status).toBe("fixed");
  expect(fixed.choices[0].message.content).toBe(program);
  const { content, sent } = await embed(block, broken);
  expect(content).toBe(program);
  expect(sent.startsWith("You are Acme's assistant.")).toBe(true);
  expect(sent).toContain("TextContent(text: string");
  expect(sent).toContain(openuiChatPromptOptions.additionalRules![0]!);
  expect(sent.trim().endsWith("Be brief.")).toBe(true);
  expect(sent).not.toContain('"$defs"');
});

test("@openuidev/lang-core's own Cloud writer (generateSystemPrompt({cloud: true})) is read the same way", async () => {
  const program = validProgramFor("react-ui/openui", openuiPromptOptions.examples!);
  const broken = program.replace("TextContent(", "Textcontent(");
  for (const spec of [
    { cloud: true as const, library: openuiLibrary.toSpec(), promptOptions: openuiPromptOptions, instructions: "Be brief." },
    { cloud: true as const },
  ]) {
    const block = langCorePrompt(spec);
    expect(block.startsWith("]]>openui:config\n")).toBe(true);
    const answer = spec.library ? broken : CHAT_ORDERS.replace("Header(", "Heder(");
    const want = spec.library ? program : CHAT_ORDERS;
    expect((await autofix(block, answer)).choices[0].message.content).toBe(want);
    const { content, sent } = await embed(block, answer);
    expect(content).toBe(want);
    expect(sent).not.toContain("]]>openui:config");
    if (spec.library) expect(sent).toContain(openuiPromptOptions.additionalRules![0]!);
  }
});

test("every answer for a built-in library renders with @openuidev/lang-core's parser: no errors, the library's root", async () => {
  let answers = 0;
  for (const [name, source] of Object.entries(builtInLibraries)) {
    const parser = createParser(source.chatLibrary.schema as never, source.chatLibrary.root as string);
    const block = generateSystemPrompt().replace('"0.1.0"', JSON.stringify(name));
    const valid = validProgramFor(name, source.prompt.examples);
    for (const answer of [valid, ...mistakesOf(valid)]) {
      const fixed = await autofix(block, answer);
      expect(`${name}: ${fixed.fix_summary.status}`).toBe(`${name}: ${answer === valid ? "already_valid" : "fixed"}`);
      const fromAutofix = fixed.choices[0].message.content as string;
      const fromEmbed = (await embed(block, answer)).content;
      S.E.openai.queue.push({ text: answer });
      const fromResponses = (await S.client.responses.create({ model: "openai/gpt-test", instructions: block, input: "Show me" })).output_text;
      for (const [surface, text] of [
        ["autofix", fromAutofix],
        ["embed", fromEmbed],
        ["responses", fromResponses],
      ]) {
        expect(`${name} ${surface}: ${typeof text}`).toBe(`${name} ${surface}: string`);
        const result = parser.parse(text!);
        expect(`${name} ${surface}: ${JSON.stringify(result.meta.errors)} ${result.root?.typeName}`).toBe(`${name} ${surface}: [] ${source.chatLibrary.root}`);
        answers++;
      }
    }
  }
  expect(answers).toBe(9 * 4 * 3);
}, 120_000);
