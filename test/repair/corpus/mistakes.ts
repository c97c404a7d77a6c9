// The mistake families of the repair corpus: each takes a valid program (its text and parsed
// statements) and a random source, and returns one realistic edit a model makes, inside one
// statement (or a line of prose), or null when the program offers no place for it. The families
// are the kinds of mistakes seen in real generations against the 53-component library.
import type { Expr, Library, Statement } from "../../../src/lang/index.ts";

export interface Mistake {
  family: Family;
  /** The statement it sits in (two mistakes never share one), or null for a line added. */
  statement: string | null;
  /** What the mistake threw away (a statement left out): content no repair can give back. */
  lost?: string;
  start: number;
  end: number;
  text: string;
}

export type Family =
  | "object-props"
  | "named-args"
  | "bare-children"
  | "swapped-args"
  | "foreign-name"
  | "misspelt-name"
  | "enum-synonym"
  | "js-ism"
  | "colon-assignment"
  | "missing-comma"
  | "bracket"
  | "object-for-component"
  | "two-line-statement"
  | "orphan-unlisted"
  | "number-as-string"
  | "prose-line"
  | "missing-statement"
  | "value-shape"
  | "formatting";

export interface Ctx {
  text: string;
  statements: Statement[];
  library: Library;
  rand: () => number;
  /** Statements already holding a mistake. */
  used: Set<string>;
}

type Call = Extract<Expr, { k: "call" }>;

const pick = <T>(rand: () => number, list: readonly T[]): T | undefined => (list.length ? list[Math.floor(rand() * list.length)] : undefined);

/** The mistake of the first of `ways`, drawn at random (six draws at most), that finds a place for one. */
function drawn(ctx: Ctx, ways: (() => Mistake | null)[]): Mistake | null {
  for (let tries = 0; tries < 6; tries++) {
    const m = pick(ctx.rand, ways)!();
    if (m) return m;
  }
  return null;
}

function kids(e: Expr): Expr[] {
  switch (e.k) {
    case "arr":
      return e.items;
    case "obj":
      return e.entries.map((x) => x.value);
    case "call":
    case "builtin":
      return e.args;
    case "member":
      return [e.obj];
    default:
      return [];
  }
}

function each(e: Expr, visit: (e: Expr, parent: Expr | null) => void, parent: Expr | null = null): void {
  visit(e, parent);
  for (const k of kids(e)) each(k, visit, e);
}

/** Every node of the free statements, with its statement. */
function nodes(ctx: Ctx, want: (e: Expr, parent: Expr | null, s: Statement) => boolean): { e: Expr; parent: Expr | null; s: Statement }[] {
  const out: { e: Expr; parent: Expr | null; s: Statement }[] = [];
  for (const s of ctx.statements) {
    if (ctx.used.has(s.id)) continue;
    each(s.expr, (e, parent) => want(e, parent, s) && out.push({ e, parent, s }));
  }
  return out;
}

/** The statements no mistake holds yet, state left out. */
const freeStatements = (ctx: Ctx) => ctx.statements.filter((s) => !ctx.used.has(s.id) && !s.id.startsWith("$"));

const src = (ctx: Ctx, e: Expr) => ctx.text.slice(e.start, e.end);
const isComponent = (ctx: Ctx, e: Expr): e is Call => e.k === "call" && ctx.library.components.has(e.name);

/** `Card({children: [...], variant: "card"})`. */
function objectProps(ctx: Ctx): Mistake | null {
  const hit = pick(
    ctx.rand,
    nodes(ctx, (e) => isComponent(ctx, e) && e.args.length >= 2),
  );
  if (!hit) return null;
  const call = hit.e as Call;
  const props = ctx.library.components.get(call.name)!.props;
  const body = call.args.map((a, i) => `${props[i].name}: ${src(ctx, a)}`).join(", ");
  return { family: "object-props", statement: hit.s.id, start: call.start, end: call.end, text: `${call.name}({${body}})` };
}

/** `Button(label="Go", action="x")` or `Button(label: "Go", ...)`, or after positional ones: `Stack([a, b], direction="row")`. */
function namedArgs(ctx: Ctx): Mistake | null {
  const hit = pick(
    ctx.rand,
    nodes(ctx, (e) => isComponent(ctx, e) && e.args.length >= 1),
  );
  if (!hit) return null;
  const call = hit.e as Call;
  const props = ctx.library.components.get(call.name)!.props;
  const sep = ctx.rand() < 0.5 ? "=" : ": ";
  const positional = call.args.length >= 2 && ctx.rand() < 0.35 ? 1 + Math.floor(ctx.rand() * (call.args.length - 1)) : 0;
  const body = call.args.map((a, i) => (i < positional ? src(ctx, a) : `${props[i].name}${sep}${src(ctx, a)}`)).join(", ");
  return { family: "named-args", statement: hit.s.id, start: call.start, end: call.end, text: `${call.name}(${body})` };
}

/** `Stack(header, main, "column")`: children not wrapped in their array; or a list's values, `Series("MAU", 1, 2)`. */
function bareChildren(ctx: Ctx): Mistake | null {
  const children = nodes(
    ctx,
    (e) => isComponent(ctx, e) && e.args[0]?.k === "arr" && e.args[0].items.length > 0 && e.args[0].items.every((i) => i.k === "ref" || i.k === "call"),
  ).map((n) => ({ s: n.s, arr: (n.e as Call).args[0] as Extract<Expr, { k: "arr" }> }));
  // A last argument that is a list of two or more literal values.
  const values = nodes(ctx, (e) => {
    if (!isComponent(ctx, e) || e.args.length < 2) return false;
    const last = e.args[e.args.length - 1];
    return last.k === "arr" && last.items.length >= 2 && last.items.every((i) => i.k === "str" || i.k === "num");
  }).map((n) => ({ s: n.s, arr: (n.e as Call).args.at(-1) as Extract<Expr, { k: "arr" }> }));
  const hit = pick(ctx.rand, values.length && ctx.rand() < 0.3 ? values : children);
  if (!hit) return null;
  const { arr } = hit;
  return { family: "bare-children", statement: hit.s.id, start: arr.start, end: arr.end, text: ctx.text.slice(arr.start + 1, arr.end - 1) };
}

const staticType = (e: Expr) => (e.k === "str" || e.k === "num" || e.k === "bool" || e.k === "arr" ? e.k : null);

/** Two neighbouring arguments of different types, swapped: `Slice(34, "Organic")`. */
function swappedArgs(ctx: Ctx): Mistake | null {
  const found: { s: Statement; call: Call; i: number }[] = [];
  for (const n of nodes(ctx, (e) => isComponent(ctx, e) && e.args.length >= 2)) {
    const call = n.e as Call;
    for (let i = 0; i + 1 < call.args.length; i++) {
      const a = staticType(call.args[i]);
      const b = staticType(call.args[i + 1]);
      if (a && b && a !== b) found.push({ s: n.s, call, i });
    }
  }
  const hit = pick(ctx.rand, found);
  if (!hit) return null;
  const [a, b] = [hit.call.args[hit.i], hit.call.args[hit.i + 1]];
  return { family: "swapped-args", statement: hit.s.id, start: a.start, end: b.end, text: `${src(ctx, b)}${ctx.text.slice(a.end, b.start)}${src(ctx, a)}` };
}

// Names models borrow from HTML and other UI libraries, by the component they meant.
export const FOREIGN: Record<string, string[]> = {
  Stack: ["Div", "Row", "Column", "VStack", "HStack", "Flex", "Container", "Box", "Section", "Group"],
  Card: ["Panel", "Box", "Container", "Section", "Paper"],
  TextContent: ["Text", "Paragraph", "P", "Typography", "Heading", "Span", "Subtitle", "Caption"],
  CardHeader: ["Header", "CardTitle", "Title"],
  Callout: ["Alert", "Banner", "Notice"],
  TextCallout: ["Alert", "Notice", "Message"],
  BarChart: ["Chart", "ColumnChart"],
  LineChart: ["Chart", "TrendChart"],
  AreaChart: ["Chart"],
  PieChart: ["Chart", "DonutChart"],
  HorizontalBarChart: ["Chart", "BarGraph"],
  Button: ["Btn", "PrimaryButton", "Link"],
  Table: ["DataTable", "Grid"],
  Tag: ["Badge", "Chip", "Pill"],
  TagBlock: ["Tags", "BadgeList"],
  Input: ["TextField", "TextInput"],
  TextArea: ["Textarea", "TextBox"],
  Select: ["Dropdown", "Picker"],
  SelectItem: ["Option", "MenuItem"],
  ImageBlock: ["Img", "Picture"],
  Separator: ["Divider", "Hr", "Line"],
  Buttons: ["ButtonGroup", "Toolbar", "Actions"],
  FormControl: ["Field", "FormField"],
  Steps: ["Stepper", "Timeline"],
  MarkDownRenderer: ["Markdown", "MarkdownText"],
  Tabs: ["TabList", "TabGroup"],
  Accordion: ["Collapse", "Collapsible"],
  Slider: ["Range", "RangeSlider"],
};

/** A component written under a name from HTML or another library: `Panel([...], "sunk")`. */
function foreignName(ctx: Ctx): Mistake | null {
  const hit = pick(
    ctx.rand,
    nodes(ctx, (e) => e.k === "call" && FOREIGN[e.name] !== undefined),
  );
  if (!hit) return null;
  const call = hit.e as Call;
  const name = pick(ctx.rand, FOREIGN[call.name])!;
  return { family: "foreign-name", statement: hit.s.id, start: call.start, end: call.nameEnd, text: name };
}

/** A letter dropped, doubled or two swapped in a component name. */
function misspeltName(ctx: Ctx): Mistake | null {
  const hit = pick(
    ctx.rand,
    nodes(ctx, (e) => isComponent(ctx, e) && e.name.length >= 4),
  );
  if (!hit) return null;
  const call = hit.e as Call;
  const n = call.name;
  const k = 1 + Math.floor(ctx.rand() * (n.length - 2));
  const how = Math.floor(ctx.rand() * 3);
  const text = how === 0 ? n.slice(0, k) + n.slice(k + 1) : how === 1 ? n.slice(0, k) + n[k] + n.slice(k) : n.slice(0, k) + n[k + 1] + n[k] + n.slice(k + 2);
  return text === n ? null : { family: "misspelt-name", statement: hit.s.id, start: call.start, end: call.nameEnd, text };
}

// What models write for a listed value: CSS and HTML words, sizes, other libraries' spellings.
export const SYNONYMS: Record<string, string[]> = {
  start: ["flex-start", "left", "top"],
  end: ["flex-end", "right", "bottom"],
  center: ["centre", "middle"],
  between: ["space-between"],
  around: ["space-around"],
  evenly: ["space-evenly"],
  row: ["horizontal"],
  column: ["vertical", "col"],
  "large-heavy": ["h1", "h2", "title", "heading"],
  "small-heavy": ["h4", "label", "subtitle"],
  small: ["sm", "caption"],
  large: ["lg", "h3"],
  default: ["body", "normal", "p"],
  s: ["sm", "small", "8px"],
  m: ["md", "medium", "16px"],
  l: ["lg", "large", "24px"],
  xl: ["32px", "x-large"],
  xs: ["4px", "x-small"],
  none: ["0", "0px"],
  danger: ["error", "destructive"],
  warning: ["warn"],
  error: ["danger"],
  success: ["ok", "positive"],
  info: ["information", "note"],
  primary: ["main", "default"],
  secondary: ["outline", "outlined"],
  tertiary: ["ghost", "link", "text"],
  destructive: ["danger"],
  sunk: ["sunken", "inset"],
  clear: ["transparent", "plain"],
  card: ["elevated", "raised"],
  donut: ["doughnut", "ring"],
  grouped: ["group", "clustered"],
  stacked: ["stack"],
  natural: ["smooth", "curved", "monotone"],
  linear: ["straight"],
  horizontal: ["row", "x"],
  number: ["numeric", "int", "integer"],
  string: ["text", "str"],
  md: ["medium", "m"],
  sm: ["small", "s"],
  lg: ["large", "l"],
};

function enumValues(ctx: Ctx): { s: Statement; e: Extract<Expr, { k: "str" }>; listed: string[] }[] {
  const out: { s: Statement; e: Extract<Expr, { k: "str" }>; listed: string[] }[] = [];
  for (const n of nodes(ctx, (e) => isComponent(ctx, e))) {
    const call = n.e as Call;
    const props = ctx.library.components.get(call.name)!.props;
    call.args.forEach((a, i) => {
      const listed = props[i]?.schema.enum;
      if (a.k === "str" && listed) out.push({ s: n.s, e: a, listed: listed.filter((v): v is string => typeof v === "string") });
    });
  }
  return out;
}

/** A listed value written another way: case, separators, or a well-known synonym. */
function enumSynonym(ctx: Ctx): Mistake | null {
  const hit = pick(ctx.rand, enumValues(ctx));
  if (!hit) return null;
  const v = hit.e.v;
  const ways: string[] = [];
  const synonyms = (SYNONYMS[v] ?? []).filter((w) => !hit.listed.includes(w));
  ways.push(...synonyms, ...synonyms); // the likeliest kind
  ways.push(v[0].toUpperCase() + v.slice(1), v.toUpperCase());
  if (v.includes("-"))
    ways.push(
      v.replace(/-/g, "_"),
      v.replace(/-/g, " "),
      v.replace(/-(.)/g, (_, c: string) => c.toUpperCase()),
    );
  const w = pick(
    ctx.rand,
    ways.filter((x) => x !== v && !hit.listed.includes(x)),
  )!;
  return w === undefined ? null : { family: "enum-synonym", statement: hit.s.id, start: hit.e.start, end: hit.e.end, text: JSON.stringify(w) };
}

/** JavaScript and Python habits: `const`/`let`, a semicolon, True/False/None, undefined, a template literal, a tuple, a percent sign, typographic quotes. */
function jsIsm(ctx: Ctx): Mistake | null {
  const s = pick(ctx.rand, freeStatements(ctx));
  if (!s) return null;
  const ways: (() => Mistake | null)[] = [
    () => ({ family: "js-ism", statement: s.id, start: s.start, end: s.start, text: ctx.rand() < 0.6 ? "const " : "let " }),
    () => ({ family: "js-ism", statement: s.id, start: s.end, end: s.end, text: ";" }),
    () => {
      const lits = nodes(ctx, (e, _p, st) => st === s && (e.k === "bool" || e.k === "null"));
      const lit = pick(ctx.rand, lits);
      if (!lit) return null;
      const e = lit.e;
      const text = e.k === "bool" ? (e.v ? "True" : "False") : ctx.rand() < 0.5 ? "None" : "undefined";
      return { family: "js-ism", statement: s.id, start: e.start, end: e.end, text };
    },
    () => {
      const strs = nodes(ctx, (e, _p, st) => st === s && e.k === "str" && !/[`$\\]/.test(e.v) && ctx.text[e.start] === '"');
      const str = pick(ctx.rand, strs);
      if (!str) return null;
      return { family: "js-ism", statement: s.id, start: str.e.start, end: str.e.end, text: `\`${(str.e as { v: string }).v}\`` };
    },
    () => {
      // Python's tuple for a list of values.
      const arr = s.expr;
      if (arr.k !== "arr" || arr.items.length < 2 || !arr.items.every((i) => i.k === "str" || i.k === "num")) return null;
      return { family: "js-ism", statement: s.id, start: arr.start, end: arr.end, text: `(${ctx.text.slice(arr.start + 1, arr.end - 1)})` };
    },
    () => {
      // A percentage written with its sign.
      const nums = nodes(ctx, (e, p, st) => st === s && e.k === "num" && p?.k === "call" && e.v > 0 && e.v <= 100);
      const num = pick(ctx.rand, nums);
      return num ? { family: "js-ism", statement: s.id, start: num.e.end, end: num.e.end, text: "%" } : null;
    },
    () => {
      // Typographic quotes, as a model copying from prose writes them.
      const strs = nodes(ctx, (e, _p, st) => st === s && e.k === "str" && !/["\\\u201c\u201d]/.test(e.v) && ctx.text[e.start] === '"');
      const str = pick(ctx.rand, strs);
      if (!str) return null;
      return { family: "js-ism", statement: s.id, start: str.e.start, end: str.e.end, text: `\u201c${(str.e as { v: string }).v}\u201d` };
    },
  ];
  return drawn(ctx, ways);
}

/** `title: TextContent(...)` for `title = TextContent(...)`, or `==`, `=>`, or no `=` before a call. */
function colonAssignment(ctx: Ctx): Mistake | null {
  const s = pick(
    ctx.rand,
    freeStatements(ctx).filter((x) => x.id !== "root"),
  );
  if (!s) return null;
  const eq = ctx.text.indexOf("=", s.start);
  const way = ctx.rand();
  const text = way < 0.6 ? ":" : way < 0.75 ? " ==" : way < 0.9 || s.expr.k !== "call" ? " =>" : "";
  return { family: "colon-assignment", statement: s.id, start: s.start + s.id.length, end: eq + 1, text };
}

/** A comma between two arguments or items left out. */
function missingComma(ctx: Ctx): Mistake | null {
  const gaps: { s: Statement; at: number }[] = [];
  for (const n of nodes(ctx, (e) => e.k === "call" || e.k === "arr")) {
    const list = n.e.k === "call" ? n.e.args : (n.e as Extract<Expr, { k: "arr" }>).items;
    for (let i = 0; i + 1 < list.length; i++) {
      const between = ctx.text.slice(list[i].end, list[i + 1].start);
      if (between === ", ") gaps.push({ s: n.s, at: list[i].end });
    }
  }
  const hit = pick(ctx.rand, gaps);
  return hit ? { family: "missing-comma", statement: hit.s.id, start: hit.at, end: hit.at + 1, text: "" } : null;
}

/**
 * A bracket left out before the next argument, the closer (`Card([a, b, "sunk")`) or an array's
 * opener (`Card(a, b], "sunk")`), or a closer too many at the statement's end.
 */
function bracket(ctx: Ctx): Mistake | null {
  const hits = nodes(ctx, (e, parent) => (e.k === "arr" || e.k === "call") && parent?.k === "call" && parent.args.indexOf(e) < parent.args.length - 1);
  const hit = pick(ctx.rand, hits);
  if (!hit) return null;
  const way = ctx.rand();
  if (way < 0.2) return { family: "bracket", statement: hit.s.id, start: hit.s.end, end: hit.s.end, text: ")" };
  if (way < 0.5 && hit.e.k === "arr") return { family: "bracket", statement: hit.s.id, start: hit.e.start, end: hit.e.start + 1, text: "" };
  return { family: "bracket", statement: hit.s.id, start: hit.e.end - 1, end: hit.e.end, text: "" };
}

/** A component in a list of that component written as an object of its props: `{label: "Name"}` for `Col("Name")`. */
function objectForComponent(ctx: Ctx): Mistake | null {
  const hits: { s: Statement; call: Call }[] = [];
  for (const n of nodes(ctx, (e) => isComponent(ctx, e))) {
    const holder = n.e as Call;
    const props = ctx.library.components.get(holder.name)!.props;
    holder.args.forEach((a, i) => {
      const ref = props[i]?.schema.items?.$ref;
      if (a.k !== "arr" || typeof ref !== "string") return;
      for (const item of a.items) if (item.k === "call" && ref.endsWith(`/${item.name}`) && item.args.length > 0) hits.push({ s: n.s, call: item });
    });
  }
  const hit = pick(ctx.rand, hits);
  if (!hit) return null;
  const props = ctx.library.components.get(hit.call.name)!.props;
  const body = hit.call.args.flatMap((a, i) => (a.k === "null" ? [] : [`${props[i].name}: ${src(ctx, a)}`])).join(", ");
  return { family: "object-for-component", statement: hit.s.id, start: hit.call.start, end: hit.call.end, text: `{${body}}` };
}

/** A statement broken over two lines after its `=`. */
function twoLine(ctx: Ctx): Mistake | null {
  const s = pick(
    ctx.rand,
    ctx.statements.filter((x) => !ctx.used.has(x.id)),
  );
  if (!s) return null;
  const eq = ctx.text.indexOf("=", s.start);
  return { family: "two-line-statement", statement: s.id, start: eq + 1, end: s.expr.start, text: "\n  " };
}

/** A statement left out of the list it belongs to (defined, never referenced: an orphan). */
function orphanUnlisted(ctx: Ctx): Mistake | null {
  const counts = new Map<string, number>();
  for (const s of ctx.statements) each(s.expr, (e) => e.k === "ref" && counts.set(e.name, (counts.get(e.name) ?? 0) + 1));
  const hits = nodes(ctx, (e, parent) => e.k === "ref" && parent?.k === "arr" && parent.items.length >= 2 && counts.get(e.name) === 1);
  const hit = pick(
    ctx.rand,
    hits.filter((h) => !ctx.used.has((h.e as { name: string }).name)),
  );
  if (!hit) return null;
  const items = (hit.parent as Extract<Expr, { k: "arr" }>).items;
  const i = items.indexOf(hit.e);
  const [start, end] = i + 1 < items.length ? [hit.e.start, items[i + 1].start] : [items[i - 1].end, hit.e.end];
  ctx.used.add((hit.e as { name: string }).name);
  return { family: "orphan-unlisted", statement: hit.s.id, start, end, text: "" };
}

/** A number (or boolean) written as a string. */
function numberAsString(ctx: Ctx): Mistake | null {
  const hit = pick(
    ctx.rand,
    nodes(ctx, (e, parent) => (e.k === "num" || e.k === "bool") && parent?.k === "call"),
  );
  return hit ? { family: "number-as-string", statement: hit.s.id, start: hit.e.start, end: hit.e.end, text: `"${src(ctx, hit.e)}"` } : null;
}

/**
 * A statement of data (a list, a text, a number) that a component's required argument refers
 * to, left out: the model named the data and never wrote it.
 */
function missingStatement(ctx: Ctx): Mistake | null {
  const counts = new Map<string, number>();
  for (const s of ctx.statements) each(s.expr, (e) => e.k === "ref" && counts.set(e.name, (counts.get(e.name) ?? 0) + 1));
  const data = new Map(ctx.statements.filter((s) => s.id !== "root" && ["arr", "str", "num"].includes(s.expr.k)).map((s) => [s.id, s]));
  const hits = nodes(ctx, (e, parent) => {
    if (e.k !== "ref" || parent?.k !== "call" || counts.get(e.name) !== 1 || !data.has(e.name) || ctx.used.has(e.name)) return false;
    const prop = ctx.library.components.get(parent.name)?.props[parent.args.indexOf(e)];
    return prop !== undefined && prop.required && !prop.hasDefault;
  });
  const hit = pick(ctx.rand, hits);
  if (!hit) return null;
  const s = data.get((hit.e as { name: string }).name)!;
  // The whole line, with its line break.
  const nl = ctx.text.indexOf("\n", s.end);
  const [start, end] = nl === -1 ? [ctx.text.lastIndexOf("\n", s.start), ctx.text.length] : [s.start, nl + 1];
  ctx.used.add(s.id);
  return { family: "missing-statement", statement: s.id, start, end, text: "", lost: ctx.text.slice(s.start, s.end) };
}

/** A line of prose before the program. */
function proseLine(ctx: Ctx): Mistake | null {
  const lines = ["Here is the interface you asked for:", "Sure! Below is the UI.", "This layout shows the data in cards."];
  return { family: "prose-line", statement: null, start: 0, end: 0, text: `${pick(ctx.rand, lines)}\n` };
}

export const FAMILIES: Record<Exclude<Family, "missing-statement" | "value-shape" | "formatting">, (ctx: Ctx) => Mistake | null> = {
  "object-props": objectProps,
  "named-args": namedArgs,
  "bare-children": bareChildren,
  "swapped-args": swappedArgs,
  "foreign-name": foreignName,
  "misspelt-name": misspeltName,
  "enum-synonym": enumSynonym,
  "js-ism": jsIsm,
  "colon-assignment": colonAssignment,
  "missing-comma": missingComma,
  bracket,
  "object-for-component": objectForComponent,
  "two-line-statement": twoLine,
  "orphan-unlisted": orphanUnlisted,
  "number-as-string": numberAsString,
  "prose-line": proseLine,
};

/**
 * A value written in the shape of what it holds rather than of its property: a string's `\n`
 * typed as line breaks (Markdown as a model writes it), a list of one value as the value alone
 * (`"required"` for `["required"]`), a call of a component that holds one text written as the
 * text, in a list that takes that component only (`"Name"` for `Col("Name")`).
 */
function valueShape(ctx: Ctx): Mistake | null {
  const ways: (() => Mistake | null)[] = [
    () => {
      const hit = pick(
        ctx.rand,
        nodes(ctx, (e) => e.k === "str" && ctx.text[e.start] === '"' && /\\n/.test(src(ctx, e)) && !/\\\\/.test(src(ctx, e))),
      );
      return hit ? { family: "value-shape", statement: hit.s.id, start: hit.e.start, end: hit.e.end, text: src(ctx, hit.e).replaceAll("\\n", "\n") } : null;
    },
    () => {
      const hit = pick(
        ctx.rand,
        nodes(ctx, (e, p) => {
          if (e.k !== "arr" || e.items.length !== 1 || (e.items[0].k !== "str" && e.items[0].k !== "num")) return false;
          // Only where the value alone does not fit: else it is no mistake.
          const prop = p?.k === "call" ? ctx.library.components.get(p.name)?.props[p.args.indexOf(e)] : undefined;
          return prop?.schema.type === "array" && prop.schema.anyOf === undefined;
        }),
      );
      return hit && hit.e.k === "arr"
        ? { family: "value-shape", statement: hit.s.id, start: hit.e.start, end: hit.e.end, text: src(ctx, hit.e.items[0]) }
        : null;
    },
    () => {
      const hits: { s: Statement; call: Call }[] = [];
      for (const n of nodes(ctx, (e) => isComponent(ctx, e))) {
        const holder = n.e as Call;
        holder.args.forEach((a, i) => {
          const ref = ctx.library.components.get(holder.name)!.props[i]?.schema.items?.$ref;
          if (a.k !== "arr" || typeof ref !== "string") return;
          for (const item of a.items) {
            if (item.k !== "call" || !ref.endsWith(`/${item.name}`) || item.args.length !== 1 || item.args[0].k !== "str") continue;
            const props = ctx.library.components.get(item.name)!.props;
            if (props.filter((p) => p.required).length === 1 && props[0].required) hits.push({ s: n.s, call: item });
          }
        });
      }
      const hit = pick(ctx.rand, hits);
      return hit ? { family: "value-shape", statement: hit.s.id, start: hit.call.start, end: hit.call.end, text: src(ctx, hit.call.args[0]) } : null;
    },
  ];
  return drawn(ctx, ways);
}

/**
 * Markup and slips around a statement's text: the statement written as a Markdown list item or in
 * backticks, a namespace before its call (`UI.Card(`), the root's `root =` left out, a string's
 * closing quote left out before the next argument (`"Contact us, "large-heavy"`).
 */
function formatting(ctx: Ctx): Mistake | null {
  const s = pick(ctx.rand, freeStatements(ctx));
  if (!s) return null;
  const at = (start: number, end: number, text: string): Mistake => ({ family: "formatting", statement: s.id, start, end, text });
  const ways: (() => Mistake | null)[] = [
    () => at(s.start, s.start, pick(ctx.rand, ["- ", "* ", "1. "])!),
    () => at(s.start, s.end, `\`${ctx.text.slice(s.start, s.end)}\``),
    () => (isComponent(ctx, s.expr) ? at(s.expr.start, s.expr.start, "UI.") : null),
    () => (s.id === "root" && isComponent(ctx, s.expr) ? at(s.start, s.expr.start, "") : null),
    () => {
      const hit = pick(
        ctx.rand,
        nodes(ctx, (e, p, st) => {
          if (st !== s || e.k !== "str" || p?.k !== "call" || /["'\\]/.test(e.v) || ctx.text[e.start] !== '"') return false;
          const next = p.args[p.args.indexOf(e) + 1];
          return next?.k === "str" && /^, "[A-Za-z]/.test(ctx.text.slice(e.end, next.start + 2));
        }),
      );
      return hit ? at(hit.e.end - 1, hit.e.end, "") : null;
    },
  ];
  return drawn(ctx, ways);
}

/**
 * Families drawn from a generator of their own (see makeCase), so that adding one leaves every
 * case drawn before as it was.
 */
export const LATER_FAMILIES: Record<string, (ctx: Ctx) => Mistake | null> = {
  "missing-statement": missingStatement,
  "value-shape": valueShape,
  formatting,
};
