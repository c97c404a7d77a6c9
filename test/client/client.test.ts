// The server helper: config block, envelope split/rebuild through the language core, validity.
import { beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_MARKER, isValidGeneration, libraryConfig, readConfigBlock, rebuildGeneration, splitGeneration, wrapEnvelope } from "../../src/client/index.ts";
import { loadLanguage } from "../../src/lang/index.ts";
import { BROKEN, SMALL_LIBRARY, VALID } from "../server/harness.ts";

beforeAll(() => loadLanguage());

test("libraryConfig writes marker, one JSON line, then the instructions", () => {
  const block = libraryConfig(SMALL_LIBRARY, { instructions: "Be brief.\nUse cards.", promptOptions: { preamble: "Hi" } });
  const lines = block.split("\n");
  expect(lines[0]).toBe(CONFIG_MARKER);
  expect(JSON.parse(lines[1])).toEqual({ chatLibrary: SMALL_LIBRARY, systemPromptOptions: { preamble: "Hi" } });
  expect(lines.slice(2).join("\n")).toBe("Be brief.\nUse cards.");
  const read = readConfigBlock(block);
  expect(read.ok && read.block.instructions).toBe("Be brief.\nUse cards.");
});

test("libraryConfig without a library names the built-in one", () => {
  expect(libraryConfig()).toBe(`${CONFIG_MARKER}\n{"libraryVersion":"0.1.0"}`);
});

test("libraryConfig refuses what the server would refuse", () => {
  expect(() => libraryConfig({ schema: { $defs: {} } })).toThrow();
  expect(() => libraryConfig({ root: "Nope", schema: SMALL_LIBRARY.schema })).toThrow();
  expect(() => libraryConfig(SMALL_LIBRARY, { promptOptions: { temperature: 1 } as never })).toThrow(/promptOptions/);
});

test("envelope and fence split/rebuild round trip byte for byte", () => {
  const cases = [
    VALID,
    `Here:\n\`\`\`ui\n${VALID}\n\`\`\`\nBye.\n`,
    `]]>service:content?libraryVersion=0.1.0\r\n${VALID}\r\n]]>service:context\r\n[{"a":1}]\r\n]]>service:end`,
    wrapEnvelope(VALID, { attributes: { libraryVersion: "0.1.0" }, context: [{ f: { v: 1 } }] }),
  ];
  for (const text of cases) {
    const split = splitGeneration(text);
    expect(split.head + split.program + split.tail).toBe(text);
    expect(rebuildGeneration(split, split.program)).toBe(text);
    expect(split.program).toContain("root = Stack");
    expect(split.program).not.toContain("]]>service:");
    expect(split.program).not.toContain("```");
  }
});

test("wrapEnvelope writes header, program, context and end marker", () => {
  expect(wrapEnvelope("root = Stack([])", { attributes: { libraryVersion: "0.1.0" }, context: [{ a: 1 }] })).toBe(
    ']]>service:content?libraryVersion=0.1.0\nroot = Stack([])\n]]>service:context\n[{"a":1}]\n]]>service:end',
  );
});

test("isValidGeneration judges the program inside any wrapping", async () => {
  expect(await isValidGeneration(VALID, SMALL_LIBRARY)).toBe(true);
  expect(await isValidGeneration(BROKEN, SMALL_LIBRARY)).toBe(false);
  expect(await isValidGeneration(wrapEnvelope(VALID), SMALL_LIBRARY)).toBe(true);
  expect(await isValidGeneration("```\n" + BROKEN + "\n```", SMALL_LIBRARY)).toBe(false);
});

const shared = join(import.meta.dir, "../../../shared/fixtures");
test("the real OpenUI library and its samples", async () => {
  if (!existsSync(shared)) {
    console.log("skipped: ../shared/fixtures is absent");
    return;
  }
  const library = { root: "Stack", schema: JSON.parse(readFileSync(join(shared, "libraries/openui-default.schema.json"), "utf8")) };
  expect(libraryConfig(library).startsWith(CONFIG_MARKER)).toBe(true);
  const sample = readFileSync(join(shared, "samples/simple-table.oui"), "utf8");
  expect(typeof (await isValidGeneration(sample, library))).toBe("boolean");
});
