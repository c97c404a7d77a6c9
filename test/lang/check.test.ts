// Every error code of the checker (docs/language.md), with its path, statementId and component.
import assert from "node:assert/strict";
import { test } from "../support/harness.ts";
import { compileLibrary, isValid, loadLanguage, parse, type FixError } from "../../src/lang/index.ts";
import { SMALL_LIBRARY } from "./library-fixture.ts";

await loadLanguage();
const lib = compileLibrary(SMALL_LIBRARY);
const errorsOf = (program: string) => parse(program, lib).errors;
const only = (program: string): FixError => {
  const errors = errorsOf(program);
  assert.equal(errors.length, 1, `expected one error, got ${JSON.stringify(errors)}`);
  return errors[0];
};
const shape = ({ message, ...rest }: FixError) => (assert.ok(message.length > 0), rest);

test("a valid program has no errors and a display tree with defaults filled", () => {
  const result = parse('root = Stack([card], "column")\ncard = Card("Hi", [Text("a"), Button("Go", "go", 2)])\n', lib);
  assert.deepEqual(result.errors, []);
  assert.ok(isValid(result));
  assert.equal(result.statements, 2);
  assert.deepEqual(result.root, {
    type: "element",
    component: "Stack",
    statementId: "root",
    partial: false,
    props: {
      children: [
        {
          type: "element",
          component: "Card",
          statementId: "card",
          partial: false,
          props: {
            title: "Hi",
            children: [
              { type: "element", component: "Text", partial: false, props: { text: "a", size: "m" } },
              { type: "element", component: "Button", partial: false, props: { label: "Go", action: "go", count: 2 } },
            ],
          },
        },
      ],
      direction: "column",
    },
  });
});

test("unknown-component: a call that names no component or builtin", () => {
  assert.deepEqual(shape(only('root = Stack([Foo("x")])')), { code: "unknown-component", component: "Foo", statementId: "root" });
  assert.deepEqual(shape(only("root = Stack([@Nope(1)])")), { code: "unknown-component", component: "@Nope", statementId: "root" });
});

test("missing-required: left out with no default; the element is dropped", () => {
  const result = parse("root = Stack([b])\nb = Button()", lib);
  assert.deepEqual(result.errors.map(shape), [{ code: "missing-required", component: "Button", path: "/label", statementId: "b" }]);
  assert.deepEqual(result.root!.props.children, []); // left out of the array (test/lang/materialize.test.ts)
  // A default fills a required property that is left out or null.
  assert.deepEqual(errorsOf('root = Stack([Text("x"), Text("y", null)])'), []);
});

test("null-required: a required property given as null", () => {
  assert.deepEqual(shape(only("root = Stack([Button(null)])")), { code: "null-required", component: "Button", path: "/label", statementId: "root" });
  // An optional property may be null.
  assert.deepEqual(errorsOf('root = Stack([Button("a", null)])'), []);
});

test("type-mismatch: type, enum, $ref, anyOf, integer, nested object and array paths", () => {
  const cases: [string, Partial<FixError>][] = [
    ["root = Stack([Button(42)])", { component: "Button", path: "/label" }],
    ['root = Stack([], "diagonal")', { component: "Stack", path: "/direction" }],
    ['root = Stack([], "Row")', { component: "Stack", path: "/direction" }],
    ['root = Stack([t])\nt = Table([Text("x")], [])', { component: "Table", path: "/columns/0", statementId: "t" }],
    ['root = Stack([c])\nc = Card("t", [Text("a"), Stack([])])', { component: "Card", path: "/children/1", statementId: "c" }],
    ['root = Stack([Button("a", "b", 1.5)])', { component: "Button", path: "/count" }],
    ['root = Stack([Table([Col("a", {width: "wide"})], [])])', { component: "Col", path: "/meta/width" }],
    ['root = Stack([t])\nt = Table(cols, [])\ncols = [Col("a"), "b"]', { component: "Table", path: "/columns/1", statementId: "t" }],
  ];
  for (const [program, want] of cases) {
    const error = only(program);
    assert.equal(error.code, "type-mismatch", program);
    for (const [key, value] of Object.entries(want)) assert.equal(error[key as keyof FixError], value, `${key} of ${program}`);
  }
});

test("type-mismatch: root must be an element of the library's root component", () => {
  assert.deepEqual(shape(only('root = Card("x")')), { code: "type-mismatch", component: "Card", statementId: "root" });
});

test("values computed at run time are not type-checked", () => {
  assert.deepEqual(errorsOf('$n = 1\nroot = Stack([Button($n), Button("a" + "b"), Button($n > 1 ? "x" : 2), Button(@First(names))])\nnames = ["a"]'), []);
});

test("an @Each loop variable is a value at run time, even where a statement has its name", () => {
  // `row` inside the template is the loop variable, not the statement `row` (a number).
  const program = 'root = Stack([@Each(rows, "row", Text(row)), Card("T", [@Each(rows, "row", [Text(row, row)])])])\nrows = ["a"]\nrow = 5\n';
  assert.deepEqual(errorsOf(program).map(shape), [{ code: "orphaned", statementId: "row" }]);
  // Outside the template, and in the list it loops over, the name is the statement's.
  const outside = 'root = Stack([@Each(row, "row", Text(row)), Text(row)])\nrow = 5\n';
  assert.deepEqual(errorsOf(outside).map(shape), [{ code: "type-mismatch", component: "Text", statementId: "root", path: "/text" }]);
});

test("excess-args: more positional arguments than properties", () => {
  assert.deepEqual(shape(only('root = Stack([Button("a", "b", 1, "extra")])')), { code: "excess-args", component: "Button", statementId: "root" });
});

test("inline-reserved: Query or Mutation inside an expression", () => {
  assert.deepEqual(shape(only('root = Stack([Query("orders", {})])')), { code: "inline-reserved", component: "Query", statementId: "root" });
  // As the whole right side it is a statement, never orphaned.
  assert.deepEqual(errorsOf('root = Stack([Text(q.title)])\nq = Query("orders", {}, {title: ""})\nm = Mutation("save", {})'), []);
});

test("incomplete: the input stops mid-statement", () => {
  for (const program of ["root = Stack([a,", 'root = Stack([Text("cut', "root = Stack([])\nx =", "root = Stack([1 +"]) {
    const result = parse(program, lib);
    assert.equal(result.incomplete, true, program);
    assert.ok(
      result.errors.some((e) => e.code === "incomplete"),
      program,
    );
  }
  // A statement cut over several lines is one incomplete statement, not three broken lines.
  const cut = parse("root = Stack([\n  a,\n  b", lib);
  assert.deepEqual(cut.errors.map(shape), [{ code: "incomplete", statementId: "root" }, { code: "missing-root" }]);
});

test("unresolved: referenced but never defined, or only through a cycle", () => {
  const result = parse("root = Stack([ghost])", lib);
  assert.deepEqual(result.errors.map(shape), [{ code: "unresolved", statementId: "root" }]);
  assert.deepEqual(result.unresolved, ["ghost"]);
  const cycle = parse("root = Stack([a])\na = [b]\nb = [a]", lib);
  assert.deepEqual(cycle.unresolved.sort(), ["a", "b"]);
  assert.ok(cycle.errors.every((e) => e.code === "unresolved"));
  // A statement that refers to itself; references that point both ways without a cycle.
  assert.deepEqual(parse("root = Stack([a])\na = [a]", lib).unresolved, ["a"]);
  const mixed = parse("a = [b]\nroot = Stack([a, c])\nb = [1]\nc = [b]", lib);
  assert.deepEqual([mixed.unresolved, mixed.errors], [[], []]);
  // A loop variable is in scope inside its template; undeclared $state is null, not an error.
  assert.deepEqual(
    errorsOf('root = Stack(@Each(items, "it", Text(it.name)))\nitems = [{name: "a"}]\nx = Stack([Text($undeclared)])\n').map((e) => e.code),
    ["orphaned"],
  );
});

test("orphaned: not reachable from root; state, queries and mutations never are", () => {
  const result = parse('root = Stack([])\nx = Text("a")\n$s = 1\nq = Query("t", {})', lib);
  assert.deepEqual(result.errors.map(shape), [{ code: "orphaned", statementId: "x" }]);
  assert.deepEqual(result.orphaned, ["x"]);
});

test("missing-root: no root statement (and no orphan analysis), or root is not an element", () => {
  assert.deepEqual(shape(only('a = Text("x")')), { code: "missing-root" });
  assert.deepEqual(parse('a = Text("x")', lib).orphaned, []);
  assert.deepEqual(shape(only('root = "text"')), { code: "missing-root", statementId: "root" });
});

test("syntax: named arguments, stray prose, a missing comma; parsing recovers at the next statement", () => {
  const result = parse('Here is your UI:\nroot = Stack([a, b])\na = Button(label: "Go")\nb = [Text("x") Text("y")]\n', lib);
  assert.deepEqual(result.errors.map(shape), [{ code: "syntax" }, { code: "syntax", statementId: "a" }, { code: "syntax", statementId: "b" }]);
  assert.equal(result.statements, 1);
  // A bracket left open on a broken line runs on while the lines after it start no statement,
  // and stops before one that does, indented or not.
  const runsOn = parse('root = Stack([a])\na = Button(label: [1\n  "x"\n])\n', lib);
  assert.deepEqual(runsOn.errors.map(shape), [{ code: "syntax", statementId: "a" }]);
  for (const indent of ["", "  ", "\t"]) {
    const stops = parse(`root = Stack([a, b])\na = Button(label: [1\n${indent}b = Text("x")\n]\n`, lib);
    assert.deepEqual(stops.errors.map(shape), [{ code: "syntax", statementId: "a" }, { code: "syntax" }], JSON.stringify(indent));
    assert.equal(stops.statements, 2);
  }
});

test("a later statement with the same name replaces the earlier one", () => {
  assert.deepEqual(errorsOf('root = Stack([a])\na = Button(1)\na = Button("ok")'), []);
});

test("errors come in source order, and the same input gives the same list", () => {
  const program = 'root = Stack([x, Foo(), ghost])\nx = Button(1, "a", 2.5, "extra")\nprose here\ny = Text("z")';
  const first = errorsOf(program);
  assert.deepEqual(
    first.map((e) => e.code),
    ["unknown-component", "unresolved", "type-mismatch", "type-mismatch", "excess-args", "syntax", "orphaned"],
  );
  assert.deepEqual(errorsOf(program), first);
});

test("fenced and enveloped generations: only the program inside is checked", () => {
  const fenced = 'Here it is:\n```ui\nroot = Stack([Text("a")])\n```\nEnjoy!';
  assert.deepEqual(errorsOf(fenced), []);
  const envelope = ']]>service:content?libraryVersion=0.1.0\r\nroot = Stack([Text("a")])\r\n]]>service:context\r\n[{"f":{}}]\r\n]]>service:end';
  assert.deepEqual(errorsOf(envelope), []);
});

test("type-mismatch: anyOf and oneOf of plain types, reported with the types they name", () => {
  const rows = compileLibrary({
    schema: {
      $defs: {
        Row: {
          properties: {
            cells: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
            flag: { oneOf: [{ type: "boolean" }, { type: "integer" }], enum: [true, 1] },
          },
        },
      },
    },
  });
  assert.deepEqual(parse('root = Row(["a", 1, 2.5], true)', rows).errors, []);
  assert.deepEqual(parse('root = Row(["a", false, null])', rows).errors, [
    { code: "type-mismatch", message: "Row /cells/1: expected one of a string, a number, got false", component: "Row", path: "/cells/1", statementId: "root" },
    { code: "type-mismatch", message: "Row /cells/2: expected one of a string, a number, got null", component: "Row", path: "/cells/2", statementId: "root" },
  ]);
  // The branches and the enum beside them both apply.
  assert.deepEqual(parse("root = Row([], 1)", rows).errors, []);
  assert.deepEqual(
    ["root = Row([], false)", "root = Row([], 1.5)", 'root = Row([], "1")'].map((program) => parse(program, rows).errors.map((e) => e.path)),
    [["/flag"], ["/flag"], ["/flag"]],
  );
});
