// Programs for the built-in libraries (src/library), as a model would answer: one valid program per
// library and, for the chat library, answers with mistakes that the repair mends.

/** A valid program for @openuidev/thesys's chat library ({"libraryVersion":"0.1.0"}). */
export const CHAT_ORDERS = `root = Card([header, tbl, chart])
header = Header("Orders", "Last 7 days")
tbl = Table([Col("Order", "string"), Col("Total", "number")], [["A-1", 20], ["A-2", 35]])
chart = BarChart(["Mon", "Tue"], [{category: "Orders", values: [3, 5]}])`;

/** Another, with a bar chart and follow-up buttons. */
export const CHAT_REVENUE = `root = Card([title, chart, buttons])
title = TextContent("Revenue by quarter", "large-heavy")
chart = BarChart(["Q1", "Q2", "Q3", "Q4"], [{category: "2025", values: [120, 135, 160, 190]}], "default", "grouped", "Revenue", "Quarterly, in thousands")
buttons = ButtonGroup([Button("Show 2024"), Button("Break down by region")])`;

const SLIDES = `s1 = Slide("intro", StandardTitle("Quarterly review", "Q3 2026"))
s2 = Slide("points", ContentClassic("Highlights", ["Revenue up 12%", "Two new markets"]))
s3 = Slide("chart", ChartWithContext("Revenue", BarChartV2({data: {labels: ["Q1", "Q2", "Q3"], series: [{category: "Revenue", values: [10, 12, 14]}]}, unit: "m"}), "Steady growth"))`;

const PAGES = `p1 = Page("front", MinimalFrontPage("Market report", TextContent("An overview of the market.")))
p2 = Page("body", ContentPage([InlineHeader("Findings"), KeyStatement("Demand doubled."), tbl]))
tbl = Table([Column("Region"), Column("Sales", "number")], [["North", 120], ["South", 95]])`;

/** The package's first example program (react-ui gives examples; each has a title line first). */
function example(titled: string): string {
  return titled.slice(titled.indexOf(":\n\n") + 3);
}

/** One valid program for each built-in library, by its name. */
export function validProgramFor(name: string, examples: string[]): string {
  const programs: Record<string, string> = {
    "0.1.0": CHAT_ORDERS,
    "thesys/chat": CHAT_ORDERS,
    "thesys/presentation": `root = Presentation({title: "Quarterly review", subtitle: "Q3 2026"}, [s1, s2, s3])\n${SLIDES}`,
    "thesys/slideshow": `root = SlideShow("Quarterly review", "Q3 2026", [s1, s2, s3])\n${SLIDES}`,
    "thesys/report": `root = Report({title: "Market report"}, [p1, p2])\n${PAGES}`,
    "thesys/report-view": `root = ReportView("Market report", "2026", [p1, p2])\n${PAGES}`,
    "thesys/dashboard": `root = Dashboard([header, section])
header = DashboardHeader("Sales", "This week")
section = Section([row])
row = CardRow([card])
card = MediumCard([DashboardCardHeader("Revenue"), chart])
chart = BarChart(["Mon", "Tue"], [Series("Revenue", [3, 5])])`,
  };
  return programs[name] ?? example(examples[0]!);
}

/**
 * Answers with the mistakes models make, made from a valid program: a component name in the
 * wrong case, a statement left over that nothing uses, and a component's statement that never came
 * (the last one; without its data the repair could only drop what needs it).
 */
export function mistakesOf(program: string): string[] {
  const lines = program.split("\n");
  const call = /= ([A-Z][A-Za-z0-9]*)\(/;
  const at = lines.findIndex((l, i) => i > 0 && call.test(l));
  const misspelt = lines.map((l, i) => (i === at ? l.replace(call, (_, n: string) => `= ${n.toLowerCase()}(`) : l)).join("\n");
  const orphan = `${program}\nleftover = ${lines[at]!.slice(lines[at]!.indexOf("=") + 2)}`;
  const last = lines.findLastIndex((l, i) => i > 0 && call.test(l));
  const cut = lines.filter((_, i) => i !== last).join("\n");
  return [misspelt, orphan, cut];
}
