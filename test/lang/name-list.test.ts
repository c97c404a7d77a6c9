// NameList: a set of names whose ordered list is replaced on change, never changed in place.
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { NameList } from "../../src/lang/name-list.ts";

test("names keep the order they were added in; adding twice keeps the first place", () => {
  const names = new NameList();
  for (const name of ["b", "a", "c", "a"]) names.add(name);
  assert.deepEqual(names.list, ["b", "a", "c"]);
  assert.ok(names.has("a") && !names.has("z"));
  names.delete("a");
  names.delete("z"); // not there: nothing happens
  names.add("a");
  assert.deepEqual(names.list, ["b", "c", "a"]);
});

test("a list handed out stays as it was while the set changes; an unchanged set hands out the same list", () => {
  const names = new NameList();
  names.add("x");
  names.add("y");
  const before = names.list;
  assert.equal(names.list, before);
  names.delete("x");
  names.add("z");
  assert.deepEqual(before, ["x", "y"]);
  assert.deepEqual(names.list, ["y", "z"]);
});

test("except leaves out the given names, and returns the list itself when none is there", () => {
  const names = new NameList();
  for (const name of ["p", "q", "r"]) names.add(name);
  assert.deepEqual(names.except(["q", "nope"]), ["p", "r"]);
  assert.equal(names.except(["nope"]), names.list);
  assert.deepEqual(names.list, ["p", "q", "r"]);
});
