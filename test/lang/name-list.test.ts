// NameList: a set of names whose state is kept by a snapshot, read later as a list.
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { NameList, readNames } from "../../src/lang/name-list.ts";

test("names keep the order they were added in; adding twice keeps the first place", () => {
  const names = new NameList();
  for (const name of ["b", "a", "c", "a"]) names.add(name);
  assert.deepEqual(readNames(names.snapshot()), ["b", "a", "c"]);
  assert.ok(names.has("a") && !names.has("z"));
  names.delete("a");
  names.delete("z"); // not there: nothing happens
  names.add("a");
  assert.deepEqual(readNames(names.snapshot()), ["b", "c", "a"]);
});

test("a snapshot reads as the set was when it was taken; an unchanged set gives the same snapshot", () => {
  const names = new NameList();
  names.add("x");
  names.add("y");
  const before = names.snapshot();
  assert.equal(names.snapshot(), before);
  names.delete("x");
  names.add("z");
  names.add("x");
  assert.deepEqual(readNames(before), ["x", "y"]);
  assert.deepEqual(readNames(names.snapshot()), ["y", "z", "x"]);
  const list = readNames(before);
  list.push("mine");
  assert.deepEqual(readNames(before), ["x", "y"]); // each read is a new array
});

test("snapshots survive the log being compacted after many deletions", () => {
  const names = new NameList();
  const taken: { snapshot: ReturnType<NameList["snapshot"]>; want: string[] }[] = [];
  const live: string[] = [];
  for (let i = 0; i < 200; i++) {
    names.add(`n${i}`);
    live.push(`n${i}`);
    if (i % 3 !== 0) {
      const gone = live.splice(i % live.length, 1)[0];
      names.delete(gone);
    }
    taken.push({ snapshot: names.snapshot(), want: [...live] });
  }
  for (const { snapshot, want } of taken) assert.deepEqual(readNames(snapshot), want);
});

test("reading leaves out the names `except` has", () => {
  const names = new NameList();
  for (const name of ["p", "q", "r"]) names.add(name);
  assert.deepEqual(readNames(names.snapshot(), new Set(["q", "nope"])), ["p", "r"]);
  assert.deepEqual(readNames(names.snapshot()), ["p", "q", "r"]);
});
