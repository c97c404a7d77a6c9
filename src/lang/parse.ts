// One-shot parsing: frame, split, check, and a ParseResult whose display tree is built on read.
import { fastVerdict, parseTree, PARTIAL, setInput, verdictDetail, type Tree } from "./engine.ts";
import { verdictTable } from "./verdict-table.ts";
import { frame, type Block } from "./frame.ts";
import { splitProgram, type ProgramParts } from "./program.ts";
import { Checker, checkProgram, definitions, type Checked, type Defs, type PlacedError } from "./check.ts";
import { buildExpr, TreeReader } from "./ast.ts";
import { statementKind } from "./program.ts";
import { RULE } from "./generated/rules.ts";
import { materializeRoot, sourceIn } from "./materialize.ts";
import type { Library } from "./library.ts";
import type { BrokenLine, ElementNode, FixError, ParseResult, Statement } from "./types.ts";

export function publicError(error: PlacedError): FixError {
  const out: FixError = { code: error.code, message: error.message };
  if (error.component !== undefined) out.component = error.component;
  if (error.path !== undefined) out.path = error.path;
  if (error.statementId !== undefined) out.statementId = error.statementId;
  return out;
}

/** What a ParseResult holds, its lists given either built or as functions that build them. */
export interface ResultParts {
  errors: FixError[] | (() => FixError[]);
  incomplete: boolean;
  unresolved: string[] | (() => string[]);
  orphaned: string[] | (() => string[]);
  statements: number;
}

/**
 * A ParseResult whose display tree, and any list given as a function, is built the first time
 * it is read (a stream's lists grow with the program: copying them on every chunk that nobody
 * reads would make streaming quadratic).
 */
export function lazyResult(parts: ResultParts, buildRoot: () => ElementNode | null): ParseResult {
  return new LazyResult(parts, buildRoot);
}

// The lazy fields are getters on the prototype, not on each result: an object literal with its
// own getters costs a new function per getter per result, most of a stream chunk's time under
// JavaScriptCore. `toJSON` gives every field, in the order of ParseResult.
class LazyResult implements ParseResult {
  #root: ElementNode | null | undefined = undefined;
  #buildRoot: () => ElementNode | null;
  #errors: ResultParts["errors"];
  #unresolved: ResultParts["unresolved"];
  #orphaned: ResultParts["orphaned"];
  readonly incomplete: boolean;
  readonly statements: number;

  constructor(parts: ResultParts, buildRoot: () => ElementNode | null) {
    this.#buildRoot = buildRoot;
    this.#errors = parts.errors;
    this.#unresolved = parts.unresolved;
    this.#orphaned = parts.orphaned;
    this.incomplete = parts.incomplete;
    this.statements = parts.statements;
  }

  get root(): ElementNode | null {
    if (this.#root === undefined) this.#root = this.#buildRoot();
    return this.#root;
  }

  get errors(): FixError[] {
    if (typeof this.#errors === "function") this.#errors = this.#errors();
    return this.#errors;
  }

  get unresolved(): string[] {
    if (typeof this.#unresolved === "function") this.#unresolved = this.#unresolved();
    return this.#unresolved;
  }

  get orphaned(): string[] {
    if (typeof this.#orphaned === "function") this.#orphaned = this.#orphaned();
    return this.#orphaned;
  }

  toJSON() {
    return {
      root: this.root,
      errors: this.errors,
      incomplete: this.incomplete,
      unresolved: this.unresolved,
      orphaned: this.orphaned,
      statements: this.statements,
    };
  }
}

/** Checks a whole program already split into statements; `text` is the whole input. */
export function finishProgram(text: string, statements: Statement[], broken: BrokenLine[], library: Library, programEnd: number): ParseResult {
  const checked = checkProgram(statements, broken, library, programEnd, text);
  return lazyResult(
    {
      errors: checked.errors.map(publicError),
      incomplete: broken.some((b) => b.incomplete),
      unresolved: checked.unresolved,
      orphaned: checked.orphaned,
      statements: checked.defs.size,
    },
    () => materializeRoot(sourceIn(text), checked.defs, library, new Set()),
  );
}

// Frames a generation and puts it in the parser's buffer; `from`, `to`: where its program (its
// first and last block) starts and ends in the generation.
function read(generation: string) {
  const framed = frame(generation);
  const from = framed.blocks[0].start;
  const to = framed.blocks[framed.blocks.length - 1].end;
  setInput(generation);
  return { framed, from, to };
}

/** Splits the program of each block (several fenced blocks are one program), offsets into `text`. */
export function splitBlocks(text: string, blocks: Block[]): ProgramParts {
  if (blocks.length === 1) return splitProgram(text, 0, blocks[0].start, blocks[0].end);
  const statements: Statement[] = [];
  const broken: BrokenLine[] = [];
  let openFrom = blocks[0].start;
  for (const block of blocks) {
    // A block ends its last statement: a statement never runs on past a fence.
    const parts = splitProgram(text, 0, block.start, block.end);
    // Not spread as arguments: a block of some 100,000 statements would overflow the stack.
    for (const stmt of parts.statements) statements.push(stmt);
    for (const line of parts.broken) broken.push(line);
    openFrom = parts.openFrom;
  }
  return { statements, broken, openFrom };
}

// The Program tree of the input just read, and the fast verdict on it (src/grammar/verdict.as).
function verdictOn(from: number, to: number, library: Library) {
  const tree = parseTree("Program", from, to);
  return { tree, statements: fastVerdict(tree, verdictTable(library)) };
}

/** What parse() asks first: the statement count when `generation` is certainly valid, else -1. */
export function quickVerdict(generation: string, library: Library): number {
  const { framed, from, to } = read(generation);
  if (framed.blocks.length > 1) return -1;
  return Math.max(-1, verdictOn(from, to, library).statements);
}

// Certainly valid: nothing to report. The display tree, if read, needs the statements built.
function validResult(generation: string, library: Library, from: number, to: number, statements: number): ParseResult {
  return lazyResult({ errors: [], incomplete: false, unresolved: [], orphaned: [], statements }, () => {
    setInput(generation);
    const defs = definitions(splitProgram(generation, 0, from, to).statements);
    return materializeRoot(sourceIn(generation), defs, library, new Set());
  });
}

// Statements the partial path built, and the times it answered, for tests (that an error costs
// its statements).
let partialBuilt = 0;
let partialAnswers = 0;
export function statementsBuiltByPartialChecks(): number {
  return partialBuilt;
}
export function partialChecks(): number {
  return partialAnswers;
}

/**
 * The verdict held for every check but some statements' own (PARTIAL): no broken line, no
 * redefinition, every reference resolved, no cycle, root right and nothing orphaned. So the
 * checker's whole answer is the errors of those statements, which only they and what they
 * reference (transitively: resolving a value follows references) decide. Those are built from
 * the tree and checked; the rest are not read at all. Null when they are too many to be worth it
 * (the caller checks the whole program).
 */
function partialResult(generation: string, tree: Tree, library: Library, from: number, to: number): ParseResult | null {
  const statements = verdictDetail().statements;
  const partial = partialErrors(generation, tree, library);
  if (partial === null) return null;
  return lazyResult(
    { errors: partial.errors.map(publicError), incomplete: false, unresolved: partial.unresolved, orphaned: partial.orphaned, statements },
    () => {
      setInput(generation);
      const all = definitions(splitProgram(generation, 0, from, to).statements);
      return materializeRoot(sourceIn(generation), all, library, new Set());
    },
  );
}

/** The checker's errors (placed, in order), unresolved names and orphans after a PARTIAL verdict on `tree`, or null (see partialResult). */
function partialErrors(generation: string, tree: Tree, library: Library): { errors: PlacedError[]; unresolved: string[]; orphaned: string[] } | null {
  const detail = verdictDetail();
  const n = detail.statements;
  const { exprs, undecided } = detail;
  partialAnswers++;
  const reader = new TreeReader(tree, generation, 0);
  // Statements are built when the checker asks for them: the undecided ones, and those their
  // checks look up (resolving a value follows references). Every name is read from the tree,
  // for `has` and for the suggestions of unresolved references.
  // Read at the first lookup (a misspelt component's check makes none).
  let numbers: Map<string, number> | null = null;
  const names: string[] = new Array(n);
  // A statement's name is the first node of its subtree (a leaf, as the verdict reads it).
  const data = tree.data;
  const nameOf = (s: number) => {
    const node = exprs[s] + 1;
    const first = node - data[node * 4 + 3] + 1;
    return generation.slice(data[first * 4 + 1], data[first * 4 + 2]);
  };
  let allRead = false;
  const allNames = () => {
    if (!allRead) for (let s = 0; s < n; s++) names[s] ??= nameOf(s);
    allRead = true;
    return names;
  };
  const lookup = () => {
    if (numbers) return numbers;
    numbers = new Map();
    allNames().forEach((name, s) => numbers!.set(name, s));
    return numbers;
  };
  // What the verdict's lookups found for the names in the statements built so far (statement
  // number, or -1 for none): most of the checker's questions, answered without reading every name.
  const found = new Map<string, number>();
  const { known } = detail;
  const noteNames = (node: number) => {
    for (let j = node - data[node * 4 + 3] + 1; j < node; j++) {
      if (data[j * 4] !== RULE.name || data[(j + 1) * 4] === RULE.PostfixOp_member || known[j] === -2) continue;
      found.set(generation.slice(data[j * 4 + 1], data[j * 4 + 2]), known[j] - 1);
    }
  };
  const numberOf = (id: string) => {
    const s = found.get(id);
    return s !== undefined ? (s >= 0 ? s : undefined) : lookup().get(id);
  };
  const built: (Statement | undefined)[] = new Array(n);
  const build = (s: number): Statement => {
    let stmt = built[s];
    if (stmt === undefined) {
      const node = exprs[s] + 1;
      noteNames(node);
      const id = names[s] ?? nameOf(s);
      const expr = buildExpr(reader, reader.child(node, 1));
      stmt = built[s] = { id, kind: statementKind(id, expr), expr, start: reader.start(node), end: reader.end(node) };
      partialBuilt++;
    }
    return stmt;
  };
  const defs: Defs = {
    get: (id) => {
      const s = numberOf(id);
      return s === undefined ? undefined : build(s);
    },
    has: (id) => numberOf(id) !== undefined,
  };
  const checker = new Checker(library, defs, new Set(), allNames);
  for (let s = 0; s < n; s++) if (undecided[s] !== 0) checker.statement(build(s));
  const unresolved = checker.unresolved();
  // Orphans as the verdict found them (the same reachability as Checker.orphaned), in source order.
  const orphaned: string[] = [];
  for (let s = 0; s < n; s++) {
    if (detail.reached[s] !== 0) continue;
    const node = exprs[s] + 1;
    const name = names[s] ?? nameOf(s);
    orphaned.push(name);
    checker.orphan(name, reader.start(node));
  }
  const errors = checker.errors;
  errors.sort((a, b) => a.at - b.at);
  return { errors, unresolved, orphaned };
}

export function parse(generation: string, library: Library): ParseResult {
  const { framed, from, to } = read(generation);
  // Several fenced blocks: each is split on its own, and the checker decides.
  if (framed.blocks.length > 1) return checkedParse(generation, library);
  const { tree, statements } = verdictOn(from, to, library);
  if (statements >= 0) return validResult(generation, library, from, to, statements);
  if (statements === PARTIAL) {
    const partial = partialResult(generation, tree, library, from, to);
    if (partial) return partial;
  }
  const parts = splitProgram(generation, 0, from, to, tree);
  return finishProgram(generation, parts.statements, parts.broken, library, to);
}

/** What parse() gives, found without the fast verdict: every statement built and checked. */
export function checkedParse(generation: string, library: Library): ParseResult {
  const { framed, to } = read(generation);
  const parts = splitBlocks(generation, framed.blocks);
  return finishProgram(generation, parts.statements, parts.broken, library, to);
}

export interface Inspection {
  head: string;
  program: string;
  tail: string;
  /** Where each fenced block's program stands in the generation (one for a bare or enveloped program). */
  blocks: Block[];
  between: string[];
  /** Statements and broken lines with offsets into the whole generation. */
  statements: Statement[];
  broken: BrokenLine[];
  /** Every error with `at`, its offset into the generation. */
  errors: PlacedError[];
}

/** What `parse` sees, with positions: for tools that edit the text (the sanitizer). */
export function inspect(generation: string, library: Library): Inspection {
  return examine(generation, library).inspection!;
}

/** inspect(), found without the fast verdict: every statement checked (for tests that hold the two together). */
export function checkedInspect(generation: string, library: Library): Inspection {
  const { framed, to } = read(generation);
  const parts = splitBlocks(generation, framed.blocks);
  const checked = checkProgram(parts.statements, parts.broken, library, to, generation);
  return { ...framed, statements: parts.statements, broken: parts.broken, errors: checked.errors };
}

/**
 * One parse of the text, split into statements, with the checker's errors: the verdict's
 * "valid" (no errors) or its partial answer (only the undecided statements checked) where it
 * has one, else the whole checker. `checked`: the whole checker's result, when it ran;
 * `verdict`: the statement count when the verdict found the text valid, else -1. `splitValid`
 * false: the check (parseAndInspect), which needs no statements of a valid text and reads the
 * others from the shared tree copy (program.ts).
 */
function examine(
  generation: string,
  library: Library,
  splitValid = true,
): { inspection: Inspection | null; checked: Checked | null; unresolved: string[]; orphaned: string[]; verdict: number; from: number; to: number } {
  const { framed, from, to } = read(generation);
  let parts: ProgramParts;
  let errors: PlacedError[] | null = null;
  let unresolved: string[] = [];
  let orphaned: string[] = [];
  let verdict = -1;
  if (framed.blocks.length > 1) parts = splitBlocks(generation, framed.blocks);
  else {
    const { tree, statements } = verdictOn(from, to, library);
    if (statements >= 0) errors = [];
    else if (statements === PARTIAL) {
      const partial = partialErrors(generation, tree, library);
      if (partial) ({ errors, unresolved, orphaned } = partial);
    }
    verdict = statements;
    if (statements >= 0 && !splitValid) return { inspection: null, checked: null, unresolved, orphaned, verdict, from, to };
    // The partial check reads the verdict's tables first: splitting may parse again (broken lines).
    // When the verdict has answered, the statements need not be checked: their trees are built
    // only for those read (from the shared copy of the tree when this is the check).
    parts = splitProgram(generation, 0, from, to, tree, errors === null ? false : splitValid ? true : "shared");
  }
  let checked: Checked | null = null;
  if (errors === null) {
    checked = checkProgram(parts.statements, parts.broken, library, to, generation);
    errors = checked.errors;
  }
  const inspection = { ...framed, statements: parts.statements, broken: parts.broken, errors };
  return { inspection, checked, unresolved: checked?.unresolved ?? unresolved, orphaned: checked?.orphaned ?? orphaned, verdict, from, to };
}

/**
 * parse() and, when the generation is not certainly valid, inspect() from the same single parse
 * of the text: what Autofix asks first, so that its repair starts from the inspection instead of
 * parsing the text again. `inspection` is null exactly when the fast verdict found it valid.
 */
export function parseAndInspect(generation: string, library: Library): { result: ParseResult; inspection: Inspection | null } {
  const { inspection, checked, unresolved, orphaned, verdict, from, to } = examine(generation, library, false);
  if (inspection === null) return { result: validResult(generation, library, from, to, verdict), inspection: null };
  const result = lazyResult(
    {
      errors: inspection.errors.map(publicError),
      incomplete: inspection.broken.some((b) => b.incomplete),
      unresolved,
      orphaned,
      // Without the whole checker the verdict ran, and found no redefinition.
      statements: checked ? checked.defs.size : inspection.statements.length,
    },
    () => materializeRoot(sourceIn(generation), checked?.defs ?? definitions(inspection.statements), library, new Set()),
  );
  return { result, inspection };
}
