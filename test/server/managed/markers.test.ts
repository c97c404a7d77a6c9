// OpenUI's `]]>openui:` markers and the service's `]]>service:` are the same markers on every
// surface: a config block of either family makes a request managed (Autofix, Embed, Responses), and
// an answer comes back in the envelope it came in, byte for byte.
import { expect, test } from "bun:test";
import { writeConfigBlock, OPENUI_CONFIG_MARKER } from "../../../src/client/config-block.ts";
import { compileLibrary, isValid, parse } from "../../../src/lang/index.ts";
import { builtInLibraries } from "../../../src/library/index.ts";
import { CHAT_ORDERS } from "../../support/openui-programs.ts";
import { embedSuite } from "../embed-harness.ts";
import { post } from "../harness.ts";

const S = embedSuite("markers", 100);

const chat = compileLibrary(builtInLibraries["0.1.0"]!.chatLibrary);
const BROKEN = CHAT_ORDERS.replace("Header(", "Heder(");
const families = ["]]>openui:", "]]>service:"];
const block = (m: string, instructions?: string) => writeConfigBlock({ libraryVersion: "0.1.0" }, instructions, `${m}config`);

test("Autofix: a block of either family is read; the envelope the answer came in comes back byte for byte", async () => {
  for (const config of families) {
    for (const m of families) {
      for (const nl of ["\n", "\r\n"]) {
        const wrap = (p: string) => `${m}content?libraryVersion=0.1.0${nl}${p.split("\n").join(nl)}${nl}${m}context${nl}[{"f":{}}]${nl}${m}end`;
        const res = await post(S.E.h.base, "/v1/autofix", S.key, {
          messages: [
            { role: "system", content: block(config) },
            { role: "assistant", content: wrap(BROKEN) },
          ],
        });
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body.fix_summary.status).toBe("fixed");
        expect(body.choices[0].message.content).toBe(wrap(CHAT_ORDERS));
      }
    }
  }
});

test("Autofix: a malformed ]]>openui:config block is a 400 naming both markers' rules", async () => {
  const res = await post(S.E.h.base, "/v1/autofix", S.key, {
    messages: [
      { role: "system", content: `${OPENUI_CONFIG_MARKER}\n{nope` },
      { role: "assistant", content: CHAT_ORDERS },
    ],
  });
  expect(res.status).toBe(400);
  expect((await res.json()).error.message).toContain("config block");
  const plain = await post(S.E.h.base, "/v1/autofix", S.key, {
    messages: [
      { role: "system", content: "]]>openui:configure\n{}" },
      { role: "assistant", content: CHAT_ORDERS },
    ],
  });
  expect(plain.status).toBe(400);
  expect((await plain.json()).error.message).toContain("]]>openui:config or ]]>service:config");
});

test("Embed: an ]]>openui:config block is replaced by the library's prompt, never sent as text; the answer is repaired", async () => {
  for (const m of families) {
    S.E.reset();
    S.E.openai.queue.push({ text: BROKEN });
    const out = await S.client.chat.completions.create({
      model: "openai/gpt-test",
      messages: [
        { role: "system", content: block(m, "Keep it short.") },
        { role: "user", content: "Show my orders" },
      ],
    });
    const sent = S.E.openai.calls[0]!.body.messages[0].content as string;
    expect(sent).not.toContain("config");
    expect(sent).not.toContain('"libraryVersion"');
    expect(sent).toContain("root = Card(...)");
    expect(sent.endsWith("Keep it short.")).toBe(true);
    const content = out.choices[0]!.message.content!;
    expect(isValid(parse(content, chat))).toBe(true);
    expect(content).toBe(CHAT_ORDERS);
  }
});

test("Embed: an answer enveloped in ]]>openui: markers keeps them, byte for byte, when repaired", async () => {
  const wrap = (p: string) => `]]>openui:content\n${p}\n]]>openui:end`;
  S.E.openai.queue.push({ text: wrap(BROKEN) });
  const out = await S.client.chat.completions.create({
    model: "openai/gpt-test",
    messages: [
      { role: "system", content: block("]]>openui:") },
      { role: "user", content: "Show my orders" },
    ],
  });
  expect(out.choices[0]!.message.content).toBe(wrap(CHAT_ORDERS));
});

test("Responses: ]]>openui:config instructions make the response managed; the stored answer is repaired", async () => {
  S.E.openai.queue.push({ text: BROKEN });
  const response = await S.client.responses.create({ model: "openai/gpt-test", instructions: block("]]>openui:"), input: "Show my orders" });
  expect(response.output_text).toBe(CHAT_ORDERS);
  const sent = JSON.stringify(S.E.openai.calls[0]!.body.messages);
  expect(sent).not.toContain("]]>openui:config");
  expect(sent).toContain("root = Card(...)");
  const again = await S.client.responses.retrieve(response.id);
  expect(again.output_text).toBe(CHAT_ORDERS);
});
