// Each repair kind on its own: the exact output text and the codes it reports as fixed.
import { beforeAll, describe, expect, test } from "bun:test";
import type { Library } from "../../src/lang/index.ts";
import { repair, sanitize } from "../../src/repair/index.ts";
import { codes, HAVE_SHARED, library } from "./support.ts";

let lib: Library;
beforeAll(async () => {
  if (HAVE_SHARED) lib = await library();
});

const lines = (...l: string[]) => l.join("\n");
const T = 'title = TextContent("Hi", "large-heavy")';

function fixed(input: string, output: string, fixedCodes: string[]) {
  const out = repair(input, lib);
  expect(out.content).toBe(output);
  expect(out.status).toBe("fixed");
  expect(codes(out.fixed_errors)).toEqual(fixedCodes);
  expect(out.unfixed_errors).toEqual([]);
}

describe.skipIf(!HAVE_SHARED)("sanitizer repairs", () => {
  test("unknown component: the closest library name", () => {
    fixed(lines('root = Stak([title], "column")', 'title = TextContnet("Hi", "large-heavy")'), lines('root = Stack([title], "column")', T), [
      "unknown-component",
      "unknown-component",
    ]);
  });
  test("unknown builtin: the closest builtin", () => {
    fixed(
      lines('root = Stack([title], "column")', 'title = TextContent(@Cont([1, 2]) + " items")'),
      lines('root = Stack([title], "column")', 'title = TextContent(@Count([1, 2]) + " items")'),
      ["unknown-component"],
    );
  });
  test("no close component: left, and the fix fails with it", () => {
    const out = repair(lines("root = Stack([title, Gizmo()])", T), lib);
    expect(out.status).toBe("fix_failed");
    expect(out.content).toBeNull();
    expect(codes(out.unfixed_errors)).toEqual(["unknown-component"]);
  });
  test("enum off by case and a near miss", () => {
    fixed(lines('root = Stack([title], "Column", "lg")', T), lines('root = Stack([title], "column", "l")', T), ["type-mismatch", "type-mismatch"]);
    fixed(lines('root = Stack([title], "collumn")', T), lines('root = Stack([title], "column")', T), ["type-mismatch"]);
  });
  test("a string holding a number or boolean, and a number where a string is wanted", () => {
    fixed(
      lines(
        "root = Stack([f])",
        'f = Form("f", [FormControl("Vol", Slider("vol", "discrete", "0", " 10 ", 1)), FormControl("Size", Select("size", [SelectItem(7, "US 7")]))])',
        "g = 1",
      ),
      lines(
        "root = Stack([f])",
        'f = Form("f", [FormControl("Vol", Slider("vol", "discrete", 0, 10, 1)), FormControl("Size", Select("size", [SelectItem("7", "US 7")]))])',
      ),
      ["type-mismatch", "type-mismatch", "type-mismatch", "orphaned"],
    );
    fixed(lines('root = Stack([title], "row", "m", "start", "start", "TRUE")', T), lines('root = Stack([title], "row", "m", "start", "start", true)', T), [
      "type-mismatch",
    ]);
  });
  test("named arguments become positional by property order", () => {
    fixed(
      lines(
        "root = Stack([btn, card])",
        'btn = Button(label: "Go", variant: "primary", action: "submit:f")',
        'card = Card(children: [CardHeader(title: "T")], variant: "sunk")',
      ),
      lines("root = Stack([btn, card])", 'btn = Button("Go", "submit:f", "primary")', 'card = Card([CardHeader("T")], "sunk")'),
      ["syntax", "syntax"],
    );
  });
  test("excess arguments are dropped", () => {
    fixed(lines('root = Stack([title], "column")', 'title = TextContent("Hi", "large-heavy", "extra", 4)'), lines('root = Stack([title], "column")', T), [
      "excess-args",
    ]);
  });
  test("a missing required list is filled with an empty one; a missing string is left", () => {
    fixed(lines("root = Stack([t])", 't = Table([Col("Name")])'), lines("root = Stack([t])", 't = Table([Col("Name")], [])'), ["missing-required"]);
    const out = repair(lines("root = Stack([b])", 'b = Button("Go")'), lib);
    expect(out.status).toBe("fix_failed");
    expect(out.unfixed_errors.map((e) => [e.code, e.path])).toEqual([["missing-required", "/action"]]);
  });
  test("an inline Query is hoisted into its own statement", () => {
    fixed(
      lines("root = Stack([t])", 't = Table([Col("Id")], Query("list_orders", {}, {rows: []}).rows)'),
      lines("root = Stack([t])", 't = Table([Col("Id")], listOrders.rows)', 'listOrders = Query("list_orders", {}, {rows: []})'),
      ["inline-reserved"],
    );
  });
  test("a cut-off end is closed", () => {
    fixed(
      lines("root = Stack([title, note])", T, 'note = TextCallout("info", "Tip", "Save of'),
      lines("root = Stack([title, note])", T, 'note = TextCallout("info", "Tip", "Save of")'),
      ["incomplete"],
    );
  });
  test("a cut-off end that closing cannot save is cut back, or dropped", () => {
    // Closed as it stands, the last Button would lack its action: the partial item goes instead.
    // A lone statement with no safe cut is dropped, and the reference to it next.
    fixed(
      lines("root = Stack([title, b])", T, 'b = Buttons([Button("Go", "a:go"), Button("Ba'),
      lines("root = Stack([title, b])", T, 'b = Buttons([Button("Go", "a:go")])'),
      ["incomplete"],
    );
    fixed(lines("root = Stack([title, b])", T, 'b = Button("Ba'), lines("root = Stack([title])", T), ["incomplete", "unresolved"]);
  });
  test("a missing closing bracket in the middle is added", () => {
    // While root is a broken line the checker also finds no root: both are fixed.
    fixed(lines("root = Stack([title]", T), lines("root = Stack([title])", T), ["syntax", "missing-root"]);
  });
  test("references to nothing: removed from arrays and optional arguments, renamed when misspelt", () => {
    fixed(lines("root = Stack([ghost, title, phantom])", T), lines("root = Stack([title])", T), ["unresolved", "unresolved"]);
    fixed(lines("root = Stack([titel])", T), lines("root = Stack([title])", T), ["unresolved", "orphaned"]);
    fixed(lines("root = Stack([title], dir)", T), lines("root = Stack([title])", T), ["unresolved"]);
  });
  test("a reference to nothing in a required argument: plain data is added, empty; a component is not made up", () => {
    const data = repair(lines("root = Stack([t])", "t = Table(cols, rows)", 'rows = [["a"]]'), lib);
    expect(data.status).toBe("fixed");
    expect(data.content).toBe(lines("root = Stack([t])", "t = Table(cols, rows)", "cols = []", 'rows = [["a"]]'));
    const out = repair(lines("root = Stack([f])", 'f = FormControl("Volume", field)'), lib);
    expect(out.status).toBe("fix_failed");
    expect(out.unfixed_errors.map((e) => [e.code, e.statementId])).toEqual([["unresolved", "f"]]);
  });
  test("prose lines are removed; an orphan that fits the list it was written beside is attached there, one that fits none is removed", () => {
    fixed(
      lines("Here is your page:", "root = Stack([title])", T, 'spare = TextContent("unused")', "Hope it helps!"),
      lines("root = Stack([title, spare])", T, 'spare = TextContent("unused")'),
      ["syntax", "orphaned", "syntax"],
    );
    fixed(lines("root = Stack([title])", T, 'spare = "unused"'), lines("root = Stack([title])", T), ["orphaned"]);
    // Beside the kpi cards, of their kind: into their row, after the card written before it.
    fixed(
      lines(
        "root = Stack([row, note])",
        'row = Stack([a, b], "row")',
        'a = Card([TextContent("A")])',
        'b = Card([TextContent("B")])',
        'c = Card([TextContent("C")])',
        'note = TextContent("n")',
      ),
      lines(
        "root = Stack([row, note])",
        'row = Stack([a, b, c], "row")',
        'a = Card([TextContent("A")])',
        'b = Card([TextContent("B")])',
        'c = Card([TextContent("C")])',
        'note = TextContent("n")',
      ),
      ["orphaned"],
    );
  });
  test("missing root: the top statement renamed when it is a Stack", () => {
    fixed(lines('page = Stack([title], "column")', T), lines('root = Stack([title], "column")', T), ["missing-root"]);
  });
  test("missing root: built with the library's root component over the top statements", () => {
    fixed(
      lines('card = Card([title], "card")', T, 'note = TextContent("n")'),
      lines("root = Stack([card, note])", 'card = Card([title], "card")', T, 'note = TextContent("n")'),
      ["missing-root"],
    );
  });
  test("root written as a list is held in the root component", () => {
    fixed(lines("root = [title, note]", T, 'note = TextContent("n")'), lines("root = Stack([title, note])", T, 'note = TextContent("n")'), ["missing-root"]);
  });
  test("root of another component is wrapped in the root component", () => {
    fixed(lines('root = Card([title], "card")', T), lines('root = Stack([Card([title], "card")])', T), ["type-mismatch"]);
  });
  test("only prose: no component is kept, so it is not a fix", () => {
    const out = repair("Sorry, I cannot build that.\n", lib);
    expect(out).toEqual({
      status: "fix_failed",
      content: null,
      fixed_errors: [],
      unfixed_errors: [{ code: "missing-root", message: "the program has no `root` statement: expected `root = Stack(...)`, got no statement" }],
    });
  });
  test("sanitize reports the original errors and what remains", () => {
    const s = sanitize(lines("root = Stack([title, ghost])", T), lib);
    expect(s.content).toBe(lines("root = Stack([title])", T));
    expect(codes(s.original)).toEqual(["unresolved"]);
    expect(s.remaining).toEqual([]);
  });
});
