import assert from "node:assert/strict";
import fc from "fast-check";
import { test } from "../support/harness.ts";
import { frame } from "../../src/lang/index.ts";
import { reframe } from "../../src/lang/frame.ts";

// The generation as frame() describes it: head, each block followed by the gap after it, tail.
const rebuilt = (text: string) => {
  const f = frame(text);
  return f.head + f.blocks.map((b, i) => text.slice(b.start, b.end) + (f.between[i] ?? "")).join("") + f.tail;
};

test("frame: head, blocks, the text between them and tail are the generation, for any string", () => {
  const pieces = fc.constantFrom("```", "```ui\n", "\n", "]]>service:content\n", "]]>service:end", "root = X()\n", "prose ", "\r\n");
  fc.assert(
    fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 5 })), { maxLength: 12 }), (parts) => {
      const text = parts.join("");
      const f = frame(text);
      assert.equal(rebuilt(text), text);
      assert.equal(f.program, f.blocks.map((b) => text.slice(b.start, b.end)).join(""));
      assert.equal(f.between.length, f.blocks.length - 1);
      // One block (or none): head + program + tail is the generation.
      if (f.blocks.length === 1) assert.equal(f.head + f.program + f.tail, text);
    }),
    { numRuns: 500 },
  );
});

test("frame: bare, fenced (with prose), unclosed fence, envelope with context and end marker", () => {
  const one = (text: string) => {
    const { head, program, tail } = frame(text);
    return { head, program, tail };
  };
  assert.deepEqual(one("root = A()\n"), { head: "", program: "root = A()\n", tail: "" });
  assert.deepEqual(one("Here:\n```ui\nroot = A()\n```\nBye"), { head: "Here:\n```ui\n", program: "root = A()\n", tail: "```\nBye" });
  assert.deepEqual(one("```\nroot = A("), { head: "```\n", program: "root = A(", tail: "" });
  assert.deepEqual(one("]]>service:content?a=1\r\nroot = A()\r\n]]>service:context\r\n[]\r\n]]>service:end"), {
    head: "]]>service:content?a=1\r\n",
    program: "root = A()\r\n",
    tail: "]]>service:context\r\n[]\r\n]]>service:end",
  });
});

test("frame: several fenced blocks are one program; the prose and fences between them are kept", () => {
  const text = 'Layout:\n```ui\nroot = Stack([a, b])\n```\nThen the parts:\n```\na = Text("x")\n```\nand\n```ui\nb = Text("y")\n```\nDone.';
  const f = frame(text);
  assert.equal(f.head, "Layout:\n```ui\n");
  assert.equal(f.program, 'root = Stack([a, b])\na = Text("x")\nb = Text("y")\n');
  assert.deepEqual(f.between, ["```\nThen the parts:\n```\n", "```\nand\n```ui\n"]);
  assert.equal(f.tail, "```\nDone.");
  assert.deepEqual(
    f.blocks.map((b) => text.slice(b.start, b.end)),
    ["root = Stack([a, b])\n", 'a = Text("x")\n', 'b = Text("y")\n'],
  );
  // A whole new program goes into the first block; the later ones are left empty.
  assert.equal(reframe(f, "root = Stack([])\n"), "Layout:\n```ui\nroot = Stack([])\n```\nThen the parts:\n```\n```\nand\n```ui\n```\nDone.");
  assert.equal(reframe(frame("a\n```\nx\n```\nb"), "y\n"), "a\n```\ny\n```\nb");
});
