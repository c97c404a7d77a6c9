// The client helper writes and reads both marker families: OpenUI's `]]>openui:` (what OpenUI's
// SDKs write) and the service's `]]>service:`.
import { beforeAll, expect, test } from "bun:test";
import {
  CONFIG_MARKER,
  CONFIG_MARKERS,
  OPENUI_CONFIG_MARKER,
  isValidGeneration,
  libraryConfig,
  readConfigBlock,
  rebuildGeneration,
  splitGeneration,
  wrapEnvelope,
} from "../../src/client/index.ts";
import { isConfigBlock } from "../../src/client/config-block.ts";
import { loadLanguage } from "../../src/lang/index.ts";
import { builtInLibraries } from "../../src/library/index.ts";
import { CHAT_ORDERS } from "../support/openui-programs.ts";

beforeAll(() => loadLanguage());
const chat = builtInLibraries["0.1.0"]!.chatLibrary;

test("libraryConfig writes OpenUI's marker when asked, and names any built-in library", () => {
  expect(CONFIG_MARKERS).toEqual([OPENUI_CONFIG_MARKER, CONFIG_MARKER]);
  expect(libraryConfig(undefined, { markers: "openui" })).toBe(`]]>openui:config\n{"libraryVersion":"0.1.0"}`);
  expect(libraryConfig(undefined, { libraryVersion: "thesys/report-view", instructions: "Be brief." })).toBe(
    `]]>service:config\n{"libraryVersion":"thesys/report-view"}\nBe brief.`,
  );
  expect(() => libraryConfig(chat, { libraryVersion: "0.1.0" })).toThrow(/not both/);
});

test("readConfigBlock and isConfigBlock take either marker, and nothing that only looks like one", () => {
  for (const m of CONFIG_MARKERS) {
    for (const nl of ["\n", "\r\n"]) {
      const text = `${m}${nl}{"libraryVersion":"0.1.0"}${nl}Answer in French.`;
      expect(isConfigBlock(text)).toBe(true);
      const read = readConfigBlock(text);
      expect(read.ok && read.block.libraryVersion).toBe("0.1.0");
    }
  }
  for (const text of ["]]>openui:configx\n{}", "]]>openui:content\nroot = Card([])", " ]]>openui:config\n{}", "]]>openui:conf"]) {
    expect(isConfigBlock(text)).toBe(false);
    expect(readConfigBlock(text).ok).toBe(false);
  }
});

test("wrapEnvelope writes either family; split/rebuild keeps each byte for byte", async () => {
  const openui = wrapEnvelope(CHAT_ORDERS, { attributes: { libraryVersion: "0.1.0" }, context: [{ a: 1 }], markers: "openui" });
  expect(openui).toBe(`]]>openui:content?libraryVersion=0.1.0\n${CHAT_ORDERS}\n]]>openui:context\n[{"a":1}]\n]]>openui:end`);
  // As react-ui writes an assistant turn with form state: header, program, `\n]]>openui:context\n` + JSON.
  const reactUi = `]]>openui:content\n${CHAT_ORDERS}\n]]>openui:context\n[{"orders":{"q":{"value":"x"}}}]`;
  for (const text of [openui, reactUi, wrapEnvelope(CHAT_ORDERS)]) {
    const split = splitGeneration(text);
    expect(split.program).toBe(`${CHAT_ORDERS}\n`);
    expect(rebuildGeneration(split, split.program)).toBe(text);
    expect(await isValidGeneration(text, chat)).toBe(true);
    expect(await isValidGeneration(text.replace("Header(", "Heder("), chat)).toBe(false);
  }
});
