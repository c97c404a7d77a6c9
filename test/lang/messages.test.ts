// Every error code's message says what was expected and what was found: the fixing model and
// people read them.
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { compileLibrary, createStreamParser, loadLanguage, parse } from "../../src/lang/index.ts";
import { SMALL_LIBRARY } from "./library-fixture.ts";

await loadLanguage();
const lib = compileLibrary(SMALL_LIBRARY);
const messages = (program: string, code: string) =>
  parse(program, lib)
    .errors.filter((e) => e.code === code)
    .map((e) => e.message);
const one = (program: string, code: string) => {
  const found = messages(program, code);
  assert.equal(found.length, 1, `${code} in ${JSON.stringify(program)}: ${JSON.stringify(parse(program, lib).errors)}`);
  return found[0];
};

test("unknown-component: the library's components and the closest one; builtins likewise", () => {
  assert.equal(
    one('root = Stack([Txet("a")])', "unknown-component"),
    "Txet is not a component of the library: expected one of Stack, Card, Text, Button, Table, Col, got Txet (did you mean Text?)",
  );
  assert.doesNotMatch(one('root = Stack([Foo("a")])', "unknown-component"), /did you mean/);
  assert.match(
    one("root = Stack([@Cont(rows)])\nrows = [1]", "unknown-component"),
    /^@Cont is neither a builtin nor an action step: expected one of @Count, .*, got @Cont \(did you mean @Count\?\)$/,
  );
});

test("excess-args: how many arguments the component takes, and how many were dropped", () => {
  assert.equal(
    one('root = Stack([Button("a", "b", 1, "x", "y")])', "excess-args"),
    "Button takes at most 3 arguments (label, action, count), got 5: 2 excess arguments dropped",
  );
  assert.equal(one('root = Stack([Col("a", {}, 1)])', "excess-args"), "Col takes at most 2 arguments (label, meta), got 3: 1 excess argument dropped");
});

test("missing-required and null-required: the property, its type, and what the call gave", () => {
  assert.equal(
    one("root = Stack([Button()])", "missing-required"),
    "Button `label` (argument 1) is required and has no default: expected a string, got a call without arguments",
  );
  assert.equal(
    one("root = Stack([Table([])])", "missing-required"),
    "Table `rows` (argument 2) is required and has no default: expected an array of an array, got only 1 argument",
  );
  assert.equal(one("root = Stack([Button(null)])", "null-required"), "Button `label` (argument 1) is required and has no default: expected a string, got null");
});

test("type-mismatch: expected and got, for properties and for root", () => {
  assert.equal(one("root = Stack([Text(42)])", "type-mismatch"), "Text /text: expected a string, got the number 42");
  assert.equal(one('root = Card("x")', "type-mismatch"), "root: expected a Stack, got a Card");
});

test("inline-reserved, unresolved, orphaned, missing-root", () => {
  assert.equal(
    one('root = Stack([Query("q", {})])', "inline-reserved"),
    "Query(...) must be the whole right side of a statement (`name = Query(...)`), got it inside an expression",
  );
  assert.equal(
    one('root = Stack([titel])\ntitle = Text("a")', "unresolved"),
    "`titel` is referenced but never defined: expected a statement `titel = ...`, got none (did you mean `title`?)",
  );
  assert.match(one("root = Stack([a])\na = [a]", "unresolved"), /reference cycle: expected its references to end at a value, got a loop back to `a`$/);
  assert.equal(
    one('root = Stack([])\nx = Text("a")', "orphaned"),
    "`x` is defined but not reachable from root: expected a reference to it from root or from what root uses, got none",
  );
  assert.equal(one('x = Text("a")', "missing-root"), "the program has no `root` statement: expected `root = Stack(...)`, got only `x`");
  assert.equal(
    one("root = Stack([a b])", "missing-root"),
    "the program has no `root` statement: expected `root = Stack(...)`, got a `root` line that does not read as a statement",
  );
  assert.equal(one('root = "hello"', "missing-root"), '`root` does not produce a component element: expected a Stack, got the string "hello"');
});

test("syntax: what the line needed where it could not be read, and what stood there", () => {
  assert.equal(one("root = Stack([a b])", "syntax"), 'not a statement of the language: expected `,`, an operator or `]`, got `b`: "root = Stack([a b])"');
  assert.equal(
    one('root = Stack([t])\nt = text("Hello")', "syntax"),
    'not a statement of the language: expected a component call, whose name starts with an upper-case letter, got `text(` (did you mean Text?): "t = text(\\"Hello\\")"',
  );
  assert.match(
    one('root = Stack([Button(label: "Go")])', "syntax"),
    /expected positional arguments \(named arguments are not part of the language\), got `label:`/,
  );
  assert.match(one("root: Stack([])", "syntax"), /expected `name = value` \(a statement\), not `name: value`, got `:`/);
  assert.match(one('root = Stack([Text("a)])\nx = 1', "syntax"), /expected a closing " before the end of the line, got the end of the line/);
});

test("incomplete: what the cut statement still needs, in parse() and while streaming", () => {
  assert.match(
    one('root = Stack([Text("a"', "incomplete"),
    /^the input stops in the middle of a statement: expected `\)\]\)` to close what is open, got the end of the input: /,
  );
  assert.match(one("root = Stack([1 +", "incomplete"), /expected a value after `\+`, got the end of the input/);
  assert.match(one("root = Stack([])\nx =", "incomplete"), /expected a value after `=`, got the end of the input/);
  const streamed = createStreamParser(lib).push('root = Stack([Text("a"');
  assert.deepEqual(
    streamed.errors.map((e) => e.message),
    [one('root = Stack([Text("a"', "incomplete")],
  );
});
