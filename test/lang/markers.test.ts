// The two marker families, OpenUI's `]]>openui:` and the service's `]]>service:`, frame a generation
// alike in parse() and in the stream parser: only the program inside is read, and the wrapping it
// came with is kept byte for byte.
import { expect, test } from "bun:test";
import { compileLibrary, createStreamParser, frame, isValid, loadLanguage, parse } from "../../src/lang/index.ts";
import { builtInLibraries } from "../../src/library/index.ts";
import { CHAT_ORDERS } from "../support/openui-programs.ts";

await loadLanguage();
const chat = compileLibrary(builtInLibraries["0.1.0"]!.chatLibrary);

/** An assistant turn as react-ui writes it (header, program, context) and as the service does (end). */
const enveloped = (m: string, nl = "\n") =>
  `${m}content?libraryVersion=0.1.0${nl}${CHAT_ORDERS.split("\n").join(nl)}${nl}${m}context${nl}[{"orders":{}}]${nl}${m}end`;

const families = ["]]>openui:", "]]>service:"];

test("frame: either family's envelope gives the program inside; head + program + tail is the text", () => {
  for (const m of families) {
    for (const nl of ["\n", "\r\n"]) {
      const text = enveloped(m, nl);
      const f = frame(text);
      expect(f.head).toBe(`${m}content?libraryVersion=0.1.0${nl}`);
      expect(f.program).toBe(CHAT_ORDERS.split("\n").join(nl) + nl);
      expect(f.head + f.program + f.tail).toBe(text);
      expect(f.tail.startsWith(`${m}context`)).toBe(true);
    }
  }
});

test("frame: a marker line of the other family also ends the program; a look-alike does not start an envelope", () => {
  const mixed = `]]>openui:content\n${CHAT_ORDERS}\n]]>service:end`;
  expect(frame(mixed).program).toBe(`${CHAT_ORDERS}\n`);
  // Not an envelope of either family: the whole text is the (bare) program.
  for (const notHeader of [
    "]]>openui:config\nroot = Card([])",
    "]]>openui:\nroot = Card([])",
    " ]]>openui:content\nroot = Card([])",
    "]]>OpenUI:content\nroot = Card([])",
  ]) {
    expect(frame(notHeader).head).toBe("");
  }
});

test("parse and the stream parser read both families alike, in any chunking", () => {
  for (const m of families) {
    const text = enveloped(m);
    const whole = parse(text, chat);
    expect(whole.errors).toEqual([]);
    expect(isValid(whole)).toBe(true);
    for (const size of [1, 3, 7, 16]) {
      const stream = createStreamParser(chat);
      for (let at = 0; at < text.length; at += size) stream.push(text.slice(at, at + size));
      expect(JSON.stringify(stream.end())).toBe(JSON.stringify(whole));
    }
  }
  // Without the family being recognised, the header line would be a syntax error.
  expect(parse(`]]>openui:content\n${CHAT_ORDERS}`, chat).errors).toEqual([]);
});
