// A request log keeps an accepted call's messages as they were sent (json-spans.ts): what it keeps
// must parse to exactly what serializing the parsed messages again gives, whatever the body's
// spacing, escapes, key order or other fields; a body it cannot read surely falls back to that.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { writeConfigBlock } from "../../src/client/config-block.ts";
import { messageSpans } from "../../src/server/json-spans.ts";
import { acceptedConversation } from "../../src/server/logged-conversation.ts";
import { STACK_TEXT_LIBRARY } from "../support/stack-text-library.ts";

const CONFIG = writeConfigBlock({ chatLibrary: STACK_TEXT_LIBRARY });

const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom('say "hi"\\n', "a\\\\", '\\"', "\u2028 \ud83d\ude00", 'x = Text("a \\" b")'));
const message = fc.record(
  {
    role: fc.constantFrom("system", "developer", "user", "assistant", "tool"),
    content: fc.oneof(text, fc.constant(CONFIG), fc.array(fc.record({ type: fc.constantFrom("text", "image"), text })), fc.constant(null)),
    name: text,
    extra: fc.jsonValue(),
  },
  { requiredKeys: ["role"] },
);
const body = fc.record({
  messages: fc.array(message, { maxLength: 5 }),
  before: fc.option(fc.jsonValue(), { nil: undefined }),
  after: fc.option(fc.jsonValue(), { nil: undefined }),
  indent: fc.constantFrom(undefined, 0, 1, 2, "\t", " \r\n"),
});

function written(b: { messages: unknown[]; before?: unknown; after?: unknown; indent?: string | number }): string {
  const o: Record<string, unknown> = {};
  if (b.before !== undefined) o.before = b.before;
  o.messages = b.messages;
  if (b.after !== undefined) o.after = b.after;
  // Any JSON whitespace between tokens: JSON.stringify's indent is a string of spaces, tabs or line ends.
  return JSON.stringify(o, null, b.indent as never);
}

test("the messages as sent parse to what serializing them again gives, for any body", () => {
  fc.assert(
    fc.property(body, (b) => {
      const sent = written(b);
      const messages = (JSON.parse(sent) as { messages: unknown[] }).messages;
      const spans = messageSpans(sent);
      expect(spans).not.toBeNull();
      expect(spans!.map(([from, to]) => JSON.parse(sent.slice(from, to)))).toEqual(messages);
      const kept = acceptedConversation(messages, sent);
      const again = acceptedConversation(messages);
      expect(JSON.parse(kept.conversation)).toEqual(JSON.parse(again.conversation));
      expect(kept.library).toEqual(again.library);
    }),
    { numRuns: 300 },
  );
});

test("the messages are taken from the body as sent (its spacing kept), not serialized again", () => {
  const sent = `{"model": "m",\n  "messages": [ {"role": "system", "content": ${JSON.stringify(CONFIG)}} ,\n {"role":"assistant",   "content": "root = Text(\\"a\\")"} ] }`;
  const messages = (JSON.parse(sent) as { messages: unknown[] }).messages;
  const { conversation, library } = acceptedConversation(messages, sent);
  expect(conversation).toContain('{"role":"assistant",   "content": "root = Text(\\"a\\")"}');
  expect(JSON.parse(conversation)).toEqual([{ role: "system", library_hash: library!.hash }, messages[1]]);
});

test("a body it cannot read surely is serialized as before: a key written with escapes, the last of two messages keys", () => {
  const escaped = '{"m\\u0065ssages": [{"role": "user", "content": "hi"}]}';
  expect(messageSpans(escaped)).toBeNull();
  const messages = (JSON.parse(escaped) as { messages: unknown[] }).messages;
  expect(acceptedConversation(messages, escaped).conversation).toBe(JSON.stringify(messages));
  // Two `messages` keys: JSON.parse keeps the last, and so does the reader.
  const twice = '{"messages": [{"role": "user", "content": "first"}], "messages": [{"role": "user", "content": "second"}]}';
  const last = (JSON.parse(twice) as { messages: unknown[] }).messages;
  expect(JSON.parse(acceptedConversation(last, twice).conversation)).toEqual(last);
  // Not an object, or no messages: nothing to take.
  expect(messageSpans("[1, 2]")).toBeNull();
  expect(messageSpans('{"model": "x"}')).toBeNull();
});
