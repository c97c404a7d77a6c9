// The checker: what a program must satisfy against its library (docs/language.md), as FixErrors in
// source order. Works on statements already parsed; never throws on what a parser produced.
import { componentByCase, type Library, type Prop, type PropSchema } from "./library.ts";
import { CALL, kindBit, refTarget, type Shape } from "./shape.ts";
import type { BrokenLine, ErrorCode, Expr, FixError, Statement } from "./types.ts";
import { balance } from "./balance.ts";
import { closest, someOf } from "./suggest.ts";
import { MAX_NESTING } from "./generated/rules.ts";

export const BUILTINS = new Set(["Count", "Sum", "Avg", "Min", "Max", "First", "Last", "Filter", "Sort", "Round", "Abs", "Floor", "Ceil", "Each"]);
export const ACTION_STEPS = new Set(["Run", "Set", "Reset", "ToAssistant", "OpenUrl"]);
/** Calls that ask the application's tools for data: no component, never displayed. */
export const TOOL_CALLS: readonly string[] = ["Query", "Mutation"];
const reserved = (name: string) => TOOL_CALLS.includes(name);

/** A FixError with the offset it sits at, for ordering. */
export interface PlacedError extends FixError {
  at: number;
}

/** The statements a check can look up by name. */
export interface Defs {
  get(id: string): Statement | undefined;
  has(id: string): boolean;
}

export interface Checked {
  errors: PlacedError[];
  unresolved: string[];
  orphaned: string[];
  /** The effective statement of each name (a later one replaces an earlier one). */
  defs: Map<string, Statement>;
}

const NONE: readonly string[] = [];
const MAX_HOPS = 64;
/** Type mismatches reported for one argument at most (see Checker.walk). */
export const MAX_MISMATCHES = 100;

interface Mismatch {
  path: string;
  message: string;
  at: number;
}

function describe(value: Expr): string {
  switch (value.k) {
    case "str":
      return `the string ${JSON.stringify(value.v.length > 40 ? value.v.slice(0, 40) + "…" : value.v)}`;
    case "num":
      return `the number ${value.v}`;
    case "bool":
      return `${value.v}`;
    case "null":
      return "null";
    case "arr":
      return "an array";
    case "obj":
      return "an object";
    case "call":
      return `a ${value.name}`;
    default:
      return "a value";
  }
}

function expected(schema: PropSchema): string {
  if (schema.$ref) return refTarget(schema.$ref) ?? "a component";
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const names = branches.map(expected);
    return names.length > 6 ? `one of ${names.slice(0, 6).join(", ")} (and ${names.length - 6} more)` : `one of ${names.join(", ")}`;
  }
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  if (schema.type === "array" && schema.items) return `an array of ${expected(schema.items)}`;
  if (schema.type) return Array.isArray(schema.type) ? schema.type.join(" or ") : `${/^[aeiou]/.test(schema.type) ? "an" : "a"} ${schema.type}`;
  return "a value";
}

export class Checker {
  readonly errors: PlacedError[] = [];
  // Checked statements by number, in the order they were checked (a name checked again takes
  // its new number).
  private order: string[] = [];
  private index = new Map<string, number>();
  // Every reference, in checking order: the name, where it stands, and its statement's number.
  // A statement's references are contiguous, from refStart[its number] on.
  private refNames: string[] = [];
  private refAts: number[] = [];
  private refFrom: number[] = [];
  private refStart: number[] = [];

  constructor(
    readonly library: Library,
    readonly defs: Defs,
    readonly brokenNames: Set<string>,
    // Every statement's name in source order, for suggestions, when not every statement is
    // checked (the partial check after the verdict); else the checked ones are all of them.
    private readonly allNames: (() => string[]) | null = null,
  ) {}

  private report(code: ErrorCode, message: string, at: number, extra: Omit<FixError, "code" | "message"> = {}): void {
    const error: PlacedError = { code, message, at };
    if (extra.component !== undefined) error.component = extra.component;
    if (extra.path !== undefined) error.path = extra.path;
    if (extra.statementId !== undefined) error.statementId = extra.statementId;
    this.errors.push(error);
  }

  /** Checks one statement's expression: calls, builtins, references. */
  statement(stmt: Statement): void {
    this.index.set(stmt.id, this.order.length);
    this.order.push(stmt.id);
    this.refStart.push(this.refNames.length);
    this.targets = this.graph = null;
    this.visit(stmt.expr, stmt, true, null);
  }

  private visit(e: Expr, stmt: Statement, whole: boolean, scope: Set<string> | null): void {
    switch (e.k) {
      case "ref":
        if (!scope?.has(e.name)) {
          this.refNames.push(e.name);
          this.refAts.push(e.start);
          this.refFrom.push(this.order.length - 1);
        }
        return;
      case "arr":
        for (const item of e.items) this.visit(item, stmt, false, scope);
        return;
      case "obj":
        for (const entry of e.entries) this.visit(entry.value, stmt, false, scope);
        return;
      case "call":
        this.call(e, stmt, whole, scope);
        for (const arg of e.args) this.visit(arg, stmt, false, scope);
        return;
      case "builtin": {
        if (!BUILTINS.has(e.name) && !ACTION_STEPS.has(e.name)) {
          const hint = closest(e.name, [...BUILTINS, ...ACTION_STEPS]);
          this.report(
            "unknown-component",
            `@${e.name} is neither a builtin nor an action step: expected one of ${BUILTIN_LIST}, got @${e.name}${hint ? ` (did you mean @${hint}?)` : ""}`,
            e.start,
            { component: `@${e.name}`, statementId: stmt.id },
          );
        }
        if (e.name === "Each" && e.args.length >= 3 && e.args[1].k === "str") {
          // The loop variable is in scope inside the template only.
          this.visit(e.args[0], stmt, false, scope);
          const inner = new Set(scope ?? []);
          inner.add(e.args[1].v);
          for (const arg of e.args.slice(2)) this.visit(arg, stmt, false, inner);
          return;
        }
        for (const arg of e.args) this.visit(arg, stmt, false, scope);
        return;
      }
      case "action":
        for (const step of e.steps) this.visit(step, stmt, false, scope);
        return;
      case "unary":
        this.visit(e.arg, stmt, false, scope);
        return;
      case "binary":
        this.visit(e.left, stmt, false, scope);
        this.visit(e.right, stmt, false, scope);
        return;
      case "ternary":
        this.visit(e.cond, stmt, false, scope);
        this.visit(e.then, stmt, false, scope);
        this.visit(e.else, stmt, false, scope);
        return;
      case "member":
        this.visit(e.obj, stmt, false, scope);
        return;
      case "index":
        this.visit(e.obj, stmt, false, scope);
        this.visit(e.index, stmt, false, scope);
        return;
    }
  }

  // `scope`: loop variables in scope at the call (inside an @Each template), values at run time.
  private call(e: Extract<Expr, { k: "call" }>, stmt: Statement, whole: boolean, scope: Set<string> | null): void {
    if (reserved(e.name)) {
      if (!whole) {
        this.report(
          "inline-reserved",
          `${e.name}(...) must be the whole right side of a statement (\`name = ${e.name}(...)\`), got it inside an expression`,
          e.start,
          {
            component: e.name,
            statementId: stmt.id,
          },
        );
      }
      return;
    }
    const component = this.library.components.get(e.name);
    if (!component) {
      this.report("unknown-component", this.unknownMessage(e.name), e.start, {
        component: e.name,
        statementId: stmt.id,
      });
      return;
    }
    if (e.args.length > component.props.length) {
      const most = component.props.length;
      const excess = e.args.length - most;
      const takes = most === 0 ? "takes no arguments" : `takes at most ${plural(most, "argument")} (${component.props.map((p) => p.name).join(", ")})`;
      this.report(
        "excess-args",
        `${e.name} ${takes}, got ${e.args.length}: ${plural(excess, "excess argument")} dropped`,
        e.args[component.props.length].start,
        { component: e.name, statementId: stmt.id },
      );
    }
    const props = component.props;
    for (let i = 0; i < props.length; i++) {
      const prop = props[i];
      const arg = e.args[i];
      if (arg === undefined || arg.k === "null") {
        if (!prop.required || prop.hasDefault) continue;
        const path = `/${prop.name}`;
        const want = `${e.name} \`${prop.name}\` (argument ${i + 1}) is required and has no default: expected ${expected(prop.schema)}`;
        const given = e.args.length === 0 ? "a call without arguments" : `only ${plural(e.args.length, "argument")}`;
        if (arg === undefined) this.report("missing-required", `${want}, got ${given}`, e.end, { component: e.name, statementId: stmt.id, path });
        else this.report("null-required", `${want}, got null`, arg.start, { component: e.name, statementId: stmt.id, path });
        continue;
      }
      this.check(arg, prop, e.name, stmt.id, scope);
    }
  }

  // Follows references to statically known values; null when the value is known only at run time
  // (a loop variable in `scope`, or references that go round in a cycle, which `unresolved` reports).
  private resolve(value: Expr, scope: Set<string> | null = null): Expr | null {
    if (value.k === "ref" && scope?.has(value.name)) return null;
    for (let hops = 0; value.k === "ref"; hops++) {
      const target = this.defs.get(value.name);
      if (!target || target.kind === "query" || target.kind === "mutation" || target.kind === "state" || hops > MAX_HOPS) return null;
      value = target.expr;
    }
    switch (value.k) {
      case "str":
      case "num":
      case "bool":
      case "null":
      case "arr":
      case "obj":
        return value;
      case "call":
        return reserved(value.name) || !this.library.components.has(value.name) ? null : value;
      default:
        return null; // computed at run time
    }
  }

  // Reports a type-mismatch for each place `value` does not fit `schema`. The common case, a fit,
  // is decided first without building paths or messages.
  private check(value: Expr, prop: Prop, component: string, statementId: string, scope: Set<string> | null): void {
    const shape = prop.shape;
    const mismatches: Mismatch[] = [];
    try {
      if (this.fits(value, shape, "", null, 0, scope)) return;
      this.fits(value, shape, `/${prop.name}`, mismatches, 0, scope);
    } finally {
      // Verdicts last one check: defs may change between checks (a stream defines names late).
      if (this.verdicts.size) this.verdicts = new Map();
    }
    for (const m of mismatches) {
      this.report("type-mismatch", `${component} ${m.path}: ${m.message}`, m.at, { component, statementId, path: m.path });
    }
  }

  /**
   * Whether `value` fits; records mismatches in `out`, or stops at the first when `out` is null.
   * `scope` holds the loop variables where `raw` is written; a value reached through a reference
   * is written in another statement, outside any template.
   */
  private fits(raw: Expr, shape: Shape, path: string, out: Mismatch[] | null, depth: number, scope: Set<string> | null): boolean {
    // Values reached through references share their parts (`x1 = [x2, x2]`, `x0 = [x1, x1]`):
    // walked as a tree, 20 such lines cost 2^20 walks. Whether a part fits is kept, for parts
    // outside templates (what fits inside one depends on its loop variables), by node, shape and
    // depth (past MAX_HOPS everything fits): each is decided once.
    if (scope !== null || shape.any) return this.walk(raw, shape, path, out, depth, scope);
    let byShape = this.verdicts.get(raw);
    if (!byShape) this.verdicts.set(raw, (byShape = new Map()));
    let byDepth = byShape.get(shape);
    if (!byDepth) byShape.set(shape, (byDepth = new Uint8Array(MAX_HOPS + 2)));
    const d = Math.min(depth, MAX_HOPS + 1);
    if (byDepth[d] === 0) byDepth[d] = this.walk(raw, shape, "", null, depth, scope) ? 1 : 2;
    // What fits has no mismatch to record; what does not is walked again to record them.
    return byDepth[d] === 1 || (out !== null && this.walk(raw, shape, path, out, depth, scope));
  }

  // Replaced, not cleared, after each check: Bun's clear() of a used map costs more than a new one.
  private verdicts = new Map<Expr, Map<Shape, Uint8Array>>();

  /** Whether `value` fits `prop` as written in a statement (references followed): for repairs
   *  that weigh candidate edits. Reports nothing. */
  accepts(value: Expr, prop: Prop): boolean {
    try {
      return this.fits(value, prop.shape, "", null, 0, null);
    } finally {
      if (this.verdicts.size) this.verdicts = new Map();
    }
  }

  private walk(raw: Expr, shape: Shape, path: string, out: Mismatch[] | null, depth: number, scope: Set<string> | null): boolean {
    // Values nested deeper than this (only reachable through cyclic references) are not checked.
    if (depth > MAX_HOPS || shape.any) return true;
    // Parts shared through references are one mismatch for each way to reach them (2^20 for 20
    // such levels): past MAX_MISMATCHES for one argument, the rest are not looked for.
    if (out !== null && out.length >= MAX_MISMATCHES) return false;
    // A literal is its own value; anything else is looked up (references) or known at run time.
    let bit = kindBit(raw);
    let value: Expr | null = raw;
    if (bit === CALL) {
      value = this.resolve(raw, scope);
      if (value === null) return true;
      if (value !== raw) scope = null;
      bit = kindBit(value);
    }
    if (shape.refs) return (value.k === "call" && shape.refs.has(value.name)) || miss(out, path, shape, raw, value);
    if (shape.branches) {
      let any = false;
      for (const branch of shape.branches) if ((any = this.fits(value, branch, path, null, depth + 1, scope))) break;
      if (!any) return miss(out, path, shape, raw, value);
    }
    if (shape.enumValues && value.k !== "null" && !((value.k === "str" || value.k === "num" || value.k === "bool") && shape.enumValues.has(value.v))) {
      return miss(out, path, shape, raw, value);
    }
    if (shape.hasConst && !("v" in value && value.v === shape.schema.const)) return miss(out, path, shape, raw, value, JSON.stringify(shape.schema.const));
    if ((shape.kinds & bit) === 0 || (shape.integerOnly && value.k === "num" && !Number.isInteger(value.v))) {
      return miss(out, path, shape, raw, value);
    }
    let ok = true;
    if (value.k === "arr" && shape.items) {
      const items = value.items;
      for (let i = 0; i < items.length && (ok || out); i++) {
        if (!this.fits(items[i], shape.items, out ? `${path}/${i}` : path, out, depth + 1, scope)) ok = false;
      }
    }
    if (value.k === "obj" && shape.properties) {
      for (const entry of value.entries) {
        const sub = shape.properties.get(entry.key);
        if (sub && !this.fits(entry.value, sub, out ? `${path}/${entry.key}` : path, out, depth + 1, scope)) ok = false;
      }
    }
    return ok;
  }

  /** Names statement `id` refers to (once per reference). */
  refsOf(id: string): readonly string[] {
    const i = this.index.get(id);
    if (i === undefined) return NONE;
    return this.refNames.slice(this.refStart[i], i + 1 < this.refStart.length ? this.refStart[i + 1] : this.refNames.length);
  }

  // Messages for unknown component names, once per name (a program may repeat a misspelling).
  private unknown: Map<string, string> | null = null;
  private unknownMessage(name: string): string {
    this.unknown ??= new Map();
    let message = this.unknown.get(name);
    if (message === undefined) {
      const hint = closest(name, this.library.components.keys());
      const names = someOf([...this.library.components.keys()]);
      message = `${name} is not a component of the library: expected one of ${names}, got ${name}${hint ? ` (did you mean ${hint}?)` : ""}`;
      this.unknown.set(name, message);
    }
    return message;
  }

  // " (did you mean `x`?)" for a name referenced and never defined, when a defined one is close.
  // Looked for among a bounded number of statements, so that many unresolved names stay cheap.
  private suggestName(name: string): string {
    const names = this.allNames ? this.allNames() : this.order;
    if (names.length === 0 || names.length > 2000) return "";
    const hint = closest(name, names);
    return hint && hint !== name && this.defs.has(hint) ? ` (did you mean \`${hint}\`?)` : "";
  }

  /** Names referenced and never defined, plus names that stand on a reference cycle. */
  unresolved(): string[] {
    const missing = new Set<string>();
    const targets = this.refTargets();
    for (let i = 0; i < targets.length; i++) {
      if (targets[i] !== -1) continue;
      const name = this.refNames[i];
      if (this.defs.has(name) || this.brokenNames.has(name)) continue;
      missing.add(name);
      this.report(
        "unresolved",
        `\`${name}\` is referenced but never defined: expected a statement \`${name} = ...\`, got none${this.suggestName(name)}`,
        this.refAts[i],
        {
          statementId: this.order[this.refFrom[i]],
        },
      );
    }
    for (const name of this.cycles()) {
      missing.add(name);
      const stmt = this.defs.get(name)!;
      this.report(
        "unresolved",
        `\`${name}\` is defined only through a reference cycle: expected its references to end at a value, got a loop back to \`${name}\``,
        stmt.start,
        {
          statementId: name,
        },
      );
    }
    return [...missing];
  }

  // What each reference points at: the number of a checked statement, or -1.
  private targets: Int32Array | null = null;
  private refTargets(): Int32Array {
    if (this.targets) return this.targets;
    const targets = new Int32Array(this.refNames.length);
    for (let i = 0; i < targets.length; i++) targets[i] = this.index.get(this.refNames[i]) ?? -1;
    return (this.targets = targets);
  }

  // The reference graph over statement numbers, edges only to checked statements, in compressed
  // rows: statement v's edges are edges[offsets[v]..offsets[v + 1]). Built once for `unresolved`
  // and `orphaned`.
  private graph: { offsets: Int32Array; edges: Int32Array; oneWay: boolean } | null = null;
  private intGraph() {
    if (this.graph) return this.graph;
    const targets = this.refTargets();
    const n = this.order.length;
    const offsets = new Int32Array(n + 1);
    for (let i = 0; i < targets.length; i++) if (targets[i] !== -1) offsets[this.refFrom[i] + 1]++;
    for (let v = 0; v < n; v++) offsets[v + 1] += offsets[v];
    // References are recorded statement by statement, so the edges come grouped by source.
    const edges = new Int32Array(offsets[n]);
    // Programs are written top-down or bottom-up: when every reference points the same way in
    // source order, there is no cycle to look for.
    let forward = true;
    let backward = true;
    for (let i = 0, e = 0; i < targets.length; i++) {
      const t = targets[i];
      if (t === -1) continue;
      edges[e++] = t;
      if (t <= this.refFrom[i]) forward = false;
      if (t >= this.refFrom[i]) backward = false;
    }
    return (this.graph = { offsets, edges, oneWay: forward || backward });
  }

  // Statements on a cycle of references: Tarjan's strongly connected components, iterative (long
  // chains of references cannot overflow the stack).
  private cycles(): string[] {
    const { offsets, edges, oneWay } = this.intGraph();
    if (oneWay) return [];
    const n = this.order.length;
    const index = new Int32Array(n).fill(-1);
    const low = new Int32Array(n);
    const next = offsets.slice(0, n); // the next edge to follow, for each node on the path
    const onStack = new Uint8Array(n);
    const stack: number[] = [];
    const path: number[] = [];
    const out: string[] = [];
    let counter = 0;
    for (let root = 0; root < n; root++) {
      if (index[root] !== -1) continue;
      index[root] = low[root] = counter++;
      stack.push(root);
      onStack[root] = 1;
      path.push(root);
      while (path.length) {
        const v = path[path.length - 1];
        if (next[v] < offsets[v + 1]) {
          const w = edges[next[v]++];
          if (index[w] === -1) {
            index[w] = low[w] = counter++;
            stack.push(w);
            onStack[w] = 1;
            path.push(w);
          } else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
          continue;
        }
        path.pop();
        if (path.length) {
          const parent = path[path.length - 1];
          low[parent] = Math.min(low[parent], low[v]);
        }
        if (low[v] !== index[v]) continue;
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        if (component.length > 1 || edges.subarray(offsets[v], offsets[v + 1]).includes(v)) for (const c of component) out.push(this.order[c]);
      }
    }
    return out;
  }

  /** Component and value statements not reachable from `root` (state, queries and mutations are roots too). */
  orphaned(all: Map<string, Statement>): string[] {
    const { offsets, edges } = this.intGraph();
    const seen = new Uint8Array(this.order.length);
    const queue: number[] = [];
    for (const [name, stmt] of all) {
      if (name === "root" || stmt.kind === "state" || stmt.kind === "query" || stmt.kind === "mutation") {
        const i = this.index.get(name);
        if (i !== undefined && !seen[i]) {
          seen[i] = 1;
          queue.push(i);
        }
      }
    }
    while (queue.length) {
      const v = queue.pop()!;
      for (let e = offsets[v]; e < offsets[v + 1]; e++) {
        const next = edges[e];
        if (!seen[next]) {
          seen[next] = 1;
          queue.push(next);
        }
      }
    }
    const out: string[] = [];
    for (const [name, stmt] of all) {
      const i = this.index.get(name);
      if (i !== undefined && seen[i]) continue;
      out.push(name);
      this.orphan(name, stmt.start);
    }
    return out;
  }

  /** Reports statement `name` (at `start`) as an orphan: for checks that found it so themselves. */
  orphan(name: string, start: number): void {
    this.report(
      "orphaned",
      `\`${name}\` is defined but not reachable from root: expected a reference to it from root or from what root uses, got none`,
      start,
      {
        statementId: name,
      },
    );
  }

  /** `root` must exist and be an element (of the library's root component, when it names one). */
  root(programEnd: number): void {
    const stmt = this.defs.get("root");
    const want = this.library.root;
    if (!stmt) {
      const names = this.order;
      const got = this.brokenNames.has("root")
        ? "got a `root` line that does not read as a statement"
        : names.length
          ? `got only ${someOf(
              names.map((n) => `\`${n}\``),
              6,
            )}`
          : "got no statement";
      this.report("missing-root", `the program has no \`root\` statement: expected \`root = ${want ?? "Component"}(...)\`, ${got}`, programEnd);
      return;
    }
    const value = this.resolve(stmt.expr);
    if (value === null || value.k !== "call") {
      if (stmt.expr.k === "call" && !reserved(stmt.expr.name)) return; // unknown component: reported already
      const got = value === null ? (stmt.expr.k === "call" ? `a ${stmt.expr.name}(...)` : "a value known only at run time") : describe(value);
      this.report(
        "missing-root",
        `\`root\` does not produce a component element: expected ${want ? `a ${want}` : "a component call"}, got ${got}`,
        stmt.start,
        {
          statementId: "root",
        },
      );
      return;
    }
    if (want && value.name !== want) {
      this.report("type-mismatch", `root: expected a ${want}, got a ${value.name}`, stmt.start, { component: value.name, statementId: "root" });
    }
  }
}

// A mismatch: recorded (message built only then) when `out` collects them; always false.
function miss(out: Mismatch[] | null, path: string, shape: Shape, raw: Expr, value: Expr, wanted?: string): false {
  out?.push({ path, message: `expected ${wanted ?? expected(shape.schema)}, got ${describe(value)}`, at: raw.start });
  return false;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

const BUILTIN_LIST = [...BUILTINS, ...ACTION_STEPS].map((n) => `@${n}`).join(", ");

// What a statement cut at the end of the input still needs: a value after a trailing operator,
// comma or `=`, or the closers of what is open.
const TRAILING = new Set(["||", "&&", "==", "!=", "<=", ">=", "=", ",", "+", "-", "*", "/", "%", "<", ">", "!", "?", ":"]);
function stillNeeded(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) <= 32) end--;
  const two = text.slice(Math.max(0, end - 2), end);
  const trailing = TRAILING.has(two) ? two : TRAILING.has(two.slice(-1)) ? two.slice(-1) : null;
  if (trailing) return `a value after \`${trailing}\``;
  const closers = balance(end === text.length ? text : text.slice(0, end)).closers;
  return closers ? `\`${closers}\` to close what is open` : "the rest of the statement";
}

/**
 * Syntax and incomplete errors of broken lines. `source` (the text from offset `base` on) lets
 * a cut statement's message say what it still needs.
 */
export function brokenLineErrors(broken: BrokenLine[], library?: Library, source?: { text: string; base: number }): PlacedError[] {
  return broken.map((line) => {
    const excerpt = JSON.stringify(line.excerpt ?? "");
    let error: PlacedError;
    if (line.tooDeep) {
      error = {
        code: "syntax",
        message: `nested too deep: expected at most ${MAX_NESTING} levels of brackets, calls, operators and ternaries inside one another, got more: ${excerpt}`,
        at: line.start,
      };
    } else if (line.incomplete) {
      const needs = source ? `expected ${stillNeeded(source.text.slice(line.start - source.base, line.end - source.base))}, got the end of the input` : "";
      error = { code: "incomplete", message: `the input stops in the middle of a statement${needs ? `: ${needs}` : ""}: ${excerpt}`, at: line.start };
    } else {
      let found = line.found ?? "";
      if (line.lowerCall !== undefined && library) {
        const named = componentByCase(library, line.lowerCall) ?? closest(line.lowerCall, library.components.keys());
        if (named) found += ` (did you mean ${named}?)`;
      }
      const why = line.expected ? `expected ${line.expected}, got ${found}: ` : "";
      error = { code: "syntax", message: `not a statement of the language: ${why}${excerpt}`, at: line.start };
    }
    if (line.id !== undefined) error.statementId = line.id;
    return error;
  });
}

/** The effective statement of each name, in source order (a later one replaces an earlier one). */
export function definitions(statements: Statement[]): Map<string, Statement> {
  const defs = new Map<string, Statement>();
  for (const stmt of statements) {
    defs.delete(stmt.id); // a redefinition takes the later place in source order
    defs.set(stmt.id, stmt);
  }
  return defs;
}

/** Runs every check over a parsed program. */
export function checkProgram(statements: Statement[], broken: BrokenLine[], library: Library, programEnd: number, text?: string): Checked {
  const defs = definitions(statements);
  const brokenNames = new Set<string>();
  for (const line of broken) if (line.id !== undefined && !defs.has(line.id)) brokenNames.add(line.id);
  const checker = new Checker(library, defs, brokenNames);
  for (const stmt of defs.values()) checker.statement(stmt);
  const unresolved = checker.unresolved();
  let orphaned: string[] = [];
  const hasRoot = defs.has("root");
  if (hasRoot) orphaned = checker.orphaned(defs);
  checker.root(programEnd);
  const errors = [...brokenLineErrors(broken, library, text === undefined ? undefined : { text, base: 0 }), ...checker.errors];
  errors.sort((a, b) => a.at - b.at);
  return { errors, unresolved, orphaned, defs };
}
