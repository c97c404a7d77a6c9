// The boundary to the WebAssembly parser. One call per parse; the input is copied once into a
// long-lived buffer in linear memory (a growing text only has its new tail copied); the tree
// is read in place through a typed-array view. No JSON and no per-node objects cross over.
import { UI_WASM_BASE64 } from "./generated/ui-wasm.ts";
import { COUNT_RULES, START_RULES } from "./generated/rules.ts";

interface Exports {
  memory: WebAssembly.Memory;
  prepare(capacity: number): number;
  parse(which: number, from: number, length: number): number;
  nodes(): number;
  nodeCount(): number;
  farthestPosition(): number;
  overflowed(): number;
  applications(k: number): number;
  verdictTable(bytes: number): number;
  verdict(tableBytes: number): number;
  verdictStatements(): number;
  verdictExprs(): number;
  verdictUndecided(): number;
  verdictEdgeStarts(): number;
  verdictEdges(): number;
  verdictReached(): number;
  verdictKnown(): number;
}

/** A parse's flat tree: node i is `data[4i..4i+3]` = rule, start, end, subtree size (postorder). */
export interface Tree {
  /** Four numbers per node (its records are the first `count * 4`; the view may run on past them). */
  data: Int32Array;
  count: number;
  /** Where the parse stopped (-1 when the start rule did not match). */
  end: number;
  /** The rightmost position any token was tried at. */
  farthest: number;
  /** Nesting went deeper than the parser allows. */
  overflow: boolean;
}

export type StartRule = (typeof START_RULES)[number];

let wasm: Exports | null = null;
let capacity = 0;
let inputPtr = 0;
// The text now in the buffer, so that an appended text copies only its tail.
let held = "";
// Whose text `held` is (a stream parser), so that it can append without checking the text.
let heldOwner: object | null = null;

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function loadEngine(): Promise<void> {
  if (wasm) return;
  const { instance } = await WebAssembly.instantiate(decodeBase64(UI_WASM_BASE64), {
    env: {
      abort() {
        throw new Error("ui.wasm aborted");
      },
    },
  });
  wasm = instance.exports as unknown as Exports;
  // prepare() lays out the module's memory (input, memo tables, tree, and past them the verdict's
  // tables). Done now, not at the first input that needs room: a first parse of "" copies
  // nothing, and would otherwise parse and judge in memory never laid out.
  reserve(0);
}

export function engineLoaded(): boolean {
  return wasm !== null;
}

function reserve(length: number): void {
  if (length <= capacity && capacity > 0) return;
  const keep = held;
  capacity = Math.max(4096, length * 2);
  inputPtr = wasm!.prepare(capacity);
  held = "";
  if (keep) append(keep); // a stream's text survives the move
}

// Linear memory as code units, made again only when memory grows (a view per chunk costs more
// than copying a chunk). Growing detaches the old buffer, which leaves the view empty: that is
// checked rather than the buffer itself, whose getter costs more than the copy of a chunk.
let unitView: Uint16Array<ArrayBufferLike> = new Uint16Array(0);
function units(): Uint16Array {
  if (unitView.length === 0) unitView = new Uint16Array(wasm!.memory.buffer);
  return unitView;
}

function append(chunk: string): void {
  const view = units();
  const at = (inputPtr >> 1) + held.length;
  for (let i = 0; i < chunk.length; i++) view[at + i] = chunk.charCodeAt(i);
  held = held === "" ? chunk : held + chunk; // the string itself, so that it is found again at once
}

function need(): Exports {
  if (!wasm) throw new Error("call loadLanguage() before parsing");
  return wasm;
}

/** Puts `text` in the input buffer, copying only what is not there already. */
export function setInput(text: string): void {
  need();
  heldOwner = null;
  if (text === held) return; // the same text again (a string compared with itself costs nothing)
  if (held.length <= text.length && text.startsWith(held)) {
    reserve(text.length);
    append(text.slice(held.length));
    return;
  }
  held = "";
  reserve(text.length);
  append(text);
}

/** Appends to the input buffer when it still holds `before` (a stream's text so far); false when it does not. */
export function appendInput(before: number, owner: object, chunk: string): boolean {
  need();
  if (heldOwner !== owner || held.length !== before) return false;
  reserve(before + chunk.length);
  append(chunk);
  return true;
}

/** Marks the buffer as holding `owner`'s text (null: anyone's). */
export function claimInput(owner: object | null): void {
  heldOwner = owner;
}

/**
 * Puts `text` just past the held input, without disturbing it (a stream's text stays in place),
 * and at `from` or past it; returns the offset it starts at. The next append overwrites it.
 */
export function setScratch(text: string, from = 0): number {
  need();
  const base = Math.max(held.length, from);
  reserve(base + text.length);
  const view = units();
  const at = (inputPtr >> 1) + base;
  for (let i = 0; i < text.length; i++) view[at + i] = text.charCodeAt(i);
  return base;
}

/**
 * Puts the held input's ranges `[ranges[0], ranges[1])`, `[ranges[2], ranges[3])`, … one after
 * another just past it, copied inside linear memory (no string is made or read); returns the
 * offset the copy starts at and its length. The next append overwrites it.
 */
export function setScratchFrom(ranges: number[]): { base: number; length: number } {
  need();
  const base = held.length;
  let length = 0;
  for (let i = 0; i < ranges.length; i += 2) length += ranges[i + 1] - ranges[i];
  reserve(base + length);
  const view = units();
  const input = inputPtr >> 1;
  let at = input + base;
  for (let i = 0; i < ranges.length; i += 2) {
    view.copyWithin(at, input + ranges[i], input + ranges[i + 1]);
    at += ranges[i + 1] - ranges[i];
  }
  return { base, length };
}

// Code units handed to the parser so far: what a stream's chunks cost, countable in tests.
let unitsRead = 0;
export function unitsParsed(): number {
  return unitsRead;
}

/**
 * Units the last parse read one by one inside the brackets of broken lines (applications of
 * `bracketChar`, counted by the module): a measure of recovery's work.
 */
export function recoveryUnitsRead(): number {
  return need().applications(COUNT_RULES.indexOf("bracketChar"));
}

/** Parses input[from, to) of the buffer with one of the module's start rules. Never throws. */
export function parseTree(rule: StartRule, from: number, to: number): Tree {
  const w = need();
  unitsRead += to - from;
  let end = -1;
  let overflow = false;
  try {
    end = w.parse(START_RULES.indexOf(rule), from, to);
    overflow = w.overflowed() !== 0;
  } catch {
    // A native stack overflow on absurd nesting: reported like the parser's own limit.
    overflow = true;
  }
  const count = overflow ? 0 : w.nodeCount();
  return { data: nodeRecords(w, count), count, end: overflow ? -1 : end, farthest: w.farthestPosition(), overflow };
}

// The tree's records through one view of linear memory from the first record on, made again only
// when memory grows (the old view is then empty) or the records move: a view per parse costs as
// much as parsing a short line. A tree's records are the first `count * 4` of it.
let nodeView: Int32Array<ArrayBufferLike> = new Int32Array(0);
let nodeAt = -1;
function nodeRecords(w: Exports, count: number): Int32Array {
  const at = w.nodes();
  if (at !== nodeAt || nodeView.length < count * 4) {
    const buffer = w.memory.buffer;
    nodeView = new Int32Array(buffer, at, (buffer.byteLength - at) >> 2);
    nodeAt = at;
  }
  return nodeView;
}

/**
 * Whether reading input[from, to) of the buffer with `rule` stopped for want of more input: the
 * parse failed (no overflow) and looked at `to`. No tree is read.
 */
export function wantsMore(rule: StartRule, from: number, to: number): boolean {
  const w = need();
  unitsRead += to - from;
  try {
    const end = w.parse(START_RULES.indexOf(rule), from, to);
    return end === -1 && w.overflowed() === 0 && w.farthestPosition() >= to;
  } catch {
    return false; // a native stack overflow
  }
}

/**
 * The fast verdict (src/grammar/verdict.as) on `tree`, the last Program parse, against a
 * library's tables: the number of statements when the program certainly passes every check,
 * else -1 (not known: the checker decides). `tree` stays readable.
 */
export function fastVerdict(tree: Tree, table: Uint8Array): number {
  const w = need();
  const at = w.verdictTable(table.length);
  new Uint8Array(w.memory.buffer, at, table.length).set(table);
  const statements = w.verdict(table.length);
  // Memory may have grown: the same records, seen through the new buffer.
  tree.data = new Int32Array(w.memory.buffer, w.nodes(), tree.count * 4);
  return statements;
}

/** What a verdict of -2 (`PARTIAL`) leaves to the checker, read in place (valid until the next parse). */
export interface VerdictDetail {
  statements: number;
  /** Per statement, in source order: its expression node (its Statement node is the next one). */
  exprs: Int32Array;
  /** Per statement: 1 when the checker must check it. */
  undecided: Int32Array;
  /** Statement s references edges[edgeStarts[s] .. edgeStarts[s + 1]) (statement numbers). */
  edgeStarts: Int32Array;
  edges: Int32Array;
  /** Per statement: 1 when it is reachable from root (else an orphan). */
  reached: Int32Array;
  /** Per node: for a `name` the verdict looked up, its statement + 1 (0: none, -2: a loop variable). */
  known: Int32Array;
}

/** The verdict's answer when every check held but some statements' own: see verdictDetail(). */
export const PARTIAL = -2;

export function verdictDetail(): VerdictDetail {
  const w = need();
  const n = w.verdictStatements();
  const buffer = w.memory.buffer;
  const edgeStarts = new Int32Array(buffer, w.verdictEdgeStarts(), n + 1);
  return {
    statements: n,
    exprs: new Int32Array(buffer, w.verdictExprs(), n),
    undecided: new Int32Array(buffer, w.verdictUndecided(), n),
    edgeStarts,
    edges: new Int32Array(buffer, w.verdictEdges(), edgeStarts[n]),
    reached: new Int32Array(buffer, w.verdictReached(), n),
    known: new Int32Array(buffer, w.verdictKnown(), w.nodeCount()),
  };
}
