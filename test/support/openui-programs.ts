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
