// Tessera's built-in chat component library, version 0.1.0: the library a managed-UI request gets
// with {"libraryVersion":"0.1.0"}. A JSON Schema whose `$defs` are the components; the key order of
// each component's `properties` is its positional argument order. Written for this project.

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/$defs/${name}` });
const str = (description?: string): Schema => (description ? { type: "string", description } : { type: "string" });

/** What may stand in a layout's children. */
const BLOCKS = [
  "Stack", "Card", "CardHeader", "Heading", "Text", "List", "Table", "BarChart", "LineChart", "PieChart",
  "Form", "Buttons", "Button", "Tabs", "Callout", "Image", "Badge", "Divider",
];
const children: Schema = { type: "array", items: { anyOf: BLOCKS.map(ref) } };
const cell: Schema = { type: ["string", "number", "boolean", "null"] };
const action: Schema = { description: "Action([...]) run on click" };

const defs: Record<string, Schema> = {
  Stack: {
    description: "Lays children out in a column or a row",
    properties: {
      children,
      direction: { type: "string", enum: ["column", "row"], default: "column" },
      gap: { type: "string", enum: ["none", "small", "medium", "large"], default: "medium" },
      align: { type: "string", enum: ["start", "center", "end", "stretch"], default: "stretch" },
    },
    required: ["children"],
  },
  Card: {
    description: "A framed group of content",
    properties: {
      children,
      title: str(),
      variant: { type: "string", enum: ["plain", "outlined", "elevated"], default: "outlined" },
    },
    required: ["children"],
  },
  CardHeader: {
    description: "Title line of a card or section",
    properties: { title: str(), subtitle: str() },
    required: ["title"],
  },
  Heading: {
    properties: { text: str(), level: { type: "integer", enum: [1, 2, 3], default: 2 } },
    required: ["text"],
  },
  Text: {
    properties: {
      text: str(),
      variant: { type: "string", enum: ["body", "strong", "muted", "caption", "code"], default: "body" },
    },
    required: ["text"],
  },
  List: {
    description: "Bulleted or numbered items",
    properties: {
      items: { type: "array", items: { anyOf: [{ type: "string" }, ref("ListItem")] } },
      ordered: { type: "boolean", default: false },
    },
    required: ["items"],
  },
  ListItem: {
    properties: { title: str(), description: str(), icon: str("icon name, e.g. check, alert, user") },
    required: ["title"],
  },
  Table: {
    properties: {
      columns: { type: "array", items: ref("Col") },
      rows: { type: "array", items: { type: "array", items: cell } },
      caption: str(),
    },
    required: ["columns", "rows"],
  },
  Col: {
    description: "A table column",
    properties: {
      label: str(),
      type: { type: "string", enum: ["text", "number", "currency", "percent", "date"], default: "text" },
      align: { type: "string", enum: ["left", "center", "right"] },
    },
    required: ["label"],
  },
  BarChart: {
    properties: {
      labels: { type: "array", items: { type: "string" } },
      series: { type: "array", items: ref("Series") },
      title: str(),
      stacked: { type: "boolean", default: false },
    },
    required: ["labels", "series"],
  },
  LineChart: {
    properties: {
      labels: { type: "array", items: { type: "string" } },
      series: { type: "array", items: ref("Series") },
      title: str(),
    },
    required: ["labels", "series"],
  },
  PieChart: {
    properties: {
      labels: { type: "array", items: { type: "string" } },
      values: { type: "array", items: { type: "number" } },
      title: str(),
    },
    required: ["labels", "values"],
  },
  Series: {
    description: "One named line or bar set; values align with the chart's labels",
    properties: { name: str(), values: { type: "array", items: { type: "number" } } },
    required: ["name", "values"],
  },
  Form: {
    description: "Inputs whose values are sent together",
    properties: {
      id: str("unique form id"),
      fields: { type: "array", items: { anyOf: ["Input", "TextArea", "Select", "Checkbox"].map(ref) } },
      buttons: ref("Buttons"),
    },
    required: ["id", "fields"],
  },
  Input: {
    properties: {
      name: str("field key"),
      label: str(),
      type: { type: "string", enum: ["text", "email", "number", "password", "date", "tel", "url"], default: "text" },
      placeholder: str(),
      required: { type: "boolean", default: false },
    },
    required: ["name", "label"],
  },
  TextArea: {
    properties: { name: str("field key"), label: str(), placeholder: str(), rows: { type: "integer", default: 3 } },
    required: ["name", "label"],
  },
  Select: {
    properties: {
      name: str("field key"),
      label: str(),
      options: { type: "array", items: { anyOf: [{ type: "string" }, ref("SelectOption")] } },
      placeholder: str(),
    },
    required: ["name", "label", "options"],
  },
  SelectOption: {
    properties: { value: str(), label: str() },
    required: ["value"],
  },
  Checkbox: {
    properties: { name: str("field key"), label: str(), checked: { type: "boolean", default: false } },
    required: ["name", "label"],
  },
  Button: {
    properties: {
      label: str(),
      action,
      variant: { type: "string", enum: ["primary", "secondary", "ghost", "danger"], default: "primary" },
    },
    required: ["label"],
  },
  Buttons: {
    description: "A row of buttons",
    properties: {
      buttons: { type: "array", items: ref("Button") },
      align: { type: "string", enum: ["start", "center", "end"], default: "end" },
    },
    required: ["buttons"],
  },
  Tabs: {
    properties: { tabs: { type: "array", items: ref("Tab") }, selected: str("id of the open tab") },
    required: ["tabs"],
  },
  Tab: {
    properties: { id: str(), label: str(), children },
    required: ["id", "label", "children"],
  },
  Callout: {
    description: "A highlighted message",
    properties: {
      text: str(),
      kind: { type: "string", enum: ["info", "success", "warning", "error"], default: "info" },
      title: str(),
    },
    required: ["text"],
  },
  Image: {
    properties: { src: str("https URL"), alt: str(), width: { type: "integer" }, caption: str() },
    required: ["src", "alt"],
  },
  Badge: {
    properties: {
      text: str(),
      tone: { type: "string", enum: ["neutral", "info", "success", "warning", "error"], default: "neutral" },
    },
    required: ["text"],
  },
  Divider: { description: "A horizontal rule", properties: {} },
};

for (const d of Object.values(defs)) d.type = "object";

export const chatLibrary010 = {
  id: "tessera-chat",
  root: "Stack",
  schema: { $defs: defs },
  componentGroups: [
    { name: "Layout", components: ["Stack", "Card", "CardHeader", "Tabs", "Tab", "Divider"], notes: ["Start every answer with root = Stack([...])."] },
    { name: "Text", components: ["Heading", "Text", "List", "ListItem", "Callout", "Badge"] },
    { name: "Data", components: ["Table", "Col", "BarChart", "LineChart", "PieChart", "Series"], notes: ["Keep table rows and chart values in their own statements."] },
    { name: "Forms", components: ["Form", "Input", "TextArea", "Select", "SelectOption", "Checkbox", "Buttons", "Button"] },
    { name: "Media", components: ["Image"] },
  ],
};

/** Programs in this library; the tests hold them valid with the real parser. */
export const examples010: string[] = [
  `root = Stack([title, summary, table])
title = Heading("Orders", 2)
summary = Text("Last 30 days: 3 orders.", "muted")
table = Table([Col("Id"), Col("Customer"), Col("Total", "currency", "right")], rows)
rows = [["A-1", "Ada", 12.5], ["A-2", "Grace", 40], ["A-3", "Linus", 7.25]]`,
  `root = Stack([card])
card = Card([chart, note], "Revenue")
chart = BarChart(["Q1", "Q2", "Q3"], [Series("2024", [10, 12, 15]), Series("2025", [11, 14, 18])], "Revenue by quarter")
note = Callout("Q3 2025 is the best quarter so far.", "success")`,
  `root = Stack([intro, form])
intro = Text("Tell us a little about you.")
form = Form("signup", [name, email, plan, terms], buttons)
name = Input("name", "Your name", "text", "Ada Lovelace", true)
email = Input("email", "Email", "email")
plan = Select("plan", "Plan", ["Free", "Pro", "Team"])
terms = Checkbox("terms", "I accept the terms")
buttons = Buttons([Button("Sign up", Action([@ToAssistant("Sign me up")]), "primary")])`,
  `root = Stack([tabs])
tabs = Tabs([overview, steps], "overview")
overview = Tab("overview", "Overview", [CardHeader("Deploy", "Production"), Badge("healthy", "success")])
steps = Tab("steps", "Steps", [List([ListItem("Build", "2 min", "check"), ListItem("Release", "pending")], true)])`,
];
