import assert from "node:assert/strict";
import fc from "fast-check";
import { test } from "../support/harness.ts";
import { frame } from "../../src/lang/index.ts";

test("frame: head + program + tail is the generation, for any string", () => {
  const pieces = fc.constantFrom("```", "```ui\n", "\n", "]]>service:content\n", "]]>service:end", "root = X()\n", "prose ", "\r\n");
  fc.assert(
    fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 5 })), { maxLength: 10 }), (parts) => {
      const text = parts.join("");
      const { head, program, tail } = frame(text);
      assert.equal(head + program + tail, text);
    }),
  );
});

test("frame: bare, fenced (with prose), unclosed fence, envelope with context and end marker", () => {
  assert.deepEqual(frame("root = A()\n"), { head: "", program: "root = A()\n", tail: "" });
  assert.deepEqual(frame("Here:\n```ui\nroot = A()\n```\nBye"), { head: "Here:\n```ui\n", program: "root = A()\n", tail: "```\nBye" });
  assert.deepEqual(frame("```\nroot = A("), { head: "```\n", program: "root = A(", tail: "" });
  assert.deepEqual(frame("]]>service:content?a=1\r\nroot = A()\r\n]]>service:context\r\n[]\r\n]]>service:end"), {
    head: "]]>service:content?a=1\r\n",
    program: "root = A()\r\n",
    tail: "]]>service:context\r\n[]\r\n]]>service:end",
  });
});
