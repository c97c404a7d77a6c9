// Turns the parser's flat tree (postorder, see src/grammar/compile.ts) into expression trees.
// The tree keeps tokens as leaves and drops single-child wrappers, so each case below reads
// the rules that can actually appear.
import type { Expr } from "./types.ts";
import type { Tree } from "./engine.ts";
import { RULE } from "./generated/rules.ts";

const R = RULE;
// Nodes that carry no meaning for the AST: white space with newlines and line ends.
const NOISE = new Set([R.gap, R.ternaryBreak, R.nl, R.lineEnd, R.sameLine]);

export class TreeReader {
  /** `text` holds the input from offset `base` on. */
  constructor(
    readonly tree: Tree,
    readonly text: string,
    readonly base = 0,
  ) {}
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
    const d = this.tree.data;
    const out: number[] = [];
    let j = i - 1;
    const first = i - d[i * 4 + 3] + 1;
    while (j >= first) {
      if (!NOISE.has(d[j * 4])) out.push(j);
      j -= d[j * 4 + 3];
    }
    return out.reverse();
  }
  slice(i: number): string {
    return this.text.slice(this.start(i) - this.base, this.end(i) - this.base);
  }
}

const BINARY: Record<number, string | null> = {
  [R.Or]: "||",
  [R.And]: "&&",
  [R.Equality]: null,
  [R.Comparison]: null,
  [R.Additive]: null,
  [R.Multiplicative]: null,
};

/** Builds the expression at node i. */
export function buildExpr(r: TreeReader, i: number): Expr {
  const rule = r.rule(i);
  const start = r.start(i);
  const end = r.end(i);
  switch (rule) {
    case R.literal:
      return literal(r.slice(i), start, end);
    case R.name:
      return { k: "ref", name: r.slice(i), start, end };
    case R.stateName:
      return { k: "state", name: r.slice(i), start, end };
    case R.ArrayLit:
      return { k: "arr", items: items(r, i), start, end };
    case R.ObjectLit: {
      const kids = r.children(i);
      const entries = kids.length === 1 && r.rule(kids[0]) === R.Entries ? r.children(kids[0]) : kids;
      return {
        k: "obj",
        entries: entries.map((e) => {
          const [key, value] = r.children(e);
          const keyText = r.slice(key);
          return { key: isQuote(keyText) ? decodeString(keyText) : keyText, value: buildExpr(r, value) };
        }),
        start,
        end,
      };
    }
    case R.ComponentCall: {
      const nameNode = r.children(i)[0];
      return { k: "call", name: r.slice(nameNode), args: items(r, i, 1), start, end, nameEnd: r.end(nameNode) };
    }
    case R.BuiltinCall:
      return { k: "builtin", name: r.slice(r.children(i)[0]).slice(1), args: items(r, i, 1), start, end };
    case R.ActionCall: {
      const array = r.children(i).find((c) => r.rule(c) === R.ArrayLit);
      return { k: "action", steps: array === undefined ? [] : items(r, array), start, end };
    }
    case R.Group:
      return buildExpr(r, r.children(i)[0]);
    case R.Expr: {
      const [cond, tail] = r.children(i);
      if (tail === undefined) return buildExpr(r, cond);
      const [then, otherwise] = r.children(tail);
      return { k: "ternary", cond: buildExpr(r, cond), then: buildExpr(r, then), else: buildExpr(r, otherwise), start, end };
    }
    case R.Unary_op: {
      const [op, arg] = r.children(i);
      return { k: "unary", op: r.slice(op), arg: buildExpr(r, arg), start, end };
    }
    case R.Postfix: {
      const [head, ...ops] = r.children(i);
      let expr = buildExpr(r, head);
      for (const op of ops) {
        const opEnd = r.end(op);
        if (r.rule(op) === R.PostfixOp_member) {
          expr = { k: "member", obj: expr, name: r.slice(r.children(op)[0]), start, end: opEnd };
        } else {
          expr = { k: "index", obj: expr, index: buildExpr(r, r.children(op)[0]), start, end: opEnd };
        }
      }
      return expr;
    }
  }
  if (rule in BINARY) {
    const kids = r.children(i);
    const fixed = BINARY[rule];
    let expr = buildExpr(r, kids[0]);
    for (let k = 1; k < kids.length; ) {
      let op = fixed;
      if (op === null) op = r.slice(kids[k++]);
      const right = buildExpr(r, kids[k++]);
      expr = { k: "binary", op, left: expr, right, start, end: right.end };
    }
    return expr;
  }
  // A wrapper kept only because of noise around its single child (e.g. newlines in brackets).
  const kids = r.children(i);
  if (kids.length === 1) return buildExpr(r, kids[0]);
  throw new Error(`unexpected rule ${rule} in an expression`);
}

// The items of a bracketed list; `skip` leading children (a call's name) are not items.
function items(r: TreeReader, i: number, skip = 0): Expr[] {
  const kids = r.children(i).slice(skip);
  // An `Items` node with one item has the item's span, and was replaced by it.
  const list = kids.length === 1 && r.rule(kids[0]) === R.Items ? r.children(kids[0]) : kids;
  return list.map((k) => buildExpr(r, k));
}

function isQuote(text: string): boolean {
  return text.charCodeAt(0) === 34 || text.charCodeAt(0) === 39;
}

function literal(text: string, start: number, end: number): Expr {
  if (isQuote(text)) return { k: "str", v: decodeString(text), start, end };
  if (text === "true" || text === "false") return { k: "bool", v: text === "true", start, end };
  if (text === "null") return { k: "null", start, end };
  return { k: "num", v: Number(text), start, end };
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
