// The repairs that edit rather than delete, each family on its own against the real library
// (copied into test/repair/corpus): the exact text that comes back.
import { beforeAll, describe, expect, test } from "bun:test";
import { compileLibrary, type Library } from "../../src/lang/index.ts";
import { getBuiltinLibrary } from "../../src/library/index.ts";
import { repair } from "../../src/repair/index.ts";
import { listedByMeaning } from "../../src/repair/meaning.ts";
import { corpusLibrary } from "./corpus/corpus.ts";

let lib: Library;
beforeAll(async () => {
  lib = await corpusLibrary();
});

const lines = (...l: string[]) => l.join("\n");
const TAIL = ['a = TextContent("Revenue", "small-heavy")', 'b = TextContent("$12", "large-heavy")'];
/** `root` over a and b, its line given, and the program it should come back as. */
function restores(brokenRoot: string, root: string) {
  const out = repair(lines(brokenRoot, ...TAIL), lib);
  expect(out.content).toBe(lines(root, ...TAIL));
  expect(out.status).toBe("fixed");
}
function becomes(broken: string, fixed: string) {
  const out = repair(broken, lib);
  expect(out.content).toBe(fixed);
  expect(out.status).toBe("fixed");
}

describe("repairs that keep what the model wrote", () => {
  const ROOT = 'root = Stack([a, b], "column", "m")';
  test("props written as an object, named arguments with = or :, mapped by property name", () => {
    restores('root = Stack({children: [a, b], direction: "column", gap: "m"})', ROOT);
    restores('root = Stack({gap: "m", children: [a, b], direction: "column"})', ROOT);
    restores('root = Stack(children=[a, b], direction="column", gap="m")', ROOT);
    restores('root = Stack(children: [a, b], direction: "column", gap: "m")', ROOT);
    // Positional arguments first, then named ones (a comma inside a string is no argument's end).
    restores('root = Stack([a, b], direction="column", gap="m")', ROOT);
    restores('root = Stack([a, b], "column", gap: "m")', ROOT);
    // Named children after the positional values they were meant to follow: those go by value.
    restores('root = Stack("column", "m", children: [a, b])', ROOT);
    becomes(
      lines("root = Stack([btns])", 'btns = Buttons("row", children: [Button("Go", "action:go")])'),
      lines("root = Stack([btns])", 'btns = Buttons([Button("Go", "action:go")], "row")'),
    );
    // What React and HTML give every element says nothing a component takes.
    restores('root = Stack([a, b], "column", "m", className: "mt-4", style: {padding: 16})', ROOT);
    becomes(
      lines("root = Stack([f])", 'f = Form("f", [FormControl("Name", Input("name", "Your name"), className: "mt-4")])'),
      lines("root = Stack([f])", 'f = Form("f", [FormControl("Name", Input("name", "Your name"))])'),
    );
    becomes(
      lines("root = Stack([n])", 'n = TextContent("Note, time: 5pm", variant: "small")'),
      lines("root = Stack([n])", 'n = TextContent("Note, time: 5pm", "small")'),
    );
    // A reference given by position after named ones: the place after the argument before it.
    const form = (call: string) =>
      lines("root = Stack([f])", `f = ${call}`, 'c = FormControl("Name", Input("name"))', 'b = Buttons([Button("Send", "submit:f")])');
    becomes(form('Form(name: "f", fields: [c], b)'), form('Form("f", [c], b)'));
  });
  test("data a required argument refers to and the model never wrote: the statement is added with the least value it takes", () => {
    becomes(
      lines(
        "root = Stack([chart, table])",
        'chart = BarChart(labels, [Series("Revenue", [1, 2])], "grouped")',
        "table = Table(cols, rows)",
        'cols = [Col("Name", "string")]',
      ),
      lines(
        "root = Stack([chart, table])",
        'chart = BarChart(labels, [Series("Revenue", [1, 2])], "grouped")',
        "labels = []",
        "table = Table(cols, rows)",
        "rows = []",
        'cols = [Col("Name", "string")]',
      ),
    );
    // A name that misspells a statement nobody uses is that statement, not a new one.
    becomes(
      lines("root = Stack([chart])", 'chart = BarChart(label, [Series("Revenue", [1, 2])])', 'labels = ["Jan", "Feb"]'),
      lines("root = Stack([chart])", 'chart = BarChart(labels, [Series("Revenue", [1, 2])])', 'labels = ["Jan", "Feb"]'),
    );
  });
  test("a list's values written one by one are wrapped; an object where a component goes becomes its call", () => {
    becomes(
      lines("root = Stack([c])", 'c = BarChart(["Jan", "Feb"], [Series("Revenue", 1, 2)])'),
      lines("root = Stack([c])", 'c = BarChart(["Jan", "Feb"], [Series("Revenue", [1, 2])])'),
    );
    // By property name, or a key that names none by what its value fits; inline or through a reference.
    becomes(
      lines("root = Stack([t])", 't = Table([{label: "Name", type: "string"}, {header: "Total", type: "number"}], [["a", 1]])'),
      lines("root = Stack([t])", 't = Table([Col("Name", "string"), Col("Total", "number")], [["a", 1]])'),
    );
    becomes(
      lines("root = Stack([t])", 't = Table(cols, [["a", 1]])', 'cols = [{title: "Name"}, {label: "Total", type: "number"}]'),
      lines("root = Stack([t])", 't = Table(cols, [["a", 1]])', 'cols = [Col("Name"), Col("Total", "number")]'),
    );
  });
  test("children not wrapped in their array are wrapped; swapped arguments are put back by type", () => {
    restores('root = Stack(a, b, "column", "m")', ROOT);
    restores('root = Stack("column", [a, b], "m")', ROOT);
    becomes(
      lines("root = Stack([pie])", 'pie = PieChart([Slice(34, "Organic"), Slice("Paid", 22)])'),
      lines("root = Stack([pie])", 'pie = PieChart([Slice("Organic", 34), Slice("Paid", 22)])'),
    );
  });
  test("habits of other languages are mended in the line", () => {
    restores('const root = Stack([a, b], "column", "m");', ROOT);
    restores('let root = Stack([a, b], `column`, "m")', ROOT);
    // A template literal's escapes mean what they meant: `\n` is still a line break, `\`` a backquote.
    becomes(
      lines("root = Stack([m])", 'm = MarkDownRenderer(`- one\\n- \\`two\\` \\$3 "four"`)'),
      lines("root = Stack([m])", 'm = MarkDownRenderer("- one\\n- `two` $3 \\"four\\"")'),
    );
    restores('root: Stack([a, b], "column", "m")', ROOT);
    // A type after the name, as TypeScript writes it.
    restores('root: Stack = Stack([a, b], "column", "m")', ROOT);
    restores('const root: Component<"Stack"> = Stack([a, b], "column", "m")', ROOT);
    restores('root = Stack([a, b] "column" "m")', ROOT);
    // A closer left out, shown by the next one: put back where the library reads the line best;
    // an opener left out likewise; a closer too many taken out.
    restores('root = Stack([a, b, "column", "m")', ROOT);
    restores('root = Stack([a, b], "column", "m"', ROOT);
    restores('root = Stack(a, b], "column", "m")', ROOT);
    restores('root = Stack([a, b], "column", "m"))', ROOT);
    // The `=` written as `==` or `=>`, or left out before a call.
    restores('root == Stack([a, b], "column", "m")', ROOT);
    restores('root => Stack([a, b], "column", "m")', ROOT);
    restores('root Stack([a, b], "column", "m")', ROOT);
    // Python's tuple for a list; a percentage for its number.
    becomes(
      lines("root = Stack([p])", 'p = PieChart([Slice("Organic", 34%), Slice("Paid", 22%)])'),
      lines("root = Stack([p])", 'p = PieChart([Slice("Organic", 34), Slice("Paid", 22)])'),
    );
    becomes(
      lines("root = Stack([c])", 'c = BarChart(labels, [Series("Revenue", [1, 2])])', 'labels = ("Jan", "Feb")'),
      lines("root = Stack([c])", 'c = BarChart(labels, [Series("Revenue", [1, 2])])', 'labels = ["Jan", "Feb"]'),
    );
    restores('root =\n  Stack([a, b], "column", "m")', ROOT);
    restores('root = Stack([a, b], "row", "m", "start", "start", True)', 'root = Stack([a, b], "row", "m", "start", "start", true)');
    restores('root = Stack([a, b], "column", None)', 'root = Stack([a, b], "column", null)');
    restores('root = Stack([a, b], "column", undefined)', 'root = Stack([a, b], "column", null)');
    restores("root = Stack([a, b], \u201ccolumn\u201d, \u201cm\u201d)", ROOT);
    becomes(
      lines("root = Stack([n])", 'n = TextContent(\u201cDon\u2019t panic\u201d, "small")'),
      lines("root = Stack([n])", 'n = TextContent("Don\u2019t panic", "small")'),
    );
    // Line breaks typed inside a string (Markdown as written), and quotes inside one left unescaped.
    becomes(
      lines("root = Stack([m])", 'm = MarkDownRenderer("- one', "- two", "", '- three", "clear")'),
      lines("root = Stack([m])", 'm = MarkDownRenderer("- one\\n- two\\n\\n- three", "clear")'),
    );
    becomes(
      lines("root = Stack([m])", "m = MarkDownRenderer(notes)", 'notes = "## Notes', "", "- one", '- two"'),
      lines("root = Stack([m])", "m = MarkDownRenderer(notes)", 'notes = "## Notes\\n\\n- one\\n- two"'),
    );
    becomes(
      lines("root = Stack([n])", 'n = TextContent("Our "best" plan", "small")'),
      lines("root = Stack([n])", 'n = TextContent("Our \\"best\\" plan", "small")'),
    );
    becomes(lines("root = Stack([n])", "n = TextContent('Don't panic', \"small\")"), lines("root = Stack([n])", "n = TextContent('Don\\'t panic', \"small\")"));
    // The root written without its name: named, not dropped as prose with an invented root.
    restores('Stack([a, b], "column", "m")', ROOT);
    // A closing quote left out before the next argument: put back, not the two strings joined.
    becomes(
      lines("root = Stack([n])", 'n = TextContent("Contact us, "large-heavy")'),
      lines("root = Stack([n])", 'n = TextContent("Contact us", "large-heavy")'),
    );
    // An opening quote left out; `...` for items left out.
    becomes(
      lines("root = Stack([n])", 'n = TextContent(Contact us", "large-heavy")'),
      lines("root = Stack([n])", 'n = TextContent("Contact us", "large-heavy")'),
    );
    restores('root = Stack([a, b, ...], "column", "m")', ROOT);
    // Statements written as Markdown list items or inline code; a namespace before a call.
    restores('- root = Stack([a, b], "column", "m")', ROOT);
    restores('1. root = Stack([a, b], "column", "m")', ROOT);
    restores('`root = Stack([a, b], "column", "m")`', ROOT);
    restores('root = UI.Stack([a, b], "column", "m")', ROOT);
    // `;` between values inside brackets; a trailing one stays a statement's end.
    restores('root = Stack([a; b]; "column"; "m");', ROOT);
    // A component's name written as words.
    becomes(
      lines("root = Stack([n])", 'n = Text Content("Contact us", "large-heavy")'),
      lines("root = Stack([n])", 'n = TextContent("Contact us", "large-heavy")'),
    );
    // Or as HTML writes a tag's name, with hyphens.
    becomes(
      lines("root = Stack([n])", 'n = text-content("Contact us", "large-heavy")'),
      lines("root = Stack([n])", 'n = TextContent("Contact us", "large-heavy")'),
    );
    // Words inside a string stay as written.
    becomes(
      lines("root = Stack([n])", 'n = Text Content("Text Content (draft)", "large-heavy")'),
      lines("root = Stack([n])", 'n = TextContent("Text Content (draft)", "large-heavy")'),
    );
  });
  test("a name written with hyphens is written in camel case, where it is defined and where it is used", () => {
    becomes(
      lines("root = Stack([page-title, main-list-2])", 'page-title = TextContent("Hi", "large-heavy")', 'main-list-2 = Stack([page-title], "column")'),
      lines("root = Stack([pageTitle, mainList2])", 'pageTitle = TextContent("Hi", "large-heavy")', 'mainList2 = Stack([pageTitle], "column")'),
    );
    // A string holding the name, and a subtraction of names defined without hyphens, stay.
    becomes(
      lines("root = Stack([page-title, n])", 'page-title = TextContent("page-title", "large-heavy")', "n = TextContent(@Count([1]) - x)", "x = 1"),
      lines("root = Stack([pageTitle, n])", 'pageTitle = TextContent("page-title", "large-heavy")', "n = TextContent(@Count([1]) - x)", "x = 1"),
    );
  });
  test("one value where a list goes is wrapped, a list of one where one value goes unwrapped; a text where a component goes becomes its call; a number in groups is one", () => {
    becomes(
      lines("root = Stack([f])", 'f = Form("f", [FormControl("Name", Input("name", "Your name", "text", "required"))])'),
      lines("root = Stack([f])", 'f = Form("f", [FormControl("Name", Input("name", "Your name", "text", ["required"]))])'),
    );
    becomes(
      lines("root = Stack([f])", 'f = Form("f", [FormControl("Topic", Select("topic", ["Sales", "General inquiry"]))])'),
      lines(
        "root = Stack([f])",
        'f = Form("f", [FormControl("Topic", Select("topic", [SelectItem("Sales", "Sales"), SelectItem("General inquiry", "General inquiry")]))])',
      ),
    );
    becomes(lines("root = Stack([t])", 't = Table(["Name", "Age"], [])'), lines("root = Stack([t])", 't = Table([Col("Name"), Col("Age")], [])'));
    // A list after a text with no comma between is read as an index: split into two arguments.
    becomes(
      lines("root = Stack([f])", 'f = Form("search" [q])', 'q = FormControl("Query", Input("q"))'),
      lines("root = Stack([f])", 'f = Form("search", [q])', 'q = FormControl("Query", Input("q"))'),
    );
    // A number written with thousands separators is one number, not a number and one in excess.
    becomes(
      lines("root = Stack([p])", 'p = PieChart([Slice("Organic", 3,400), Slice("Paid", 1,250,000.5)])'),
      lines("root = Stack([p])", 'p = PieChart([Slice("Organic", 3400), Slice("Paid", 1250000.5)])'),
    );
    restores('root = Stack([a, b], "row", "m", "start", "start", "yes")', 'root = Stack([a, b], "row", "m", "start", "start", true)');
    // A list of one around what the place takes alone.
    becomes(
      lines("root = Stack([f])", 'f = Form("f", [FormControl("Name", [Input("name", "Your name")])])'),
      lines("root = Stack([f])", 'f = Form("f", [FormControl("Name", Input("name", "Your name"))])'),
    );
    // A text among components: held in the text component allowed there, as written.
    becomes(
      lines("root = Stack([q])", 'q = Accordion([AccordionItem("a", "Can I switch?", ["Yes, at any \\"time\\"."])])'),
      lines("root = Stack([q])", 'q = Accordion([AccordionItem("a", "Can I switch?", [TextContent("Yes, at any \\"time\\".")])])'),
    );
    // A number written as a word.
    becomes(
      lines("root = Stack([f])", 'f = Form("f", [FormControl("Note", TextArea("note", "Your note", "six"))])'),
      lines("root = Stack([f])", 'f = Form("f", [FormControl("Note", TextArea("note", "Your note", 6))])'),
    );
  });
  test("listed values matched by meaning before spelling", () => {
    const align = ["start", "center", "end", "stretch", "baseline"];
    expect(listedByMeaning("flex-start", align)).toBe("start");
    expect(listedByMeaning("Center", align)).toBe("center");
    expect(listedByMeaning("space-between", ["start", "between", "around"])).toBe("between");
    expect(listedByMeaning("h1", ["small", "default", "large", "small-heavy", "large-heavy"])).toBe("large-heavy");
    expect(listedByMeaning("small_heavy", ["small", "small-heavy"])).toBe("small-heavy");
    expect(listedByMeaning("24px", ["none", "xs", "s", "m", "l", "xl", "2xl"])).toBe("l");
    expect(listedByMeaning("lg", ["sm", "md", "lg"])).toBe("lg");
    expect(listedByMeaning("large", ["none", "xs", "s", "m", "l", "xl"])).toBe("l");
    expect(listedByMeaning("desc", ["ascending", "descending"])).toBe("descending");
    // A size past the list's own words: its nearest listed size.
    expect(listedByMeaning("xl", ["small", "default", "large", "small-heavy", "large-heavy"])).toBe("large");
    expect(listedByMeaning("xs", ["sm", "md", "lg"])).toBe("sm");
    expect(listedByMeaning("medium", ["small", "default", "large"])).toBe("default");
    // Words of CSS and design tools, and a synonym shortened (`horiz`: horizontal, which means row).
    expect(listedByMeaning("begin", align)).toBe("start");
    expect(listedByMeaning("justify", ["start", "between", "around"])).toBe("between");
    expect(listedByMeaning("horiz", ["row", "column"])).toBe("row");
    expect(listedByMeaning("muted", ["card", "sunk", "clear"])).toBe("sunk");
    expect(listedByMeaning("purple", ["red", "green"])).toBeNull();
    // Words that name what every object has are words, not table entries.
    expect(listedByMeaning("constructor", ["red", "green"])).toBeNull();
    expect(listedByMeaning("__proto__", ["red", "green"])).toBeNull();
    restores('root = Stack([a, b], "vertical", "16px", "flex-start", "space-between")', 'root = Stack([a, b], "column", "m", "start", "between")');
  });
  test("names by shape: a foreign name picks the component its arguments fit, not the closest spelling", () => {
    // Panel takes a list and a listed variant: Card, not Label (one string).
    becomes(lines("root = Stack([p])", 'p = Panel([TextContent("x")], "sunk")'), lines("root = Stack([p])", 'p = Card([TextContent("x")], "sunk")'));
    becomes(lines("root = Stack([d])", 'd = Div([TextContent("x")], "row")'), lines("root = Stack([d])", 'd = Stack([TextContent("x")], "row")'));
    becomes(lines("root = Stack([t])", 't = Text("Hello", "large-heavy")'), lines("root = Stack([t])", 't = TextContent("Hello", "large-heavy")'));
    // A generic Chart: its data names the chart (slices → a pie; labels and series with "grouped" → bars).
    becomes(
      lines("root = Stack([c])", 'c = Chart([Slice("A", 1), Slice("B", 2)], "donut")'),
      lines("root = Stack([c])", 'c = PieChart([Slice("A", 1), Slice("B", 2)], "donut")'),
    );
    becomes(
      lines("root = Stack([c])", 'c = Chart(["Q1", "Q2"], [Series("Sales", [1, 2])], "stacked")'),
      lines("root = Stack([c])", 'c = BarChart(["Q1", "Q2"], [Series("Sales", [1, 2])], "stacked")'),
    );
    becomes(
      lines("root = Stack([c])", 'c = Alert("warning", "Careful", "This cannot be undone")'),
      lines("root = Stack([c])", 'c = Callout("warning", "Careful", "This cannot be undone")'),
    );
    // A name that means nothing known: its arguments alone name the component when every one
    // fits and one tells (a listed value, the component a list holds); a plural shares its word.
    becomes(lines("root = Stack([t])", 't = Subtitle("Hello", "small-heavy")'), lines("root = Stack([t])", 't = TextContent("Hello", "small-heavy")'));
    becomes(
      lines("root = Stack([s])", 's = Stepper([StepsItem("Sign up", "Make an account"), StepsItem("Pay", "Choose a plan")])'),
      lines("root = Stack([s])", 's = Steps([StepsItem("Sign up", "Make an account"), StepsItem("Pay", "Choose a plan")])'),
    );
    becomes(
      lines("root = Stack([b])", 'b = ButtonGroup([Button("Save", "save")], "row")'),
      lines("root = Stack([b])", 'b = Buttons([Button("Save", "save")], "row")'),
    );
    becomes(
      lines("root = Stack([b])", 'b = Toolbar([Button("Save", "save")], "row")'),
      lines("root = Stack([b])", 'b = Buttons([Button("Save", "save")], "row")'),
    );
    becomes(lines("root = Stack([s])", 's = Separator("x")'), lines("root = Stack([s])", 's = Separator("horizontal")'));
    // A component of the library where its parent takes another: the chat library's Text in a Card.
    const chat = compileLibrary(getBuiltinLibrary("thesys/chat")!.chatLibrary);
    expect(repair(lines("root = Card([t])", 't = Text("Pay as you go", "default")'), chat).content).toBe(
      lines("root = Card([t])", 't = TextContent("Pay as you go", "default")'),
    );
    // Of two text components a foreign name means, the one that takes its arguments as written.
    becomes(
      lines("root = Stack([p])", 'p = Paragraph("Refunds within 30 days.", "default")'),
      lines("root = Stack([p])", 'p = TextContent("Refunds within 30 days.", "default")'),
    );
    // A tool call misspelt is the tool call (it is no component, and no displayed content is lost).
    becomes(
      lines("root = Stack([t])", 't = Table([Col("Id")], orders.rows)', 'orders = Qury("list_orders", {status: "open"}, {rows: []}, 30)'),
      lines("root = Stack([t])", 't = Table([Col("Id")], orders.rows)', 'orders = Query("list_orders", {status: "open"}, {rows: []}, 30)'),
    );
    // Names of containers in other vocabularies, in root (where only the root component may stand).
    becomes(lines("root = View([a, b])", ...TAIL), lines("root = Stack([a, b])", ...TAIL));
    becomes(lines("root = Wrapper([a, b])", ...TAIL), lines("root = Stack([a, b])", ...TAIL));
    becomes(
      lines("root = Stack([c])", 'c = Sparkline(["Q1", "Q2"], [Series("Sales", [1, 2])])'),
      lines("root = Stack([c])", 'c = LineChart(["Q1", "Q2"], [Series("Sales", [1, 2])])'),
    );
    // A heading with a title and a subtitle is the header component, not a text input that takes two strings.
    becomes(
      lines('root = Stack([h, a], "column", "m")', 'h = Heading("Orders", "Open orders from the shop")', TAIL[0]!),
      lines('root = Stack([h, a], "column", "m")', 'h = CardHeader("Orders", "Open orders from the shop")', TAIL[0]!),
    );
    // A column chart is the vertical bar chart, not the horizontal one.
    becomes(
      lines("root = Stack([c])", 'c = ColumnGraph(["Q1", "Q2"], [Series("Sales", [1, 2])], "grouped")'),
      lines("root = Stack([c])", 'c = BarChart(["Q1", "Q2"], [Series("Sales", [1, 2])], "grouped")'),
    );
    // A list of columns is a table; a list of anything else, a stack.
    becomes(
      lines("root = Stack([t])", 't = List([Col("Id"), Col("Total", "number")], orders.rows)', 'orders = Query("list_orders", {}, {rows: []}, 30)'),
      lines("root = Stack([t])", 't = Table([Col("Id"), Col("Total", "number")], orders.rows)', 'orders = Query("list_orders", {}, {rows: []}, 30)'),
    );
    becomes(
      lines("root = Stack([l])", 'l = List([TextContent("x"), TextContent("y")])'),
      lines("root = Stack([l])", 'l = Stack([TextContent("x"), TextContent("y")])'),
    );
    // Plain text that no listed value tells about is still kept as text, not given a component.
    becomes(
      lines("root = Stack([g])", 'g = Gizmo("Quarterly numbers", "Yearly numbers")'),
      lines("root = Stack([g])", 'g = TextContent("Quarterly numbers Yearly numbers")'),
    );
  });
  test("several mistakes at once converge", () => {
    becomes(
      lines(
        'const root = Div(header, body, "vertical")',
        'header: Header(title="Orders", subtitle="Today")',
        'body = Panel({children: [TextContent("None yet", "Small")], variant: "sunken"});',
      ),
      lines('root = Stack([header, body], "column")', 'header = CardHeader("Orders", "Today")', 'body = Card([TextContent("None yet", "small")], "sunk")'),
    );
    // Several in one statement: a name misspelt or foreign with its children bare, its arguments
    // swapped or a listed value off; a bracket with a comma or another bracket.
    restores('root = Staack(a, b, "column", "m")', ROOT);
    restores('root = Stakc("column", [a, b], "m")', ROOT);
    restores('root = Group(a, b, "COLUMN", "16px")', ROOT);
    restores('root = HStack([a, b], "column", "m", "start", "start", "true")', 'root = Stack([a, b], "column", "m", "start", "start", true)');
    restores('root = Stack([a, b, "column", "m"))', ROOT);
    restores('root = Stack([a, b, "column" "m")', ROOT);
    restores('root =\n  Stack(a, b], "column", "m")', ROOT);
    // Two lists with no comma between read as an index into the first: two arguments again.
    becomes(
      lines("root = Stack([c])", 'c = BarChart(["Jan", "Feb"] [Series("Revenue", [1, 2])], "grouped")'),
      lines("root = Stack([c])", 'c = BarChart(["Jan", "Feb"], [Series("Revenue", [1, 2])], "grouped")'),
    );
    // Where the closer goes in an unknown call's list: not among the plain values after it.
    restores('root = Div([a, b, "column", "m")', ROOT);
    // A run of labels without its brackets; a listed value written with a space for its dash.
    becomes(
      lines("root = Stack([c])", 'c = BarChart("Jan", "Feb", [Series("Revenue", [1, 2])])'),
      lines("root = Stack([c])", 'c = BarChart(["Jan", "Feb"], [Series("Revenue", [1, 2])])'),
    );
    becomes(
      lines("root = Stack([t])", 't: TextContent("Hello there", "small heavy")'),
      lines("root = Stack([t])", 't = TextContent("Hello there", "small-heavy")'),
    );
  });
  test("names that every object has are no synonyms", () => {
    const out = repair(lines("root = Stack([c])", 'c = constructor([TextContent("x")], "toString")', 'd = Constructor("hasOwnProperty")'), lib);
    expect(["fixed", "fix_failed"]).toContain(out.status);
  });
  test("a component where its parent takes the group that holds it is held in one; neighbours share it", () => {
    const buttons = ['b1 = Button("Export", "action:export", "primary")', 'b2 = Button("Share", "action:share")', 'b3 = Button("Close", "action:close")'];
    becomes(
      lines("root = Stack([c])", 'c = Card([h, b1, b2, t, b3], "card")', 'h = CardHeader("Report")', 't = TextContent("Hello there")', ...buttons),
      lines(
        "root = Stack([c])",
        'c = Card([h, Buttons([b1, b2]), t, Buttons([b3])], "card")',
        'h = CardHeader("Report")',
        't = TextContent("Hello there")',
        ...buttons,
      ),
    );
    // Written in place, and misspelt as well: named, then held.
    becomes(
      lines("root = Stack([c])", 'c = Card([Btn("Export", "action:export")], "card")'),
      lines("root = Stack([c])", 'c = Card([Buttons([Button("Export", "action:export")])], "card")'),
    );
  });
  test("an unknown call no component takes keeps its text in the text component its place allows", () => {
    becomes(lines("root = Stack([g])", 'g = Gizmo("Quarterly numbers", 42)'), lines("root = Stack([g])", 'g = TextContent("Quarterly numbers 42")'));
    // In a form's field list only a FormControl stands: no text component may, so it is not a fix.
    const out = repair(lines("root = Stack([f])", 'f = Form("f", [Gizmo("Quarterly numbers", 42)])'), lib);
    expect(out.status).toBe("fix_failed");
  });
  test("a quote left out is put back where the code around it shows, in a line or in a row of a list over lines", () => {
    const ROW = 'a = TextContent("Revenue", "small-heavy")';
    const root = 'root = Stack([t, a], "column", "m")';
    // A closing quote: before the brackets the string took in, the next argument's quote, or the values after a comma.
    becomes(lines(root, 't = TextContent("Contact Us)', ROW), lines(root, 't = TextContent("Contact Us")', ROW));
    becomes(
      lines('root = Stack([b], "column", "m")', 'b = Buttons([Button("Save", "primary), Button("Cancel", "secondary")])'),
      lines('root = Stack([b], "column", "m")', 'b = Buttons([Button("Save", "primary"), Button("Cancel", "secondary")])'),
    );
    becomes(
      lines('root = Stack([p], "column", "m")', 'p = PieChart([s1, s2], "pie")', 's1 = Slice("Paid Search, 22)', 's2 = Slice("Direct", 16)'),
      lines('root = Stack([p], "column", "m")', 'p = PieChart([s1, s2], "pie")', 's1 = Slice("Paid Search", 22)', 's2 = Slice("Direct", 16)'),
    );
    // A quote before a currency sign or a dash is inside its string (no string ends just before one).
    becomes(lines(root, 't = TextContent("Total: "$412", "large-heavy")', ROW), lines(root, 't = TextContent("Total: \\"$412", "large-heavy")', ROW));
    // An opening quote: back to the opener or comma before the text, its brackets balanced; what
    // the slip left outside the string is not mended as code (`28%` keeps its `%`, `oz` is no call).
    becomes(lines(root, 't = TextContent(+6.2% vs last month", "small")', ROW), lines(root, 't = TextContent("+6.2% vs last month", "small")', ROW));
    becomes(lines(root, 't = TextContent(28%", "large-heavy")', ROW), lines(root, 't = TextContent("28%", "large-heavy")', ROW));
    becomes(
      lines(
        'root = Stack([c], "column", "m")',
        'c = BarChart(labels, [s], "grouped", "Month", Revenue (USD)")',
        'labels = ["Jan", "Feb"]',
        's = Series("Sales", [1, 2])',
      ),
      lines(
        'root = Stack([c], "column", "m")',
        'c = BarChart(labels, [s], "grouped", "Month", "Revenue (USD)")',
        'labels = ["Jan", "Feb"]',
        's = Series("Sales", [1, 2])',
      ),
    );
    // A table's rows, one a line: each line's quotes are put right on their own.
    const table = ['root = Stack([t], "column", "m")', "t = Table(cols, rows)", 'cols = [Col("Spec", "string"), Col("Value", "string")]'];
    const rows = ["rows = [", '  ["Weight", "9.8 oz (US 9)"],', '  ["Drop", "8 mm"]', "]"];
    for (const slip of ['  ["Weight, "9.8 oz (US 9)"],', '  [Weight", "9.8 oz (US 9)"],', '  ["Weight", "9.8 oz (US 9)],']) {
      becomes(lines(...table, rows[0]!, slip, rows[2]!, rows[3]!), lines(...table, ...rows));
    }
    becomes(lines(...table, rows[0]!, rows[1]!, '  ["Drop", 8 mm"]', rows[3]!), lines(...table, ...rows));
  });
  test("habits of code in other languages: statements ended by a comma or joined by `;`, a list in a list, named and positional arguments mixed", () => {
    // A comma after a whole statement, as between an object's entries.
    restores(`${ROOT},`, ROOT);
    becomes(lines(`${ROOT},`, `${TAIL[0]},`, TAIL[1]!), lines(ROOT, ...TAIL));
    // A full stop after one, as a sentence ends; a JSX comment after one.
    restores(`${ROOT}.`, ROOT);
    // On the program's last line too, where it might have been a member's name cut off.
    becomes(lines(ROOT, TAIL[0]!, `${TAIL[1]}.`), lines(ROOT, ...TAIL));
    restores(`${ROOT} {/* the page */}`, ROOT);
    // Two statements on one line, `;` between them.
    becomes(lines(ROOT, `${TAIL[0]}; ${TAIL[1]}`), lines(ROOT, ...TAIL));
    // `export default`, and the value written as a function returning it.
    restores(`export default ${ROOT}`, ROOT);
    restores('root = () => Stack([a, b], "column", "m")', ROOT);
    // A list written inside a list of its own.
    becomes(lines("root = Stack([c])", 'c = Card([[a, b]], "card")', ...TAIL), lines("root = Stack([c])", 'c = Card([a, b], "card")', ...TAIL));
    // A named argument, then positional ones placed by what they are (`:` or `=`).
    for (const arg of ["text: ", "text="]) {
      becomes(
        lines("root = Stack([n])", `n = TextContent(${arg}"Revenue Dashboard", "large-heavy")`),
        lines("root = Stack([n])", 'n = TextContent("Revenue Dashboard", "large-heavy")'),
      );
    }
    // JavaScript's `\'` in a double-quoted string is the quote alone (the language's strings are JSON's).
    becomes(lines("root = Stack([n])", 'n = TextContent("Don\\\'t panic", "small")'), lines("root = Stack([n])", 'n = TextContent("Don\'t panic", "small")'));
    // A length written with its unit where a number goes.
    becomes(
      lines("root = Stack([t])", 't = TextArea("message", "How can we help?", 6px)'),
      lines("root = Stack([t])", 't = TextArea("message", "How can we help?", 6)'),
    );
  });

  test("prose after a whole statement on its line goes; options in braces after the positional arguments are read by name", () => {
    restores('root = Stack([a, b], "column", "m")  <- the main layout', ROOT);
    becomes(lines(ROOT, 'a = TextContent("Revenue", "small-heavy") (the label)', TAIL[1]!), lines(ROOT, ...TAIL));
    const card = (args: string) => lines("root = Stack([c])", `c = Card(${args})`, ...TAIL);
    // A style's keys name no property, and go; so does an empty object.
    for (const options of ["{padding: 16}", "{style: {padding: 16}}", "{}"]) becomes(card(`[a, b], "card", ${options}`), card('[a, b], "card"'));
    // Keys that name properties take their places.
    becomes(card('[a, b], {variant: "sunk"}'), card('[a, b], "sunk"'));
    becomes(
      lines("root = Stack([s])", 's = Button("Submit", "submit:contact", {variant: "secondary"})'),
      lines("root = Stack([s])", 's = Button("Submit", "submit:contact", "secondary")'),
    );
  });

  test("a backslash that continues a line goes, the line break kept where code may break", () => {
    restores('root = Stack([a, \\\n  b], "column", "m")', 'root = Stack([a,\n  b], "column", "m")');
    restores('root = \\\n  Stack([a, b], "column", "m")', ROOT);
  });

  test("a children list left empty or left out is filled with the statements written after it, not emptied of them", () => {
    const parts = ['h = CardHeader("Revenue", "Last 6 months")', 'v = TextContent("$1,284,000", "large-heavy")'];
    const page = (root: string, card: string) => lines(root, 't = TextContent("Sales")', card, ...parts);
    const fixed = page("root = Stack([t, c])", 'c = Card([h, v], "card")');
    becomes(page("root = Stack([t, c])", 'c = Card([], "card")'), fixed);
    becomes(page("root = Stack([t, c])", 'c = Card("card")'), fixed);
    // The root's list, over statements that other statements use.
    becomes(page('root = Stack("column", "m")', 'c = Card([h, v], "card")'), page('root = Stack([t, c], "column", "m")', 'c = Card([h, v], "card")'));
  });

  test("data written as records: a table's rows, a chart's labels and series, a table's columns and rows; props whose keys name no property, by value", () => {
    const cols = 'cols = [Col("Name", "string"), Col("Years", "number")]';
    becomes(
      lines("root = Stack([t])", "t = Table(cols, rows)", cols, 'rows = [{name: "Priya", years: 3}, {name: "Tom", years: 5}]'),
      lines("root = Stack([t])", "t = Table(cols, rows)", cols, 'rows = [["Priya", 3], ["Tom", 5]]'),
    );
    const chart = '["Jul", "Aug"], [Series("Offers", [4, 6]), Series("Hires", [2, 5])], "natural"';
    const records = '[{month: "Jul", Offers: 4, Hires: 2}, {month: "Aug", Offers: 6, Hires: 5}]';
    becomes(lines("root = Stack([c])", `c = AreaChart(${records}, "natural")`), lines("root = Stack([c])", `c = AreaChart(${chart})`));
    // Records in a statement of their own keep its name: for a chart's labels, for a table's rows.
    becomes(
      lines("root = Stack([c])", 'c = LineChart(data, "natural")', `data = ${records}`),
      lines("root = Stack([c])", 'c = LineChart(data, [Series("Offers", [4, 6]), Series("Hires", [2, 5])], "natural")', 'data = ["Jul", "Aug"]'),
    );
    becomes(
      lines("root = Stack([t])", "t = Table(staff)", 'staff = [{name: "Priya", years: 3}, {name: "Tom", years: 5}]'),
      lines("root = Stack([t])", 't = Table([Col("name", "string"), Col("years", "number")], staff)', 'staff = [["Priya", 3], ["Tom", 5]]'),
    );
    // Keys that name no property, each placed by its value.
    becomes(
      lines("root = Stack([b])", 'b = Buttons({"children": [s], "layout": "row"})', 's = Button("Send", "submit:contact")'),
      lines("root = Stack([b])", 'b = Buttons([s], "row")', 's = Button("Send", "submit:contact")'),
    );
  });

  test("quotes a reference took or a listed value lost: the statement's name, the value", () => {
    // A statement's name in quotes: the reference (where a component goes, and in a list that takes text too).
    becomes(lines("root = Stack([c])", 'c = Card([a, "b"], "card")', ...TAIL), lines("root = Stack([c])", 'c = Card([a, b], "card")', ...TAIL));
    restores('root = Stack(["a", b], "column", "m")', ROOT);
    // Every item in quotes: no item refers to a statement, and the list is still theirs.
    restores('root = Stack(["a", "b"], "column", "m")', ROOT);
    // A listed value without its quotes (a reference to nothing) where one goes: the value.
    restores('root = Stack([a, b], column, "m")', ROOT);
    becomes(lines("root = Stack([c])", "c = Card([a, b], sunk)", ...TAIL), lines("root = Stack([c])", 'c = Card([a, b], "sunk")', ...TAIL));
  });

  test("a closing quote left out on the program's last line goes back where the statement then ends", () => {
    const head = ['root = Stack([t, p], "column", "m")', 'p = PieChart([s1], "pie")'];
    // Before the brackets the string took in, or before the values after a comma; a cut-off
    // statement (nothing closes there) is still closed at its end.
    becomes(
      lines(...head, 's1 = Slice("Direct", 16)', 't = TextContent("Still stuck? Write to us.)'),
      lines(...head, 's1 = Slice("Direct", 16)', 't = TextContent("Still stuck? Write to us.")'),
    );
    becomes(
      lines(...head, 't = TextContent("Share")', 's1 = Slice("Paid Search, 22)'),
      lines(...head, 't = TextContent("Share")', 's1 = Slice("Paid Search", 22)'),
    );
    becomes(
      lines(...head, 's1 = Slice("Direct", 16)', 't = TextContent("Still stuck? Wri'),
      lines(...head, 's1 = Slice("Direct", 16)', 't = TextContent("Still stuck? Wri")'),
    );
  });

  test("commas (or a closer) typed twice, commas left out between names, `new` before a call, a number with a word after it", () => {
    restores('root = Stack([a, b], "column", , "m")', ROOT);
    restores('root = Stack([a b], "column", "m")', ROOT);
    // A closer typed twice: the second taken out, not an opener added to match it.
    restores('root = Stack([a, b]], "column", "m")', ROOT);
    // Over lines, the comma ends the line where it was left out.
    restores('root = Stack([\n  a\n  b\n], "column", "m")', 'root = Stack([\n  a,\n  b\n], "column", "m")');
    restores('root = new Stack([a, b], "column", "m")', ROOT);
    const table = ["root = Stack([t])", 't = Table([Col("Name", "string"), Col("Years", "number")], rows)'];
    becomes(lines(...table, 'rows = [["Priya", 3], , ["Tom", 5]]'), lines(...table, 'rows = [["Priya", 3], ["Tom", 5]]'));
    // Where a number goes, the number; where text goes, the whole as written.
    becomes(
      lines("root = Stack([t])", 't = TextArea("message", "How can we help?", 6 rows)'),
      lines("root = Stack([t])", 't = TextArea("message", "How can we help?", 6)'),
    );
    becomes(lines("root = Stack([t])", 't = TextContent(30 seconds, "small")'), lines("root = Stack([t])", 't = TextContent("30 seconds", "small")'));
  });

  test("a list's last item written after its closing bracket goes back in where it fits the list, not where it follows", () => {
    const fields = [
      'name = FormControl("Name", Input("name", "Your name", "text", ["required"]))',
      'email = FormControl("Email", Input("email", "you@example.com", "email", ["required"]))',
      'message = FormControl("Message", TextArea("message", "How can we help?", 6, ["required"]))',
      'buttons = Buttons([Button("Send", "submit:contact", "primary")], "row")',
    ];
    const form = (list: string) => lines("root = Stack([form])", `form = Form("contact", ${list}, buttons)`, ...fields);
    becomes(form("[\n  name,\n  email\n] message"), form("[\n  name,\n  email,\n  message\n]"));
    becomes(form("[name, email] message"), form("[name, email, message]"));
    // Inside a record's list too, where a comma after the bracket cannot be read.
    const trend = (values: string) => lines("root = Stack([c])", `c = LineChart(["2024", "2025"], [Series("Users", ${values})])`);
    becomes(trend("[\n  120\n] 340"), trend("[\n  120,\n  340\n]"));
    // What fits the place after the list stays there: a comma goes back after the bracket.
    restores('root = Stack([a, b] "column", "m")', ROOT);
  });

  test("a block comment (C's or HTML's) or a line of prose among the lines of a statement over lines goes, its lines with it", () => {
    const rows = (between: string[]) =>
      lines(
        "root = Stack([tbl])",
        'tbl = Table([Col("Plan", "string"), Col("Price", "string")], rows)',
        "rows = [",
        '  ["Starter", "$12"],',
        ...between,
        '  ["Team", "$29"]',
        "]",
      );
    becomes(rows(["/*", "  The paid plans", "*/"]), rows([]));
    becomes(rows(["  /* the paid plans */"]), rows([]));
    becomes(rows(["  <!-- the paid plans -->"]), rows([]));
    becomes(rows(["Next, the paid plans:"]), rows([]));
    // Names alone on a line are items whose commas were left out, not prose.
    const list = (items: string) => lines("root = Stack([", items, '], "column", "m")', ...TAIL);
    becomes(list("  a b"), list("  a, b"));
  });

  test("a call written with square brackets or without its opening parenthesis; a statement's name in quotes or after a bullet; characters of no width", () => {
    restores('root = Stack[[a, b], "column", "m"]', ROOT);
    // One list alone in the brackets reads as indexing a name: the same call.
    const list = lines("root = Stack([a, b])", ...TAIL);
    becomes(lines("root = Stack[[a, b]]", ...TAIL), list);
    restores('root = Stack [a, b], "column", "m")', ROOT);
    becomes(lines(ROOT, 'a = TextContent "Revenue", "small-heavy")', TAIL[1]!), lines(ROOT, ...TAIL));
    // Written as Ruby calls a method: no parentheses, no commas.
    becomes(lines(ROOT, 'a = TextContent "Revenue" "small-heavy"', TAIL[1]!), lines(ROOT, ...TAIL));
    restores('"root" = Stack([a, b], "column", "m")', ROOT);
    restores('\u2022 root = Stack([a, b], "column", "m")', ROOT);
    // Characters of no width copied into code go; in a string they stay.
    restores('root\u200b = Stack([a,\u200b b], "column", "m")', ROOT);
    becomes(
      lines(ROOT, 'a = Text\u200dContent("Re\u200bvenue", "small-heavy")', TAIL[1]!),
      lines(ROOT, 'a = TextContent("Re\u200bvenue", "small-heavy")', TAIL[1]!),
    );
  });

  test("punctuation of a CJK keyboard in code, digits grouped by underscores, a typographic minus", () => {
    restores('root = Stack（[a， b]， "column"， "m"）', ROOT);
    restores('root = Stack([a、b], "column", "m")', 'root = Stack([a,b], "column", "m")');
    // In a string they stay.
    becomes(
      lines(ROOT, 'a = TextContent（"Revenue，net"， "small-heavy"）', TAIL[1]!),
      lines(ROOT, 'a = TextContent("Revenue，net", "small-heavy")', TAIL[1]!),
    );
    const pie = (a: string, b: string) => lines("root = Stack([p])", `p = PieChart([Slice("Organic", ${a}), Slice("Paid", ${b})])`);
    becomes(pie("3_400", "1_250_000.5"), pie("3400", "1250000.5"));
    becomes(pie("\u22123400", "\u20141250"), pie("-3400", "-1250"));
  });

  test("a backslash in a string before what JSON does not escape: the backslash meant, or JavaScript's escape read; a number with a sign or a point of another language", () => {
    const text = (x: string) => lines(ROOT, `a = TextContent(${x}, "small-heavy")`, TAIL[1]!);
    // A pattern's `\d`, a Windows path's `\U`: the backslash itself.
    becomes(text('"^\\d{5}$ or C:\\Users"'), text('"^\\\\d{5}$ or C:\\\\Users"'));
    // JavaScript's `\'` and `\x21`: the character.
    becomes(text('"It\\\'s \\x21"'), text('"It\'s \\u0021"'));
    const pie = (a: string, b: string) => lines("root = Stack([p])", `p = PieChart([Slice("Organic", ${a}), Slice("Paid", ${b})])`);
    becomes(pie("+3400", ".5"), pie("3400", "0.5"));
    becomes(pie("3400.", "-.5"), pie("3400", "-0.5"));
  });

  test("a fence line closing a program no fence opened goes: read as an opening fence, it left no program", () => {
    const program = `${lines(ROOT, ...TAIL)}\n`;
    const out = repair(`${program}\`\`\`\n`, lib);
    expect(out.status).toBe("fixed");
    expect(out.content).toBe(program);
    expect(out.fixed_errors.map((e) => e.code)).toEqual(["missing-root"]);
    // With a mistake of its own too: both fixed.
    const mended = repair(`${program.replace("a = TextContent", "a = TxtContent")}\`\`\``, lib);
    expect(mended.content).toBe(program);
    expect(mended.fixed_errors.map((e) => e.code)).toEqual(["missing-root", "unknown-component"]);
    // Prose alone before it is no program.
    expect(repair("Here it is:\n```\n", lib).status).toBe("fix_failed");
    // Written at the end of the last line: the program ends there (a fence left open runs to the end).
    becomes(`${lines(ROOT, ...TAIL)}\`\`\``, lines(ROOT, ...TAIL));
    becomes(`\`\`\`openui\n${lines(ROOT, ...TAIL)}\`\`\``, `\`\`\`openui\n${lines(ROOT, ...TAIL)}`);
    // Three backticks in a line of prose open no block: the fence after the program is its only one.
    becomes(`Here: \`\`\`openui\n${program}\`\`\`\n`, program);
  });

  test("a name alone on its line before its `= value`; a name with accented letters", () => {
    becomes(lines(ROOT, "a", '= TextContent("Revenue", "small-heavy")', TAIL[1]!), lines(ROOT, ...TAIL));
    const accented = (name: string) => lines(`root = Stack([${name}, b], "column", "m")`, `${name} = TextContent("Revenue", "small-heavy")`, TAIL[1]!);
    becomes(accented("título"), accented("titulo"));
    becomes(accented("größe"), accented("grosse"));
  });

  test("a line whose name cannot be read, calling a component of the library, keeps its text counted: dropped, it is no fix", () => {
    const out = repair(lines(ROOT, 'Here is the first one: a = TextContent("Total revenue", "small-heavy")', TAIL[1]!), lib);
    if (out.status === "fixed") expect(out.content).toContain('"Total revenue"');
    else expect(out.status).toBe("fix_failed");
    // Its calls count too when it reads as a statement, one-word strings and all.
    const chart = (name: string) => lines("root = Stack([kpi])", "kpi = Card([kpiTitle])", `${name} = TextContent("MRR", "small-heavy")`);
    const cut = repair(chart("kpi[Title"), lib);
    if (cut.status === "fixed") expect(cut.content).toContain('TextContent("MRR"');
    else expect(cut.status).toBe("fix_failed");
  });

  test("a misspelt component whose list holds its items both as calls and as objects is named by that list's fit", () => {
    const cta = (name: string, later: string) => lines("root = Stack([cta])", `cta = ${name}([Button("Go", "action:go", "primary"), ${later}])`);
    becomes(cta("Bttons", '{label: "Later", action: "action:later", variant: "secondary"}'), cta("Buttons", 'Button("Later", "action:later", "secondary")'));
  });

  test("text without its quotes or in quotes of other kinds, a name marked up or written as words, names in braces, an amount with its sign", () => {
    const text = (x: string, y: string) => lines(ROOT, `a = TextContent(${x}, "small-heavy")`, `b = TextContent(${y}, "large-heavy")`);
    const fixed = text('"Revenue"', '"$12"');
    becomes(text("Revenue", '"$12"'), fixed);
    becomes(text('""Revenue""', '"""$12"""'), fixed);
    becomes(text("\"Revenue'", '"$12"'), fixed);
    becomes(text("Total Revenue", '"$12"'), text('"Total Revenue"', '"$12"'));
    restores('**root** = Stack([a, b], "column", "m")', ROOT);
    restores('root = Stack({a, b}, "column", "m")', ROOT);
    const pie = ['p = PieChart([s], "pie")', 's = Slice("Direct", 1200)'];
    becomes(
      lines('root = Stack([head, p], "column", "m")', 'head line = TextContent("Share", "small")', pie[0]!, 's = Slice("Direct", $1,200)'),
      lines('root = Stack([headLine, p], "column", "m")', 'headLine = TextContent("Share", "small")', ...pie),
    );
  });

  test("a closer left out inside a list of rows goes back where the rows begin to nest, on one line or over lines", () => {
    const head = ["root = Stack([t])", 't = Table([Col("Name", "string"), Col("Years", "number")], rows)'];
    const rows = ['  ["Priya", 3],', '  ["Tom", 5],', '  ["Lena", 7]'];
    becomes(lines(...head, 'rows = [["Priya", 3], ["Tom", 5, ["Lena", 7]]'), lines(...head, 'rows = [["Priya", 3], ["Tom", 5], ["Lena", 7]]'));
    becomes(lines(...head, 'rows = [["Priya", 3, ["Tom", 5], ["Lena", 7]]'), lines(...head, 'rows = [["Priya", 3], ["Tom", 5], ["Lena", 7]]'));
    // An opener left out before records, in a call no component is known by: not where it would
    // make one list of a list and a record (the record then reads as the chart's Series).
    becomes(
      lines("root = Stack([c])", 'c = Chart(["Q1", "Q2"], {category: "2025", values: [120, 135]}], "grouped")'),
      lines("root = Stack([c])", 'c = BarChart(["Q1", "Q2"], [Series("2025", [120, 135])], "grouped")'),
    );
    // A closer that met the wrong opener (`)` for `]`).
    becomes(
      lines("root = Stack([t])", 't = Table([Col("Name", "string")], [["Priya", ["Tom"]])'),
      lines("root = Stack([t])", 't = Table([Col("Name", "string")], [["Priya"], ["Tom"]])'),
    );
    // Over lines, at the program's end and before another statement.
    becomes(lines(...head, "rows = [", rows[0]!, '  ["Tom", 5,', rows[2]!, "]"), lines(...head, "rows = [", ...rows, "]"));
    becomes(lines("rows = [", '  ["Tom", 5,', rows[2]!, "]", ...head), lines("rows = [", rows[1]!, rows[2]!, "]", ...head));
    // Where the value after a list fits only inside it (a chart is no Card's variant).
    const pie = ['a = TextContent("Share", "small")', 'p = PieChart([s], "pie")', 's = Slice("Direct", 16)'];
    becomes(lines("root = Stack([c])", "c = Card([a, p)", ...pie), lines("root = Stack([c])", "c = Card([a, p])", ...pie));
  });

  test("yes and no where a boolean goes; a name defined in another style than its uses and the program's", () => {
    const row = (last: string) => lines(`root = Stack([a, b], "row", "m", "stretch", "start", ${last})`, ...TAIL);
    becomes(row("yes"), row("true"));
    becomes(row("No"), row("false"));
    becomes(row('"yes"'), row("true"));
    const named = (card: string, first: string, second: string) =>
      lines(`root = Stack([${card}, ${second}])`, `${card} = Card([${first}])`, `${first} = TextContent("Revenue")`, `${second} = TextContent("$12")`);
    // The program's names are in camel case: the definition is the one renamed.
    becomes(named("headerCard", "aText", "bText").replace("headerCard =", "header_card ="), named("headerCard", "aText", "bText"));
    // In snake case: the use is.
    becomes(named("header_card", "a_text", "b_text").replace("([a_text])", "([aText])"), named("header_card", "a_text", "b_text"));
  });

  test("a block comment; a listed value by its words or left out when it means none; a name by its list or its slot", () => {
    becomes(lines(ROOT, `${TAIL[0]} /* kpi */`, TAIL[1]!), lines(ROOT, ...TAIL));
    becomes(lines(ROOT, 'a = TextContent("Revenue", "bold-small")', TAIL[1]!), lines(ROOT, ...TAIL));
    // A style the library does not have: the component as it renders without one.
    becomes(lines("root = Stack([c])", 'c = Card([a, b], "fancy")', ...TAIL), lines("root = Stack([c])", "c = Card([a, b])", ...TAIL));
    becomes(lines('root = Stack([a, b], "diagonal", "m")', ...TAIL), lines('root = Stack([a, b], null, "m")', ...TAIL));
    // A listed value left empty: none.
    becomes(lines('root = Stack([a, b], "", "m")', ...TAIL), lines('root = Stack([a, b], null, "m")', ...TAIL));
    // A text is no style: left for the fixing model.
    expect(repair(lines('root = Stack([a, b], "Quarterly revenue by region", "m")', ...TAIL), lib).status).toBe("fix_failed");
    expect(repair(lines('root = Stack([a, b], "Revenue", "m")', ...TAIL), lib).status).toBe("fix_failed");
    const table = (cols: string) => lines("root = Stack([tbl])", "tbl = Table(cols, rows)", `cols = [${cols}]`, 'rows = [["Ava", "Ops", 3]]');
    const cols = 'Col("Name", "string"), Col("Team", "string"), Col("Years", "number")';
    becomes(table(cols.replace('Col("Team"', 'Th("Team"')), table(cols));
    becomes(table(cols.replace('Col("Years"', 'Field("Years"')), table(cols));
    const chart = (series: string) => lines("root = Stack([ch])", `ch = HorizontalBarChart(["North", "South"], [${series}("Revenue", [31, 18])], "grouped")`);
    becomes(chart("Dataset"), chart("Series"));
  });

  test("arguments in another order than one swap mends; a JSX element that closes itself", () => {
    restores('root = Stack("column", "m", [a, b])', ROOT);
    restores('root = Stack("m", [a, b], "column")', ROOT);
    becomes(lines(ROOT, 'a = <TextContent text="Revenue" size="small-heavy" />', TAIL[1]!), lines(ROOT, ...TAIL));
    becomes(lines(ROOT, TAIL[0]!, 'b = <TextContent size={"large-heavy"} text="$12"/>'), lines(ROOT, ...TAIL));
  });

  test("a statement that lists itself: the item goes, and an orphan it stood for is attached", () => {
    restores('root = Stack([a, b, root], "column", "m")', ROOT);
    restores('root = Stack([a, root], "column", "m")', ROOT);
    const row = (items: string) => lines("root = Stack([r])", `r = Stack([${items}], "row")`, ...TAIL);
    becomes(row("a, r, r, b"), row("a, b"));
  });

  test("a JSX element with children: text, expressions and elements, on one line or over lines", () => {
    becomes(lines(ROOT, 'a = <TextContent size="small-heavy">Revenue</TextContent>', TAIL[1]!), lines(ROOT, ...TAIL));
    restores('root = <Stack direction="column" gap="m">{a}{b}</Stack>', ROOT);
    restores(lines('root = <Stack direction="column" gap="m">', "  {a}", "  {b}", "</Stack>"), ROOT);
    restores('root = <Stack gap="m" direction="column">{[a, b]}</Stack>', ROOT);
    const note = 'n = Callout("info", "Getting started", "Three steps to your first dashboard.")';
    becomes(
      lines("root = Stack([n])", 'n = <Callout variant="info" title="Getting started">Three steps to your first dashboard.</Callout>'),
      lines("root = Stack([n])", note),
    );
    becomes(
      lines("root = Stack([n])", 'n = <Callout variant="info" title="Getting started">', "  Three steps to your first dashboard.", "</Callout>"),
      lines("root = Stack([n])", note),
    );
    // Elements inside elements; a text over lines keeps its line breaks (Markdown's mean something).
    becomes(
      lines(
        "root = Stack([k])",
        'k = <Card variant="sunk">',
        '  <TextContent size="small-heavy">Revenue</TextContent>',
        '  <TextContent size="large-heavy">$84,200</TextContent>',
        "</Card>",
      ),
      lines("root = Stack([k])", 'k = Card([TextContent("Revenue", "small-heavy"), TextContent("$84,200", "large-heavy")], "sunk")'),
    );
    becomes(
      lines("root = Stack([m])", 'm = <MarkDownRenderer variant="clear">', "  - 5 workspaces", "  - Unlimited projects", "</MarkDownRenderer>"),
      lines("root = Stack([m])", 'm = MarkDownRenderer("- 5 workspaces\\n- Unlimited projects", "clear")'),
    );
    // HTML elements are named by shape, the inner ones first: the outer one is named by what they became.
    becomes(
      lines("root = Stack([n])", "n = <div><h2>Getting started</h2><p>Three steps to your first dashboard.</p></div>"),
      lines("root = Stack([n])", 'n = Stack([TextContent("Getting started"), TextContent("Three steps to your first dashboard.")])'),
    );
  });

  test("a result that would lose the program's text is not a fix: the fixing model gets the original", () => {
    // A JSX element that does not read (its closing tag cut): its text children, one word too, are content.
    expect(repair(lines("root = Stack([n])", 'n = <Callout variant="info" title="Note">Read the terms first.</Callout'), lib).status).toBe("fix_failed");
    expect(repair(lines("root = Stack([t])", "t = <h1>Pricing</h1 <<>>"), lib).status).toBe("fix_failed");
    // A list over lines that cannot be read: the strings of its other rows are content, though a
    // slipped quote shifts them when the lines are read as one.
    const rows = repair(
      lines(
        'root = Stack([t], "column", "m")',
        "t = Table(cols, rows)",
        'cols = [Col("Feature", "string"), Col("Basic", "string")]',
        "rows = [",
        '  ["Workspaces, "1" <<>>],',
        '  ["Projects", "Up to 3"]',
        "]",
      ),
      lib,
    );
    expect(rows.status).toBe("fix_failed");
    // Nothing takes Gizmo's arguments, and a list is more than text: dropping it would lose its strings.
    const out = repair(lines("root = Stack([g])", 'g = Gizmo(["Quarterly numbers", "Yearly numbers"], [1, 2])'), lib);
    expect(out.status).toBe("fix_failed");
    expect(out.content).toBeNull();
    // Statements orphaned only because the line that used them cannot be read are content too.
    const hidden = repair(
      lines(
        "root = Stack([head, row])",
        'head = CardHeader("Title")',
        'row = Stack([k1, k2] <<>> "row")',
        'k1 = TextContent("Alpha", "small")',
        'k2 = TextContent("Beta", "small")',
      ),
      lib,
    );
    expect(hidden.status).toBe("fix_failed");
    // A used line that cannot be read holds its calls: dropping it is no fix. Unused, it may go.
    const card = 'box = Card([] <<>> "sunk")';
    expect(repair(lines("root = Stack([head, box])", 'head = CardHeader("Title")', card), lib).status).toBe("fix_failed");
    expect(repair(lines("root = Stack([head])", 'head = CardHeader("Title")', card), lib).status).toBe("fixed");
  });
});
