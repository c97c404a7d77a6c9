// Calls whose arguments are all there but not in the shape the signature wants: props written as
// one object (`Card({children: [...], variant: "card"})`), children or a list's values not wrapped
// in their array (`Stack(header, main, "column")`, `Series("MAU", 1, 2)`), two arguments swapped
// (`Slice(34, "Organic")`), a list after a list or a text with no comma between (read as an
// index), a number written with thousands separators (`3,400`, read as two), a list inside a
// list of its own (`[[a, b]]`) or around one value (`[Select(...)]`), data written as records
// (`BarChart([{month: "Oct", revenue: 198000}])`). Each call with a type mismatch or excess
// arguments is rewritten to the reading whose arguments all fit, by the checker's rules; when none
// fits it is left for the other passes.
import type { Component, Expr } from "../lang/index.ts";
import { TOOL_CALLS } from "../lang/check.ts";
import type { Edit } from "./edits.ts";
import { innermostAt, isLiteral, type CallExpr, type ObjExpr } from "./exprs.ts";
import { placesByName } from "./by-name.ts";
import { errorsOf, statementAt, type Round } from "./round.ts";
import { coerce, objectItemsAsCalls } from "./values.ts";

type Candidate = { args: Expr[]; edit: () => Edit[] };

// Past this many arguments no signature was meant: a call is not reshaped.
const MAX_RESHAPED_ARGS = 64;

const isElement = (round: Round, e: Expr): boolean => {
  if (e.k === "call") return !TOOL_CALLS.includes(e.name);
  if (e.k !== "ref") return false;
  const target = round.defs.get(e.name);
  return target === undefined ? /^[a-z_]/i.test(e.name) : target.kind === "component";
};

const wantsArray = (component: Component, at = 0) => {
  const t = component.props[at]?.schema.type;
  return t === "array" || (Array.isArray(t) && t.includes("array"));
};

/**
 * `{children: [...], variant: "card"}`, the only argument, as `c`'s positional arguments, each
 * entry where placesByName puts it (a key that names no property, by its value); null when two
 * entries would take one place, or none takes any.
 */
function byName(call: CallExpr, c: Component): Expr[] | null {
  const obj = call.args[0];
  if (call.args.length !== 1 || obj?.k !== "obj" || obj.entries.length === 0) return null;
  const places = placesByName(c, obj.entries);
  if (places === null) return null;
  const slots: Expr[] = [];
  obj.entries.forEach(({ value }, k) => {
    if (places[k] !== -1) slots[places[k]] = value;
  });
  if (slots.length === 0) return null;
  return Array.from(slots, (v) => v ?? ({ k: "null", start: -1, end: -1 } as Expr));
}

/** `{children: [...], variant: "card"}` as positional arguments, by property name. */
function fromObject(round: Round, call: CallExpr, component: Component): Candidate | null {
  const args = byName(call, component);
  if (!args) return null;
  return {
    args,
    edit: () => [
      { start: call.args[0].start, end: call.args[0].end, text: args.map((a) => (a.start < 0 ? "null" : round.text.slice(a.start, a.end))).join(", ") },
    ],
  };
}

/**
 * The list the first property wants, left out before values that each fit the property after
 * theirs (`Stack("column", "l")`): an empty one put first, which the statements beside it then
 * fill (graph.ts, as orphans).
 */
function listLeftOut(round: Round, call: CallExpr, component: Component): Candidate[] {
  const first = call.args[0];
  if (!first || first.k === "arr" || !wantsArray(component)) return [];
  if (!call.args.every((a, i) => isLiteral(a) && round.fit.fits(a, component, i + 1))) return [];
  const at = first.start;
  return [{ args: [{ k: "arr", items: [], start: at, end: at }, ...call.args], edit: () => [{ start: at, end: at, text: "[], " }] }];
}

/** Leading element arguments wrapped in the array the first property wants. */
function wrapped(round: Round, call: CallExpr, component: Component): Candidate[] {
  if (!wantsArray(component) || call.args.length === 0 || call.args[0].k === "arr") return [];
  let run = 0;
  while (run < call.args.length && isElement(round, call.args[run])) run++;
  const out: Candidate[] = [];
  for (let k = run; k >= 1; k--) {
    const items = call.args.slice(0, k);
    const arr: Expr = { k: "arr", items, start: items[0].start, end: items[k - 1].end };
    out.push({
      args: [arr, ...call.args.slice(k)],
      edit: () => [
        { start: items[0].start, end: items[0].start, text: "[" },
        { start: items[k - 1].end, end: items[k - 1].end, text: "]" },
      ],
    });
  }
  return out;
}

/**
 * A list property's values written one by one (`Series("MAU", 1, 2, 3)`, `BarChart("Q1", "Q2",
 * series)`, `Input("name", "Name", "text", "required")`): a run of literal values of one kind at
 * that property wrapped in its array, the whole run or, with more arguments than properties,
 * enough to leave one argument for each property after it; a value alone only where it does not
 * fit unwrapped.
 */
function wrappedRun(round: Round, call: CallExpr, component: Component): Candidate[] {
  const args = call.args;
  const out: Candidate[] = [];
  for (let k = 0; k < component.props.length && k < args.length; k++) {
    const kind = args[k].k;
    if (!wantsArray(component, k) || (kind !== "str" && kind !== "num" && kind !== "bool")) continue;
    let run = 1;
    while (k + run < args.length && args[k + run].k === kind) run++;
    for (const m of new Set([run, args.length - component.props.length + 1])) {
      if (m < 1 || m > run || (m === 1 && round.fit.fits(args[k], component, k))) continue;
      const items = args.slice(k, k + m);
      const arr: Expr = { k: "arr", items, start: items[0].start, end: items[m - 1].end };
      out.push({
        args: [...args.slice(0, k), arr, ...args.slice(k + m)],
        edit: () => [
          { start: arr.start, end: arr.start, text: "[" },
          { start: arr.end, end: arr.end, text: "]" },
        ],
      });
    }
  }
  return out;
}

/**
 * A list after a list or a text with no comma between (`BarChart(["Q1", "Q2"] [series])`,
 * `Form("search" [field])`): the parser reads the list as an index into the value before it.
 * Read again as two arguments.
 */
function splitIndex(round: Round, call: CallExpr): Candidate[] {
  const out: Candidate[] = [];
  call.args.forEach((a, i) => {
    if (a.k !== "index" || (a.obj.k !== "arr" && a.obj.k !== "str") || !/^\s+\[$/.test(round.text.slice(a.obj.end, a.index.start))) return;
    const second: Expr = { k: "arr", items: [a.index], start: a.index.start - 1, end: a.end };
    out.push({ args: [...call.args.slice(0, i), a.obj, second, ...call.args.slice(i + 1)], edit: () => [{ start: a.obj.end, end: a.obj.end, text: "," }] });
  });
  return out;
}

/**
 * A number written with thousands separators (`Slice("Organic", 3,400)`): the parser reads a
 * number per group. Read again as one number where each later group is three digits joined by
 * a bare comma.
 */
function thousands(round: Round, call: CallExpr): Candidate[] {
  const out: Candidate[] = [];
  const args = call.args;
  const text = (e: Expr) => round.text.slice(e.start, e.end);
  for (let i = 0; i + 1 < args.length; i++) {
    if (args[i].k !== "num" || !/^-?\d{1,3}$/.test(text(args[i]))) continue;
    let j = i + 1;
    while (j < args.length && args[j].k === "num" && round.text.slice(args[j - 1].end, args[j].start) === "," && /^\d{3}(\.\d+)?$/.test(text(args[j]))) {
      j++;
      if (text(args[j - 1]).includes(".")) break;
    }
    if (j === i + 1) continue;
    const [first, last] = [args[i], args[j - 1]];
    const digits = args.slice(i, j).map(text).join("");
    const merged: Expr = { k: "num", v: Number(digits), start: first.start, end: last.end };
    out.push({ args: [...args.slice(0, i), merged, ...args.slice(j)], edit: () => [{ start: first.start, end: last.end, text: digits }] });
    i = j - 1;
  }
  return out;
}

const itemsOf = (component: Component, at: number) => component.props[at]?.schema.items;
const componentAt = (round: Round, component: Component, at: number) => {
  const ref = itemsOf(component, at)?.$ref;
  return typeof ref === "string" ? round.library.components.get(ref.slice(ref.lastIndexOf("/") + 1)) : undefined;
};

/** Records, each with the same keys in the same order: the values of key `k` are `column(k)`. */
type Records = { keys: string[]; column(k: number): Expr[]; rows: ObjExpr[] };

/** A signature's first two places, read from records: their values, and how each is written. */
type FromRecords = { values: [Expr[], Expr[]]; texts: [string, string]; kept: 0 | 1 };

/**
 * Data written as records, as chart and table libraries take it (`BarChart([{month: "Oct",
 * revenue: 198000}, …], "grouped")`, `Table([{name: "Ava", salary: 132000}, …])`), where the
 * signature takes two lists instead: labels and series (seriesOf), or columns and rows (tableOf),
 * in the order written. Records in a statement of their own (`AreaChart(data, …)`) stay there,
 * as the part of the two that is most like them, and the other is written beside the name.
 */
function fromRecords(round: Round, call: CallExpr, component: Component): Candidate[] {
  const given = call.args[0];
  const data = given?.k === "ref" ? round.defs.get(given.name)?.expr : given;
  if (data?.k !== "arr" || data.items.length === 0 || !data.items.every((r) => r.k === "obj")) return [];
  const rows = data.items as ObjExpr[];
  const keys = rows[0].entries.map((e) => e.key);
  if (!rows.every((r) => r.entries.length === keys.length && r.entries.every((e, k) => e.key === keys[k]))) return [];
  const records: Records = { keys, rows, column: (k) => rows.map((r) => r.entries[k].value) };
  const source = (e: Expr) => round.text.slice(e.start, e.end);
  const read = seriesOf(component, records, round, source) ?? tableOf(component, records, round, source);
  if (!read) return [];
  const { start, end } = data;
  const args = [...read.values.map((items): Expr => ({ k: "arr", items, start, end })), ...call.args.slice(1)];
  const [first, second] = read.texts;
  if (given === data) return [{ args, edit: () => [{ start, end, text: `${first}, ${second}` }] }];
  const other = read.kept === 0 ? { start: given.end, end: given.end, text: `, ${second}` } : { start: given.start, end: given.start, text: `${first}, ` };
  return [{ args, edit: () => [{ start, end, text: read.texts[read.kept] }, other] }];
}

/** Labels (a list of texts) then series (a component of a name and a list of numbers): the text key and each number key. */
function seriesOf(component: Component, { keys, column }: Records, round: Round, source: (e: Expr) => string): FromRecords | null {
  const series = componentAt(round, component, 1);
  if (itemsOf(component, 0)?.type !== "string" || !series || series.props[0]?.schema.type !== "string" || itemsOf(series, 1)?.type !== "number") return null;
  const labelAt = keys.findIndex((_, k) => column(k).every((v) => v.k === "str"));
  const numbers = keys.flatMap((_, k) => (column(k).every((v) => v.k === "num") ? [k] : []));
  if (labelAt === -1 || numbers.length === 0 || numbers.length + 1 !== keys.length) return null;
  const labels = column(labelAt);
  const at = { start: labels[0].start, end: labels[0].end };
  const named = numbers.map(
    (k): Expr => ({
      k: "call",
      name: series.name,
      args: [
        { k: "str", v: keys[k], ...at },
        { k: "arr", items: column(k), ...at },
      ],
      ...at,
      nameEnd: at.start,
    }),
  );
  const list = (items: Expr[]) => `[${items.map(source).join(", ")}]`;
  return {
    values: [labels, named],
    texts: [list(labels), `[${numbers.map((k) => `${series.name}(${JSON.stringify(keys[k])}, ${list(column(k))})`).join(", ")}]`],
    kept: 0,
  };
}

/** Columns (a component of a label and, where it has one, a listed type) then rows (lists of values): a column per key. */
function tableOf(component: Component, { keys, column, rows }: Records, round: Round, source: (e: Expr) => string): FromRecords | null {
  const col = componentAt(round, component, 0);
  if (!col || col.props[0]?.schema.type !== "string" || itemsOf(component, 1)?.type !== "array") return null;
  if (!rows.every((r) => r.entries.every((e) => isLiteral(e.value)))) return null;
  // A column's type where the column component lists one: number when every value is one.
  const listed = col.props[1]?.schema.enum;
  const typed = keys.map((_, k) => {
    const kind = column(k).every((v) => v.k === "num") ? "number" : "string";
    return listed?.includes(kind) ? [kind] : [];
  });
  const at = { start: rows[0].start, end: rows[0].end };
  const cols = keys.map(
    (key, k): Expr => ({ k: "call", name: col.name, args: [key, ...typed[k]].map((v): Expr => ({ k: "str", v, ...at })), ...at, nameEnd: at.start }),
  );
  const lines = rows.map((r): Expr => ({ k: "arr", items: r.entries.map((e) => e.value), start: r.start, end: r.end }));
  const colText = (key: string, k: number) => `${col.name}(${[key, ...typed[k]].map((v) => JSON.stringify(v)).join(", ")})`;
  return {
    values: [cols, lines],
    texts: [`[${keys.map(colText).join(", ")}]`, `[${rows.map((r) => `[${r.entries.map((e) => source(e.value)).join(", ")}]`).join(", ")}]`],
    kept: 1,
  };
}

/**
 * What a list of one holds, in its place: a list written inside a list of its own
 * (`Card([[header, body]], "card")`), or one value where the place takes it alone
 * (`FormControl("Size", [Select(...)])`). Chosen, as every reading, only where it fits.
 */
function unnested(round: Round, call: CallExpr): Candidate[] {
  const out: Candidate[] = [];
  call.args.forEach((a, k) => {
    const inner = a.k === "arr" && a.items.length === 1 ? a.items[0] : null;
    if (!inner) return;
    out.push({
      args: call.args.map((x, i) => (i === k ? inner : x)),
      edit: () => [{ start: a.start, end: a.end, text: round.text.slice(inner.start, inner.end) }],
    });
  });
  return out;
}

/** Two arguments swapped back (either pair, nearest first). */
function swaps(round: Round, call: CallExpr): Candidate[] {
  const out: Candidate[] = [];
  const args = call.args;
  for (let gap = 1; gap < Math.min(args.length, 4); gap++) {
    for (let i = 0; i + gap < args.length; i++) {
      const j = i + gap;
      const a = args[i];
      const b = args[j];
      const swapped = args.slice();
      swapped[i] = b;
      swapped[j] = a;
      out.push({
        args: swapped,
        edit: () => [
          { start: a.start, end: b.end, text: round.text.slice(b.start, b.end) + round.text.slice(a.end, b.start) + round.text.slice(a.start, a.end) },
        ],
      });
    }
  }
  return out;
}

// Past this many arguments no order is searched (their permutations grow as a factorial).
const MAX_REORDERED_ARGS = 6;

/**
 * The arguments in the order where each fits its place, the nearest such order to the one written
 * (`Stack("column", "l", [header, main])`: three moved, past what one swap mends); none when no
 * order fits, or the call has too many arguments to try them all.
 */
function reordered(round: Round, call: CallExpr, component: Component): Candidate[] {
  const args = call.args;
  if (args.length < 3 || args.length > MAX_REORDERED_ARGS || args.length > component.props.length) return [];
  // Which argument may stand at each place, by the checker's rules.
  const fits = args.map((a) => args.map((_, place) => round.fit.fits(a, component, place)));
  let best: number[] | null = null;
  let bestMoved = Infinity;
  const order: number[] = [];
  const used = new Array<boolean>(args.length).fill(false);
  const search = (place: number, moved: number) => {
    if (moved >= bestMoved) return;
    if (place === args.length) {
      [best, bestMoved] = [order.slice(), moved];
      return;
    }
    for (let i = 0; i < args.length; i++) {
      if (used[i] || !fits[i][place]) continue;
      used[i] = true;
      order.push(i);
      search(place + 1, moved + Math.abs(i - place));
      order.pop();
      used[i] = false;
    }
  };
  search(0, 0);
  if (best === null || bestMoved === 0) return [];
  const chosen: number[] = best;
  return [
    {
      args: chosen.map((i) => args[i]),
      edit: () => {
        // Each argument's text at its new place, the separators written between places kept.
        let text = "";
        chosen.forEach((i, place) => {
          text += round.text.slice(args[i].start, args[i].end);
          if (place < chosen.length - 1) text += round.text.slice(args[place].end, args[place + 1].start);
        });
        return [{ start: args[0].start, end: args[args.length - 1].end, text }];
      },
    },
  ];
}

/**
 * The readings of an unknown call's arguments were it `component` (names.ts scores each), as
 * reshapeCalls would write them: by property name, wrapped, or `swapped`.
 */
export function argReadings(round: Round, call: CallExpr, component: Component): { args: Expr[]; swapped: boolean }[] {
  const object = fromObject(round, call, component);
  const out = object ? [{ args: object.args, swapped: false }] : [];
  if (call.args.length > MAX_RESHAPED_ARGS) return out;
  for (const c of [...wrapped(round, call, component), ...wrappedRun(round, call, component)]) out.push({ args: c.args, swapped: false });
  for (const c of swaps(round, call)) out.push({ args: c.args, swapped: true });
  return out;
}

/**
 * `args` with each value that does not fit `c` but that values.ts would mend (`"Card"` for "card",
 * `"6"` for 6, a list's objects as the component its items are) as mended.
 */
export function mendedValues(round: Round, args: Expr[], c: Component): Expr[] {
  let out: Expr[] | null = null;
  args.forEach((a, i) => {
    if (i >= c.props.length || a.k === "null" || round.fit.fits(a, c, i)) return;
    const { schema } = c.props[i];
    let value: Expr | null | undefined;
    if (a.k === "arr") value = objectItemsAsCalls(a, schema, round.library);
    else {
      const text = coerce(a, round.text.slice(a.start, a.end), schema);
      value = text === null ? null : literalOf(text, a);
    }
    if (value) (out ??= args.slice())[i] = value;
  });
  return out ?? args;
}

/** The literal a coercion wrote, as an expression standing where `at` stands. */
function literalOf(text: string, at: Expr): Expr | undefined {
  const { start, end } = at;
  if (text === "true" || text === "false") return { k: "bool", v: text === "true", start, end };
  if (text.startsWith('"')) return { k: "str", v: JSON.parse(text) as string, start, end };
  const n = Number(text);
  return Number.isFinite(n) ? { k: "num", v: n, start, end } : undefined;
}

/** Calls reshaped so that their arguments fit. */
export function reshapeCalls(round: Round): Edit[] {
  const edits: Edit[] = [];
  const done = new Set<number>();
  for (const error of errorsOf(round, "type-mismatch", "excess-args", "missing-required")) {
    const component = round.library.components.get(error.component ?? "");
    const at = error.code === "missing-required" ? error.at - 1 : error.at;
    const stmt = statementAt(round, at);
    if (!component || !stmt) continue;
    const hit = innermostAt(stmt.expr, at, (e) => e.k === "call" && e.name === component.name && e.start < at);
    if (!hit || hit.e.k !== "call" || done.has(hit.e.start)) continue;
    const call = hit.e;
    done.add(call.start);
    if (call.args.length > MAX_RESHAPED_ARGS) continue;
    // Scored with each value as the value passes will mend it (a listed value by meaning, a number in quotes).
    const now = round.fit.score(mendedValues(round, call.args, component), component);
    if (now.perfect) continue; // the mismatch is inside an argument, not in their shape
    const object = fromObject(round, call, component);
    const candidates = [
      ...(object ? [object] : []),
      ...listLeftOut(round, call, component),
      ...wrapped(round, call, component),
      ...wrappedRun(round, call, component),
      ...splitIndex(round, call),
      ...thousands(round, call),
      ...unnested(round, call),
      ...fromRecords(round, call, component),
      ...swaps(round, call),
      ...reordered(round, call, component),
    ];
    // The first reading where every argument fits; else one that leaves a single argument that
    // does not (a value with a mistake of its own, mended next round), far better than the call
    // as written and with nothing in excess.
    let chosen: Candidate | null = null;
    let close: { c: Candidate; score: number } | null = null;
    for (const c of candidates) {
      const fit = round.fit.score(mendedValues(round, c.args, component), component);
      if (fit.perfect) {
        chosen = c;
        break;
      }
      const misfits = mendedValues(round, c.args, component).filter((a, i) => a.k !== "null" && !round.fit.fits(a, component, i)).length;
      // Props written as one object are read by name whenever that reads better; a wrap or a
      // swap only when it reads much better.
      const better = c === object ? fit.score > now.score : fit.score >= now.score + 2;
      if (c.args.length <= component.props.length && misfits <= 1 && better && (!close || fit.score > close.score)) close = { c, score: fit.score };
    }
    chosen ??= close?.c ?? null;
    if (chosen) edits.push(...chosen.edit());
  }
  return edits;
}
