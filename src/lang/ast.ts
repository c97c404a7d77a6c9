// Turns the parser's flat tree (postorder, see src/grammar/compile.ts) into expression trees.
// The tree keeps tokens as leaves and drops single-child wrappers, so each case below reads
// the rules that can actually appear.
import type { Expr } from "./types.ts";
import type { Tree } from "./engine.ts";
import { RULE, RULE_NAMES } from "./generated/rules.ts";

const R = RULE;
// Nodes that carry no meaning for the AST: white space with newlines and line ends.
const NOISE = new Uint8Array(RULE_NAMES.length);
for (const rule of [R.gap, R.ternaryBreak, R.nl, R.lineEnd, R.sameLine]) NOISE[rule] = 1;

// Children lists live on one shared stack rather than in an array per node: `pushChildren`
// puts node i's children on top (source order) and returns where they start; the caller reads
// them from `kids` and pops them by resetting `top`. Nested pushes stay above and are popped
// first, so a list stays valid while its items are built.
let kids = new Int32Array(256);
let top = 0;

function pushChildren(d: Int32Array, i: number): number {
  const from = top;
  const first = i - d[i * 4 + 3] + 1;
  for (let j = i - 1; j >= first; j -= d[j * 4 + 3]) {
    if (NOISE[d[j * 4]]) continue;
    if (top === kids.length) {
      const bigger = new Int32Array(top * 2);
      bigger.set(kids);
      kids = bigger;
    }
    kids[top++] = j;
  }
  for (let a = from, b = top - 1; a < b; a++, b--) {
    const t = kids[a];
    kids[a] = kids[b];
    kids[b] = t;
  }
  return from;
}

export class TreeReader {
  /** `text` holds the input from offset `base` on. */
  constructor(
    readonly tree: Tree,
    readonly text: string,
    readonly base = 0,
  ) {
    top = 0;
  }
  rule(i: number): number {
    return this.tree.data[i * 4];
  }
  start(i: number): number {
    return this.tree.data[i * 4 + 1];
  }
  end(i: number): number {
    return this.tree.data[i * 4 + 2];
  }
  /** Children of node i in source order, without noise. */
  children(i: number): number[] {
    const from = pushChildren(this.tree.data, i);
    const out: number[] = new Array(top - from);
    for (let k = from; k < top; k++) out[k - from] = kids[k];
    top = from;
    return out;
  }
  /** Child k of node i (source order, without noise), or -1. */
  child(i: number, k: number): number {
    const from = pushChildren(this.tree.data, i);
    const child = from + k < top ? kids[from + k] : -1;
    top = from;
    return child;
  }
  slice(i: number): string {
    const d = this.tree.data;
    return this.text.slice(d[i * 4 + 1] - this.base, d[i * 4 + 2] - this.base);
  }
}

// What buildExpr does with each rule, as small numbers (a switch over constants).
const enum Kind {
  Other,
  Literal,
  Name,
  State,
  Array,
  Object,
  Call,
  Builtin,
  Action,
  Group,
  Ternary,
  Unary,
  Postfix,
  Binary,
}
const KIND = new Uint8Array(RULE_NAMES.length);
const KINDS: [number, Kind][] = [
  [R.literal, Kind.Literal],
  [R.name, Kind.Name],
  [R.stateName, Kind.State],
  [R.ArrayLit, Kind.Array],
  [R.ObjectLit, Kind.Object],
  [R.ComponentCall, Kind.Call],
  [R.BuiltinCall, Kind.Builtin],
  [R.ActionCall, Kind.Action],
  [R.Group, Kind.Group],
  [R.Expr, Kind.Ternary],
  [R.Unary_op, Kind.Unary],
  [R.Postfix, Kind.Postfix],
  ...[R.Or, R.And, R.Equality, R.Comparison, R.Additive, R.Multiplicative].map((rule): [number, Kind] => [rule, Kind.Binary]),
];
for (const [rule, kind] of KINDS) KIND[rule] = kind;
// Rules read inside expressions, as constants.
const ENTRIES = R.Entries;
const ITEMS = R.Items;
const ARRAY_LIT = R.ArrayLit;
const MEMBER = R.PostfixOp_member;
const OR = R.Or;
const AND = R.And;

/** Builds the expression at node `at`. */
export function buildExpr(r: TreeReader, at: number): Expr {
  const d = r.tree.data;
  // Parentheses only group: what they hold is read in their place, in this loop rather than in a
  // call of its own, so that nesting through them (`((x).a).a`) takes one frame per level, not
  // two (V8 ran out of stack at about 1,000 levels of those, inside the nesting limit).
  let i = at;
  while (KIND[d[i * 4]] === Kind.Group) i = r.child(i, 0);
  const rule = d[i * 4];
  const start = d[i * 4 + 1];
  const end = d[i * 4 + 2];
  switch (KIND[rule]) {
    case Kind.Literal:
      return literal(r, start, end);
    case Kind.Name:
      return { k: "ref", name: r.slice(i), start, end };
    case Kind.State:
      return { k: "state", name: r.slice(i), start, end };
    case Kind.Array: {
      const base = pushChildren(d, i);
      // The items are built here, not in a function of their own: one frame per level of
      // nesting, not two (a frame less for every array, call and argument list).
      const from = listFrom(d, base);
      const list: Expr[] = new Array(top - from);
      for (let k = from, n = 0; k < top; k++, n++) list[n] = buildExpr(r, kids[k]);
      top = base;
      return { k: "arr", items: list, start, end };
    }
    case Kind.Object: {
      let from = pushChildren(d, i);
      if (top - from === 1 && d[kids[from] * 4] === ENTRIES) {
        const only = kids[from];
        top = from;
        from = pushChildren(d, only);
      }
      const entries: { key: string; value: Expr }[] = new Array(top - from);
      for (let k = from, n = 0; k < top; k++, n++) {
        const pair = pushChildren(d, kids[k]);
        const key = kids[pair];
        const value = buildExpr(r, kids[pair + 1]);
        top = pair;
        entries[n] = { key: isQuote(r, d[key * 4 + 1]) ? stringValue(r, d[key * 4 + 1], d[key * 4 + 2]) : r.slice(key), value };
      }
      top = from;
      return { k: "obj", entries, start, end };
    }
    case Kind.Call: {
      const base = pushChildren(d, i);
      const nameNode = kids[base];
      const from = listFrom(d, base + 1);
      const args: Expr[] = new Array(top - from);
      for (let k = from, n = 0; k < top; k++, n++) args[n] = buildExpr(r, kids[k]);
      top = base;
      return { k: "call", name: r.slice(nameNode), args, start, end, nameEnd: d[nameNode * 4 + 2] };
    }
    case Kind.Builtin: {
      const base = pushChildren(d, i);
      const name = r.text.slice(d[kids[base] * 4 + 1] + 1 - r.base, d[kids[base] * 4 + 2] - r.base); // without the `@`
      const from = listFrom(d, base + 1);
      const args: Expr[] = new Array(top - from);
      for (let k = from, n = 0; k < top; k++, n++) args[n] = buildExpr(r, kids[k]);
      top = base;
      return { k: "builtin", name, args, start, end };
    }
    case Kind.Action: {
      const from = pushChildren(d, i);
      let array = -1;
      for (let k = from; k < top; k++) if (d[kids[k] * 4] === ARRAY_LIT) array = kids[k];
      let steps: Expr[] = [];
      if (array !== -1) {
        const list = listFrom(d, pushChildren(d, array));
        steps = new Array(top - list);
        for (let k = list, n = 0; k < top; k++, n++) steps[n] = buildExpr(r, kids[k]);
      }
      top = from;
      return { k: "action", steps, start, end };
    }
    case Kind.Ternary: {
      const from = pushChildren(d, i);
      const cond = kids[from];
      if (top - from === 1) {
        top = from;
        return buildExpr(r, cond);
      }
      const tail = pushChildren(d, kids[from + 1]);
      const expr: Expr = { k: "ternary", cond: buildExpr(r, cond), then: buildExpr(r, kids[tail]), else: buildExpr(r, kids[tail + 1]), start, end };
      top = from;
      return expr;
    }
    case Kind.Unary: {
      const from = pushChildren(d, i);
      const expr: Expr = { k: "unary", op: r.slice(kids[from]), arg: buildExpr(r, kids[from + 1]), start, end };
      top = from;
      return expr;
    }
    case Kind.Postfix: {
      const from = pushChildren(d, i);
      let expr = buildExpr(r, kids[from]);
      for (let k = from + 1; k < top; k++) {
        const op = kids[k];
        const opEnd = d[op * 4 + 2];
        const inner = r.child(op, 0);
        if (d[op * 4] === MEMBER) expr = { k: "member", obj: expr, name: r.slice(inner), start, end: opEnd };
        else expr = { k: "index", obj: expr, index: buildExpr(r, inner), start, end: opEnd };
      }
      top = from;
      return expr;
    }
    case Kind.Binary: {
      // Or and And keep no operator node (their operator is fixed); the others alternate
      // operand, operator, operand.
      const fixed = rule === OR ? "||" : rule === AND ? "&&" : null;
      const from = pushChildren(d, i);
      let expr = buildExpr(r, kids[from]);
      for (let k = from + 1; k < top; ) {
        const op = fixed ?? r.slice(kids[k++]);
        const right = buildExpr(r, kids[k++]);
        expr = { k: "binary", op, left: expr, right, start, end: right.end };
      }
      top = from;
      return expr;
    }
  }
  // A wrapper kept only because of noise around its single child (e.g. newlines in brackets).
  const from = pushChildren(d, i);
  const count = top - from;
  const only = kids[from];
  top = from;
  if (count === 1) return buildExpr(r, only);
  throw new Error(`unexpected rule ${rule} in an expression`);
}

// Where the items of a bracketed list start whose children are on the stack from `from` on (a
// call's name left out): an `Items` node with one item has the item's span, and was replaced by
// it; otherwise its items are pushed above. The caller builds them and pops the stack.
function listFrom(d: Int32Array, from: number): number {
  return top - from === 1 && d[kids[from] * 4] === ITEMS ? pushChildren(d, kids[from]) : from;
}

// Literals are read straight from the source: the first code unit tells the kind, and a string
// without a backslash is its text between the quotes.
function isQuote(r: TreeReader, at: number): boolean {
  const c = r.text.charCodeAt(at - r.base);
  return c === 34 || c === 39;
}

function stringValue(r: TreeReader, start: number, end: number): string {
  const text = r.text;
  const from = start - r.base + 1;
  const to = end - r.base - 1;
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === 92) return decodeString(text.slice(from - 1, to + 1));
  return text.slice(from, to);
}

function literal(r: TreeReader, start: number, end: number): Expr {
  switch (r.text.charCodeAt(start - r.base)) {
    case 34: // "
    case 39: // '
      return { k: "str", v: stringValue(r, start, end), start, end };
    case 116: // true
      return { k: "bool", v: true, start, end };
    case 102: // false
      return { k: "bool", v: false, start, end };
    case 110: // null
      return { k: "null", start, end };
    default:
      return { k: "num", v: numberValue(r.text, start - r.base, end - r.base), start, end };
  }
}

// Plain integers (most numbers in generated UIs) are read digit by digit; the rest by Number.
function numberValue(text: string, from: number, to: number): number {
  const negative = text.charCodeAt(from) === 45;
  let value = 0;
  if (to - from < 16) {
    for (let k = negative ? from + 1 : from; k < to; k++) {
      const c = text.charCodeAt(k) - 48;
      if (c < 0 || c > 9) return Number(text.slice(from, to));
      value = value * 10 + c;
    }
    return negative ? -value : value;
  }
  return Number(text.slice(from, to));
}

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" };

/** The value of a string token (double-quoted: JSON escapes; single-quoted: `\'` `\\` `\n` `\t`). */
export function decodeString(token: string): string {
  const body = token.slice(1, -1);
  if (!body.includes("\\")) return body;
  const single = token.charCodeAt(0) === 39;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === "u" && !single) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 5), 16));
      i += 4;
    } else if (single) out += e === "n" ? "\n" : e === "t" ? "\t" : e;
    else out += SIMPLE_ESCAPES[e] ?? e;
  }
  return out;
}
