// Passes over values that do not fit their property: an enum value off by case or a near miss
// becomes the listed value; a number or boolean in a string (or the reverse; `"yes"` for true,
// `"six"` for 6) takes the wanted type; an object or a text where a component goes becomes that
// component's call, a statement's name in quotes the reference.
import type { Component, Expr, Library, PropSchema, Statement } from "../lang/index.ts";
import { argumentLeftOut, itemLeftOut, type Edit } from "./edits.ts";
import { calls, innermostAt, isLiteral, type ArrExpr, type CallExpr, type ObjExpr } from "./exprs.ts";
import { nearest } from "./nearest.ts";
import { placesByName } from "./by-name.ts";
import { listedByMeaning, truthOf } from "./meaning.ts";
import { numberIn } from "./mend.ts";
import { errorsOf, statementAt, type Round } from "./round.ts";

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

// A count written out in words (`"six"` rows): the numbers models spell most.
const NUMBER_WORDS = new Map<string, number>([
  ..."zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"
    .split(" ")
    .map((w, i): [string, number] => [w, i]),
  ["thirty", 30],
  ["forty", 40],
  ["fifty", 50],
  ["hundred", 100],
]);

/** The schema and its anyOf/oneOf branches, flattened. */
function branches(schema: PropSchema | undefined): PropSchema[] {
  if (!schema) return [];
  const nested = schema.anyOf ?? schema.oneOf ?? [];
  return [schema, ...nested.flatMap(branches)];
}

/** Follows references to value statements, as the checker does for static values. */
function resolve(round: Round, value: Expr | undefined, seen = new Set<string>()): Expr | undefined {
  while (value?.k === "ref" && !seen.has(value.name)) {
    seen.add(value.name);
    const target: Statement | undefined = round.defs.get(value.name);
    if (!target || target.kind === "query" || target.kind === "mutation" || target.kind === "state") return undefined;
    value = target.expr;
  }
  return value;
}

/** The value at a checker path (`/prop/2/key`) of a call, with the schema it must fit. */
function locate(round: Round, call: CallExpr, path: string): { value: Expr; schema: PropSchema; arg: Arg | null } | null {
  const component = round.library.components.get(call.name);
  const [propName, ...rest] = path.split("/").slice(1);
  const index = component?.props.findIndex((p) => p.name === propName) ?? -1;
  if (!component || index < 0) return null;
  let value = resolve(round, call.args[index]);
  let schema: PropSchema | undefined = component.props[index].schema;
  for (const seg of rest) {
    if (value?.k === "arr") {
      value = resolve(round, value.items[Number(seg)]);
      schema = branches(schema).find((b) => b.items)?.items;
    } else if (value?.k === "obj") {
      value = resolve(round, value.entries.find((e) => e.key === seg)?.value);
      schema = branches(schema).find((b) => b.properties?.[seg])?.properties?.[seg];
    } else return null;
  }
  const arg = rest.length === 0 && value === call.args[index] ? { call, index, optional: !component.props[index].required } : null;
  return value && schema ? { value, schema, arg } : null;
}

/** A value written as a call's argument itself (not reached through a reference or inside one). */
type Arg = { call: CallExpr; index: number; optional: boolean };

// A word or two in lower case, as a style is named, or nothing (`""`, a value left empty): a text
// (`"Revenue"`, a sentence) where a listed value goes is kept for the fixing model.
const STYLE_WORD = /^(?:[a-z][A-Za-z0-9_-]{0,23}(?: [a-z][a-z0-9_-]{0,23})?|[ \t]*)$/;

/** The component `schema` (or one of its branches) names by `$ref`, when exactly one. */
export function namedComponent(schema: PropSchema | undefined, library: Library): Component | null {
  return componentOf(branches(schema), library);
}

function componentOf(all: PropSchema[], library: Library): Component | null {
  const named = [...new Set(all.flatMap((b) => (typeof b.$ref === "string" ? [b.$ref.slice(b.$ref.lastIndexOf("/") + 1)] : [])))];
  return named.length === 1 ? (library.components.get(named[0]) ?? null) : null;
}

/**
 * An object written where a component goes (`{label: "Name", type: "string"}` for `Col`): the
 * component called with its entries as arguments, each in the place its key names (by-name.ts).
 * Null unless every entry finds a place.
 */
function objectAsCall(value: ObjExpr, source: string, component: Component): string | null {
  const args = entriesAsArgs(value, component);
  return args && `${component.name}(${Array.from(args, (a) => (a ? within(source, value, a) : "null")).join(", ")})`;
}

/** The text of `inner`, a part of `outer` whose text is `source`. */
const within = (source: string, outer: Expr, inner: Expr) => source.slice(inner.start - outer.start, inner.end - outer.start);

/** An object's entries as `component`'s arguments, each in the place its key names; null unless every entry finds one. */
function entriesAsArgs(value: ObjExpr, component: Component): (Expr | undefined)[] | null {
  const places = placesByName(component, value.entries);
  if (places === null || places.includes(-1)) return null;
  const args: (Expr | undefined)[] = [];
  value.entries.forEach(({ value: v }, k) => {
    args[places[k]] = v;
  });
  return args;
}

/**
 * A list whose objects stand where its items are one component (`[Tag("a"), {text: "b"}]` where
 * Tags go) with those objects as the calls objectAsCall writes: the list as the value passes will
 * have mended it, for a fit (names.ts). Null when no object is one.
 */
export function objectItemsAsCalls(list: ArrExpr, schema: PropSchema, library: Library): ArrExpr | null {
  const component = namedComponent(branches(schema).find((b) => b.items)?.items, library);
  if (!component) return null;
  let changed = false;
  const items = list.items.map((item) => {
    const args = item.k === "obj" ? entriesAsArgs(item, component) : null;
    if (!args) return item;
    changed = true;
    const none = (): Expr => ({ k: "null", start: item.start, end: item.start });
    return {
      k: "call",
      name: component.name,
      args: Array.from(args, (a) => a ?? none()),
      start: item.start,
      end: item.end,
      nameEnd: item.start,
    } satisfies CallExpr;
  });
  return changed ? { ...list, items } : null;
}

/** Whether a property takes free text (a string, not one of listed values). */
export const freeText = (schema: PropSchema) => schema.type === "string" && schema.enum === undefined;

/**
 * A text where a component goes whose required properties are its first one or two, all free
 * text (`"Billing"` for `SelectItem(value, label)`): the component with the text in each, as an
 * HTML option without a value takes its text for one. Null for any other component.
 */
function textAsCall(source: string, component: Component): string | null {
  const required = component.props.filter((p) => p.required).length;
  const leading = component.props.slice(0, required);
  if (required === 0 || required > 2 || !leading.every((p) => p.required && freeText(p.schema))) return null;
  return `${component.name}(${Array(required).fill(source).join(", ")})`;
}

/**
 * A row written as an object where a list of values goes (`{name: "Ava", salary: 132000}` for a
 * table's `["Ava", 132000]`): its values, in the order written. Null unless each is a literal.
 */
function objectAsRow(value: ObjExpr, source: string): string | null {
  if (value.entries.length === 0 || !value.entries.every((e) => isLiteral(e.value) || e.value.k === "null")) return null;
  return `[${value.entries.map((e) => within(source, value, e.value)).join(", ")}]`;
}

/** The JSON types schema branches allow. */
const typesOf = (all: PropSchema[]) => new Set(all.flatMap((b) => (b.type === undefined ? [] : Array.isArray(b.type) ? b.type : [b.type])));

/** The text that makes `value` fit `schema`, or null when no safe coercion exists. */
export function coerce(value: Expr, source: string, schema: PropSchema, library?: Library): string | null {
  const all = branches(schema);
  const component = library && (value.k === "obj" || value.k === "str") ? componentOf(all, library) : null;
  if (component) return value.k === "obj" ? objectAsCall(value, source, component) : textAsCall(source, component);
  const types = typesOf(all);
  if (value.k === "obj") return types.has("array") ? objectAsRow(value, source) : null;
  const listed = all.flatMap((b) => b.enum ?? []);
  if (listed.length) {
    if (value.k === "str") {
      const strings = listed.filter((v): v is string => typeof v === "string");
      // By meaning (case, separators, synonyms, a size in pixels, a prefix) before spelling.
      const match = listedByMeaning(value.v, strings) ?? nearest(value.v, strings);
      if (match !== null && match !== undefined) return JSON.stringify(match);
      const num = listed.find((v) => typeof v === "number" && NUMBER.test(value.v.trim()) && Number(value.v) === v);
      return num === undefined ? null : String(num);
    }
    if ((value.k === "num" || value.k === "bool") && listed.includes(String(value.v))) return JSON.stringify(String(value.v));
    return null;
  }
  if (value.k === "str") {
    const text = value.v.trim();
    if ((types.has("number") || (types.has("integer") && Number.isInteger(Number(text)))) && NUMBER.test(text)) return text;
    // A number with its sign, separators or word (`"$1,200"`, `"16px"`, `"6 rows"`): the number.
    const held = numberIn(text);
    if (held !== null && (types.has("number") || (types.has("integer") && Number.isInteger(Number(held))))) return held;
    const spelt = NUMBER_WORDS.get(text.toLowerCase());
    if ((types.has("number") || types.has("integer")) && spelt !== undefined) return String(spelt);
    const truth = types.has("boolean") ? truthOf(text) : null;
    if (truth !== null) return truth;
  }
  if ((value.k === "num" || value.k === "bool") && types.has("string")) return JSON.stringify(source);
  return null;
}

type Mismatch = { value: Expr; schema: PropSchema; arg: Arg | null; stmt: Statement };

// A round's mismatches, found once for the passes of several phases that read them.
const mismatchesOf = new WeakMap<Round, Mismatch[]>();

/** The value each type mismatch sits in, with its schema and statement (those that can be found). */
function mismatches(round: Round): Mismatch[] {
  let out = mismatchesOf.get(round);
  if (out === undefined) mismatchesOf.set(round, (out = located(round)));
  return out;
}

function located(round: Round): Mismatch[] {
  const out: Mismatch[] = [];
  for (const error of errorsOf(round, "type-mismatch")) {
    if (error.path === undefined || error.component === undefined) continue;
    const stmt = statementAt(round, error.at);
    if (!stmt) continue;
    // The call whose argument the error sits in: it starts before the offending value, or (a value
    // of another statement, reached by reference) it is a call of the error's statement that reaches it.
    const hit = innermostAt(stmt.expr, error.at, (e) => e.k === "call" && e.name === error.component && e.start < error.at);
    let found = hit && hit.e.k === "call" ? locate(round, hit.e, error.path) : null;
    const owner = found === null && error.statementId !== undefined ? round.defs.get(error.statementId) : undefined;
    for (const call of owner ? calls(owner.expr) : []) {
      if (found !== null) break;
      const at = call.name === error.component ? locate(round, call, error.path) : null;
      if (at?.value.start === error.at) found = at;
    }
    if (found) out.push({ ...found, stmt });
  }
  return out;
}

/** Type mismatches that a coercion fixes, as edits of the offending value. */
export function mismatchedValues(round: Round): Edit[] {
  const edits: Edit[] = [];
  for (const { value, schema, stmt } of mismatches(round)) {
    const source = round.text.slice(value.start, value.end);
    // A statement's name in quotes where a component goes (`Card([header, "chart"])`): the reference.
    const named = value.k === "str" ? round.defs.get(value.v) : undefined;
    if (named?.kind === "component" && named.id !== stmt.id) {
      edits.push({ start: value.start, end: value.end, text: named.id });
      continue;
    }
    const text = coerce(value, source, schema, round.library);
    if (text !== null && text !== source) edits.push({ start: value.start, end: value.end, text });
  }
  return edits;
}

/**
 * An optional argument's listed value that means none of the listed ones (`"fancy"` where a
 * Card takes card, sunk or clear: a style the library does not have; `""`): left out, so that the
 * component renders as it does without it (`null` where arguments follow), rather than the
 * program failing for it. Only once nothing else reads the call another way.
 */
export function unlistedValues(round: Round): Edit[] {
  const edits: Edit[] = [];
  for (const { value, schema, arg } of mismatches(round)) {
    if (!arg?.optional || value.k !== "str" || !STYLE_WORD.test(value.v) || !branches(schema).some((b) => b.enum?.length)) continue;
    if (coerce(value, round.text.slice(value.start, value.end), schema, round.library) !== null) continue;
    edits.push(argumentLeftOut(arg.call.args, arg.index));
  }
  return edits;
}

/**
 * Options written as an object after the positional arguments, as JavaScript passes them
 * (`Button("Go", "go", {variant: "primary"})`, `Card([a], "card", {padding: 16})`), in a place
 * that takes no object: its braces taken off, so that its entries read as named arguments (the
 * broken-line pass places each by its property's name, and drops a style's). An empty one goes.
 */
export function optionsObjects(round: Round): Edit[] {
  const edits: Edit[] = [];
  for (const { value, schema, arg } of mismatches(round)) {
    if (value.k !== "obj" || !arg || arg.index === 0 || arg.index !== arg.call.args.length - 1 || typesOf(branches(schema)).has("object")) continue;
    const inside = round.text.slice(value.start + 1, value.end - 1).trim();
    edits.push(inside ? { start: value.start, end: value.end, text: inside } : itemLeftOut(arg.call.args, arg.index));
  }
  return edits;
}
