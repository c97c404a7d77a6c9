// The public shapes of the language core. Everything here is plain data.

export type ErrorCode =
  | "unknown-component"
  | "missing-required"
  | "null-required"
  | "type-mismatch"
  | "excess-args"
  | "inline-reserved"
  | "incomplete"
  | "unresolved"
  | "orphaned"
  | "missing-root"
  | "syntax";

export interface FixError {
  code: ErrorCode;
  message: string;
  component?: string;
  path?: string;
  statementId?: string;
}

export interface ElementNode {
  type: "element";
  component: string;
  statementId?: string;
  props: Record<string, unknown>;
  /** True while the element's statement is still being streamed. */
  partial: boolean;
}

export interface ParseResult {
  root: ElementNode | null;
  errors: FixError[];
  incomplete: boolean;
  unresolved: string[];
  orphaned: string[];
  statements: number;
}

/** Expression tree of one statement; spans are offsets into the program text. */
export type Expr =
  | { k: "str"; v: string; start: number; end: number }
  | { k: "num"; v: number; start: number; end: number }
  | { k: "bool"; v: boolean; start: number; end: number }
  | { k: "null"; start: number; end: number }
  | { k: "arr"; items: Expr[]; start: number; end: number }
  | { k: "obj"; entries: { key: string; value: Expr }[]; start: number; end: number }
  | { k: "ref"; name: string; start: number; end: number }
  | { k: "state"; name: string; start: number; end: number }
  | { k: "call"; name: string; args: Expr[]; start: number; end: number; nameEnd: number }
  | { k: "builtin"; name: string; args: Expr[]; start: number; end: number }
  | { k: "action"; steps: Expr[]; start: number; end: number }
  | { k: "unary"; op: string; arg: Expr; start: number; end: number }
  | { k: "binary"; op: string; left: Expr; right: Expr; start: number; end: number }
  | { k: "ternary"; cond: Expr; then: Expr; else: Expr; start: number; end: number }
  | { k: "member"; obj: Expr; name: string; start: number; end: number }
  | { k: "index"; obj: Expr; index: Expr; start: number; end: number };

export type StatementKind = "component" | "value" | "state" | "query" | "mutation";

/** One statement of a program, as the parser read it. */
export interface Statement {
  id: string;
  kind: StatementKind;
  expr: Expr;
  /** Span of the whole statement (name to end of expression) in the program text. */
  start: number;
  end: number;
}

/** A line (or bracketed run of lines) that is not a statement. */
export interface BrokenLine {
  start: number;
  end: number;
  /** The line stops mid-statement (open string or bracket, trailing operator, `name =`). */
  incomplete: boolean;
  /** The statement name, when the line starts with `name =`. */
  id?: string;
  /** The line's first characters, for messages. */
  excerpt?: string;
  /** What the parser expected where reading the line as a statement stopped, and what it found there. */
  expected?: string;
  found?: string;
  /** A call whose name starts with a lower-case letter stands where reading stopped (`text(`). */
  lowerCall?: string;
  /** Where reading the line as a statement stopped: the rightmost position the parser tried. */
  stoppedAt?: number;
  /** Nesting went deeper than the parser allows. */
  tooDeep?: boolean;
}
