// parse() and inspect() over the framing: several fenced blocks are one program.
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { compileLibrary, inspect, isValid, loadLanguage, parse } from "../../src/lang/index.ts";
import { checkedParse } from "../../src/lang/parse.ts";
import { SMALL_LIBRARY } from "./library-fixture.ts";

await loadLanguage();
const lib = compileLibrary(SMALL_LIBRARY);
const codes = (text: string) => parse(text, lib).errors.map((e) => `${e.code}:${e.statementId ?? ""}`);

const SPLIT =
  'Layout:\n```ui\nroot = Stack([card])\n```\nThe card:\n```\ncard = Card("T", [Text("a"), more])\n```\nand\n```ui\nmore = Button("Go")\n```\nDone.';

test("several fenced blocks are one program: references across blocks resolve, nothing is orphaned", () => {
  const result = parse(SPLIT, lib);
  assert.deepEqual(result.errors, []);
  assert.ok(isValid(result));
  assert.equal(result.statements, 3);
  const card = (result.root!.props.children as { component: string; props: { children: { component: string }[] } }[])[0];
  assert.deepEqual(
    card.props.children.map((c) => c.component),
    ["Text", "Button"],
  );
  // Prose between the blocks is not read: a line there that looks like a statement is not one.
  assert.deepEqual(codes(SPLIT.replace("The card:", "x = Nope()")), []);
  // Only the first block was read before: `card` was unresolved.
  assert.equal(JSON.stringify(parse(SPLIT, lib)), JSON.stringify(checkedParse(SPLIT, lib)));
});

test("each block ends its statements: one cut by a fence is incomplete, the next block reads on", () => {
  const cut = 'A\n```\nroot = Stack([a,\n```\nB\n```\na = Text("x")\n```\n';
  assert.deepEqual(codes(cut), ["incomplete:root", "missing-root:"]);
  const errors = codes('```\nroot = Stack([a])\n```\n```\na = Text("x")\nb = Text("y")\n```');
  assert.deepEqual(errors, ["orphaned:b"]);
});

test("inspect: statements and errors carry offsets into the whole generation, block by block", () => {
  const ins = inspect(SPLIT.replace('Button("Go")', "Button(1)"), lib);
  assert.deepEqual(
    ins.statements.map((s) => s.id),
    ["root", "card", "more"],
  );
  assert.equal(ins.blocks.length, 3);
  for (const s of ins.statements) assert.ok(ins.blocks.some((b) => b.start <= s.start && s.end <= b.end));
  const text = SPLIT.replace('Button("Go")', "Button(1)");
  const mismatch = ins.errors.find((e) => e.code === "type-mismatch")!;
  assert.equal(text.slice(mismatch.at, mismatch.at + 1), "1");
});
