// Splits a program into statements and broken lines with one run of the WebAssembly parser.
import { parseTree, setInput, setScratch, type Tree } from "./engine.ts";
import { buildExpr, TreeReader } from "./ast.ts";
import { RULE } from "./generated/rules.ts";
import { balance } from "./balance.ts";
import type { BrokenLine, Expr, Statement, StatementKind } from "./types.ts";

export interface ProgramParts {
  statements: Statement[];
  broken: BrokenLine[];
  /** Where the region a stream must read again starts (everything before it has ended). */
  openFrom: number;
}

const NAME_EQUALS = /^[ \t]*(\$?[A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)/;

// Reading a line as a statement stopped at `stop`: what it expected there and what it found, in
// words (the parser records where, not what; the brackets open at that point tell the rest).
const WORD = /^(?:[A-Za-z_$@][A-Za-z0-9_]*|-?\d+(?:\.\d+)?|"[^"\n]{0,20}"?|'[^'\n]{0,20}'?|\S)/;
const MAX_SCAN = 20_000;

function describeStop(text: string, base: number, line: BrokenLine, stop: number, named: boolean): void {
  const at = stop - base;
  const head = text.slice(line.start - base, at);
  const rest = text.slice(at, at + 40);
  const word = at >= text.length || rest[0] === "\n" || rest[0] === "\r" ? "" : (WORD.exec(rest)?.[0] ?? "");
  line.found = word === "" ? "the end of the line" : `\`${word}\``;
  if (!named) {
    line.expected = /^[ \t]*\$?[A-Za-z_][A-Za-z0-9_]*[ \t]*:/.test(head + rest)
      ? "`name = value` (a statement), not `name: value`"
      : "a statement `name = value`";
    return;
  }
  const call = /([A-Za-z_][A-Za-z0-9_]*)[ \t]*$/.exec(head);
  if (word === "(" && call && /^[a-z_]/.test(call[1])) {
    line.lowerCall = call[1];
    line.expected = "a component call, whose name starts with an upper-case letter";
    line.found = `\`${call[1]}(\``;
    return;
  }
  const closers = head.length <= MAX_SCAN ? balance(head).closers : "";
  const inner = closers[0];
  if (inner === '"' || inner === "'") line.expected = `a closing ${inner} before the end of the line`;
  else if (inner === ")" && word === ":" && call) {
    line.expected = "positional arguments (named arguments are not part of the language)";
    line.found = `\`${call[1]}:\``;
  } else if (inner) line.expected = `\`,\`, an operator or \`${inner}\``;
  else line.expected = "an operator or the end of the statement";
}

// Nesting deeper than the parser allows somewhere in [from, to), near `farthest`, where the parse
// stopped. The statement that holds it (from the `name =` line at or before that point to the next
// line that starts a statement) is one broken line, "nested too deep"; the text before and after
// it is read as usual (again in parts, if it nests too deep as well).
function splitDeep(text: string, base: number, from: number, to: number, farthest: number): ProgramParts {
  const at = Math.min(Math.max(farthest, from), to);
  const startsStatement = (lineStart: number) => NAME_EQUALS.test(text.slice(lineStart - base, lineStart - base + 200));
  let start = from;
  for (let s = at; s > from; ) {
    const lineStart = Math.max(from, text.lastIndexOf("\n", s - base - 1) + 1 + base);
    if (lineStart === from || startsStatement(lineStart)) {
      start = lineStart;
      break;
    }
    s = lineStart - 1;
  }
  let end = to;
  for (let nl = text.indexOf("\n", at - base); nl !== -1 && nl + 1 + base < to; nl = text.indexOf("\n", nl + 1)) {
    if (startsStatement(nl + 1 + base)) {
      end = nl + 1 + base;
      break;
    }
  }
  const before = start > from ? splitProgram(text, base, from, start) : null;
  const after = end < to ? splitProgram(text, base, end, to) : null;
  const excerpt = text.slice(start - base, start - base + 60);
  const deep: BrokenLine = { start, end, incomplete: false, excerpt, tooDeep: true };
  const id = NAME_EQUALS.exec(excerpt)?.[1];
  if (id !== undefined) deep.id = id;
  return {
    statements: [...(before?.statements ?? []), ...(after?.statements ?? [])],
    broken: [...(before?.broken ?? []), deep, ...(after?.broken ?? [])],
    openFrom: after?.statements.length ? after.openFrom : before?.statements.length ? before.openFrom : from,
  };
}

export function statementKind(id: string, expr: Expr): StatementKind {
  if (id.startsWith("$")) return "state";
  if (expr.k === "call") {
    if (expr.name === "Query") return "query";
    if (expr.name === "Mutation") return "mutation";
    return "component";
  }
  return "value";
}

// Lazy statements read a copy of their Program's tree: the engine's is the next parse's once the
// split returns. A check's copy of a long program goes into one buffer, which the next such check
// writes over (a 100k program's tree is 226 KB: allocated for every fix, it and the collections it
// brought on cost more than the rest of the split); other splits (the sanitizer's rounds that read
// a long text whole again) copy for themselves. Statements of a check written over that are read
// afterwards parse their program again, once (rare: a caller that keeps a check's statements
// across another check, and reads them).
// Copied with set(): slice() of a view on linear memory copies unit by unit (measured under Bun:
// 0.7 ms for a 100k program's tree, against 0.09 ms).
const SHARED_FROM_NODES = 8192;
let shared = new Int32Array(0);
let sharedBy: KeptTree | null = null;
let copies = 0;

/** Tree copies allocated by lazy splits (for tests: a long program's fixes share one). */
export function treeCopiesMade(): number {
  return copies;
}

function copyTree(tree: Tree, owner: KeptTree, share: boolean): Int32Array {
  const n = tree.count * 4;
  let data: Int32Array;
  if (share && tree.count >= SHARED_FROM_NODES) {
    if (shared.length < n) {
      shared = new Int32Array(n + (n >> 2));
      copies++;
    }
    sharedBy = owner;
    data = shared;
  } else {
    data = new Int32Array(n);
    copies++;
  }
  data.set(tree.data.subarray(0, n));
  return data;
}

/** The Program tree of `text` (the whole input)[from, to), kept for the statements a lazy split made from it. */
class KeptTree {
  #data: Int32Array;
  #reader: TreeReader;
  constructor(
    tree: Tree,
    private readonly text: string,
    private readonly from: number,
    private readonly to: number,
    share: boolean,
  ) {
    this.#data = copyTree(tree, this, share);
    this.#reader = new TreeReader({ ...tree, data: this.#data }, text, 0);
  }

  get reader(): TreeReader {
    if (this.#data === shared && sharedBy !== this) {
      // Another split wrote over the shared copy: the same text parses to the same tree, node for node.
      setInput(this.text);
      const tree = parseTree("Program", this.from, this.to);
      this.#data = copyTree(tree, this, false);
      this.#reader = new TreeReader({ ...tree, data: this.#data }, this.text, 0);
    }
    return this.#reader;
  }
}

/**
 * A statement whose expression (and kind, which the expression decides) is built from its
 * program's kept tree when first read: a caller that reads a few statements of a long program
 * (the sanitizer, on a program the fast verdict checked) does not build the rest. A class, its
 * getters on the prototype: getters made per statement cost more than building most statements.
 */
class LazyStatement implements Statement {
  #expr: Expr | undefined;
  #kind: StatementKind | undefined;
  constructor(
    readonly id: string,
    private readonly tree: KeptTree,
    private readonly node: number,
    readonly start: number,
    readonly end: number,
  ) {}
  get expr(): Expr {
    return (this.#expr ??= buildExpr(this.tree.reader, this.node));
  }
  get kind(): StatementKind {
    return (this.#kind ??= statementKind(this.id, this.expr));
  }
  /** What a statement built at once shows. */
  toJSON(): Statement {
    return { id: this.id, kind: this.kind, expr: this.expr, start: this.start, end: this.end };
  }
}

/**
 * Reads input[from, to) of the engine's buffer as a program (`tree`: its Program parse, when
 * already made). `text` holds that input from offset `base` on (a stream keeps only its open
 * tail). Never throws. `lazy`: statements build their expressions when read (LazyStatement),
 * only for a whole input (`base` 0), which they can parse again; "shared": from the check's
 * shared copy of the tree (see above).
 */
export function splitProgram(
  text: string,
  base: number,
  from: number,
  to: number,
  tree: Tree = parseTree("Program", from, to),
  lazy: boolean | "shared" = false,
): ProgramParts {
  const statements: Statement[] = [];
  const broken: BrokenLine[] = [];
  let openFrom = from;
  if (tree.overflow) return splitDeep(text, base, from, to, tree.farthest);
  const reader = new TreeReader(tree, text, base);
  let kept: KeptTree | null = null;
  const top = tree.count - 1;
  const lines = top >= 0 && reader.rule(top) === RULE.Program ? reader.children(top) : top >= 0 ? [top] : [];
  for (const line of lines) {
    let node = line;
    const rule = reader.rule(node);
    if (rule === RULE.Line_statement) node = reader.child(node, 0);
    if (rule === RULE.brokenLine || rule === RULE.Line_broken) {
      broken.push({ start: reader.start(node), end: reader.end(node), incomplete: false });
      continue;
    }
    const r = reader.rule(node);
    if (r !== RULE.Statement_value && r !== RULE.Statement_state) continue; // blank lines
    const [nameNode, exprNode] = reader.children(node);
    const id = reader.slice(nameNode);
    if (lazy && base === 0) {
      kept ??= new KeptTree(tree, text, from, to, lazy === "shared");
      statements.push(new LazyStatement(id, kept, exprNode, reader.start(node), reader.end(node)));
      continue;
    }
    const expr = buildExpr(reader, exprNode);
    statements.push({ id, kind: statementKind(id, expr), expr, start: reader.start(node), end: reader.end(node) });
  }
  // Broken lines: name them, and find the one the input stops in the middle of. That one runs
  // to the end, so the lines after it belong to it.
  for (let b = 0; b < broken.length; b++) {
    const line = broken[b];
    const lineText = text.slice(line.start - base, Math.min(line.end, line.start + 200) - base);
    const named = NAME_EQUALS.exec(lineText);
    if (named) line.id = named[1];
    const trimmed = lineText.trim();
    const nl = trimmed.indexOf("\n");
    line.excerpt = (nl === -1 ? trimmed : trimmed.slice(0, nl)).slice(0, 60);
    const attempt = parseTree("Line_statement", line.start, to);
    if (attempt.overflow) line.tooDeep = true;
    else line.stoppedAt = attempt.farthest;
    if (attempt.farthest >= to && to > line.start) {
      line.incomplete = true;
      line.end = to;
      broken.length = b + 1;
      while (statements.length && statements[statements.length - 1].start > line.start) statements.pop();
      break;
    }
    if (!line.tooDeep) describeStop(text, base, line, attempt.farthest, named !== null);
  }
  // A stream keeps the last statement open, with the lines after it: a following line may still
  // continue it (`?` and `:` lines of a ternary), or it may be cut. Broken lines count as ended
  // only once a statement follows them: until then more text may make them one statement.
  const lastStatement = statements[statements.length - 1];
  if (lastStatement) openFrom = lastStatement.start;
  return { statements, broken, openFrom };
}

/**
 * `text` read on its own as a program, syntax only (no check), without disturbing the input the
 * engine holds: how many statements, and the broken lines with offsets into `text`. For tools
 * that try rewrites of one line and need to know only whether it reads.
 */
export function readAlone(text: string): { statements: number; broken: BrokenLine[] } {
  const base = setScratch(text);
  const parts = splitProgram(text, base, base, base + text.length);
  const broken = parts.broken.map((b) => {
    const line = { ...b, start: b.start - base, end: b.end - base };
    if (b.stoppedAt !== undefined) line.stoppedAt = b.stoppedAt - base;
    return line;
  });
  return { statements: parts.statements.length, broken };
}
