// withoutOldestTurns: what truncation "auto" leaves out of a conversation too long for the model.
import { expect, test } from "bun:test";
import { withoutOldestTurns } from "../../src/responses/truncate.ts";
import type { ChatMessage } from "../../src/providers/types.ts";

const user = (content: string): ChatMessage => ({ role: "user", content });
const assistant = (content: string): ChatMessage => ({ role: "assistant", content });
const call = (id: string): ChatMessage => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name: "f", arguments: "{}" } }],
});
const result = (id: string): ChatMessage => ({ role: "tool", tool_call_id: id, content: "42" });

test("the older half of the turns goes, the instructions and the last turn stay", () => {
  const system: ChatMessage = { role: "system", content: "Be brief." };
  const messages = [system, user("1"), assistant("a1"), user("2"), assistant("a2"), user("3"), assistant("a3"), user("4"), assistant("a4"), user("5")];
  const once = withoutOldestTurns(messages)!;
  expect(once.map((m) => m.content)).toEqual(["Be brief.", "3", "a3", "4", "a4", "5"]);
  const twice = withoutOldestTurns(once)!;
  expect(twice.map((m) => m.content)).toEqual(["Be brief.", "4", "a4", "5"]);
  expect(withoutOldestTurns(withoutOldestTurns(twice)!)).toBeNull();
});

test("a tool call and its result leave together, with their turn", () => {
  const messages = [user("1"), call("c1"), result("c1"), assistant("a1"), user("2"), call("c2"), result("c2")];
  const out = withoutOldestTurns(messages)!;
  expect(out).toEqual([user("2"), call("c2"), result("c2")]);
});

test("what came before the first question goes with the oldest turns; one turn alone is left as it is", () => {
  expect(withoutOldestTurns([{ role: "developer", content: "d" }, assistant("Hi!"), user("1")])).toEqual([{ role: "developer", content: "d" }, user("1")]);
  expect(withoutOldestTurns([user("only")])).toBeNull();
  expect(withoutOldestTurns([{ role: "system", content: "s" }])).toBeNull();
});
