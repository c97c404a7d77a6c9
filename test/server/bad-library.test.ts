// A malformed library schema in the config block is the caller's mistake: 400 naming the schema
// path, from Autofix and from Embed in managed mode (these were 500s: "Type error").
import { expect, test } from "bun:test";
import { writeConfigBlock } from "../../src/client/config-block.ts";
import { embedSuite } from "./embed-harness.ts";
import { post, SMALL_LIBRARY } from "./harness.ts";

const S = embedSuite("libs", 100);

const BAD: [unknown, string][] = [
  [{ enum: 5 }, "`$defs.Text.properties.size.enum` must be an array"],
  [{ anyOf: "xyz" }, "`$defs.Text.properties.size.anyOf` must be a non-empty array of schemas"],
  [{ anyOf: [null] }, "`$defs.Text.properties.size.anyOf[0]` must be a JSON Schema object"],
  [{ items: "x" }, "`$defs.Text.properties.size.items` must be a JSON Schema object"],
  [{ $ref: 5 }, "`$defs/Text/properties/size` has $ref 5"],
  [null, "`$defs.Text.properties.size` must be a JSON Schema object, got null"],
];

const block = (size: unknown) =>
  writeConfigBlock({
    chatLibrary: { ...SMALL_LIBRARY, schema: { $defs: { ...SMALL_LIBRARY.schema.$defs, Text: { properties: { text: { type: "string" }, size } } } } },
  });

for (const [size, says] of BAD) {
  test(`size: ${JSON.stringify(size)} is a 400 from Autofix and Embed managed mode`, async () => {
    const fix = await post(S.E.h.base, "/v1/autofix", S.key, {
      messages: [
        { role: "system", content: block(size) },
        { role: "assistant", content: "root = Stack([])" },
      ],
    });
    const embed = await post(S.E.h.base, "/v1/embed/chat/completions", S.key, {
      model: "openai/gpt-test",
      messages: [
        { role: "system", content: block(size) },
        { role: "user", content: "hi" },
      ],
    });
    for (const res of [fix, embed]) {
      expect(res.status).toBe(400);
      const { error } = await res.json();
      expect(error.type).toBe("invalid_request_error");
      expect(error.param).toBe("messages[0].content");
      expect(error.message).toStartWith("malformed config block: the library is invalid: ");
      expect(error.message).toContain(says);
    }
    expect(S.E.openai.calls).toHaveLength(0);
  });
}
