// The fast verdict (AssemblyScript, compiled into ui.wasm after the generated parser, whose
// globals and `RULE_*` ids it reads). It answers one question about the tree the parser just
// wrote: does the program certainly pass every check of src/lang/check.ts against the library
// tables of src/lang/verdict-table.ts? It answers yes (the statement count) or "not known" (-1),
// never "invalid": wherever an answer would need more than a few comparisons (a broken line, an
// error, a `const`, an escaped string, a reference cycle), it says -1 and the caller runs
// the checker, which finds and words the errors. Most programs are valid, and for them a parse
// is two calls into this module (parse, verdict); tests hold the two answers together
// (test/lang/verdict.test.ts).

// The library tables' layout (written by src/lang/verdict-table.ts; words of i32, the string pool
// u16), generated with the writer's from one declaration: src/grammar/verdict-layout.ts.
import {
  T_COMPONENTS, T_HASH_SIZE, T_HASH_AT, T_COMPONENTS_AT, T_SHAPES_AT, T_ROOT, T_BUILTINS, T_BUILTINS_AT,
  T_POOL_AT, T_NAMES_AT, N_QUERY, N_MUTATION, N_EACH, N_ROOT, COMPONENT_WORDS, C_NAME_AT, C_NAME_LENGTH,
  C_PROPS, C_PROPS_AT, PROP_WORDS, PROP_FLAGS, PROP_SHAPE, SHAPE_WORDS, S_FLAGS, S_KINDS, S_ITEMS, S_REFS,
  S_REFS_AT, S_BRANCHES, S_BRANCHES_AT, S_ENUM, S_ENUM_AT, S_PROPS, S_PROPS_AT, S_REFS_FROM, ENTRY_WORDS,
  ENTRY_KEY_AT, ENTRY_KEY_LENGTH, ENTRY_SHAPE, STRING_WORDS, STR_AT, STR_LENGTH, F_ANY, F_CONST, F_INTEGER,
  F_REFS, F_BRANCHES, F_ENUM, F_ENUM_OTHER, P_REQUIRED, P_DEFAULT, K_STR, K_NUM, K_BOOL, K_NULL, K_ARR,
  K_OBJ, K_CALL,
} from "./generated/verdict-layout";
// Statement kinds.
const SK_VALUE: i32 = 0;
const SK_STATE: i32 = 1;
const SK_RESERVED: i32 = 2; // Query(...) or Mutation(...)
const MAX_HOPS: i32 = 64;
// Answers of fit().
const FITS: i32 = 1;
const MISS: i32 = 0;
const UNKNOWN: i32 = 2;

let table: usize = 0;
let pool: usize = 0;
let shapes: usize = 0; // byte addresses of the shape records and the component records
let components: usize = 0;
let stmtName: usize = 0; // per statement: its name node, its expression node, its kind
let stmtExpr: usize = 0;
let stmtKind: usize = 0;
let stmtComp: usize = 0; // per statement: the component its expression calls, or -1
let stmts: i32 = 0;
// fit() calls this verdict may make (a few per node of the tree): values shared through references
// (`x1 = [x2, x2]`, `x0 = [x1, x1]`) are fitted once per way to reach them, which doubles with each
// level. Past the budget the answer is UNKNOWN, and the checker (which remembers what fits) decides.
let fitSteps: i32 = 0;
let fitBudget: i32 = 0;
let slots: usize = 0; // statement names (see slotAt)
let slotMask: i32 = 0;
let edgeStart: usize = 0; // per statement, into edges
let edges: usize = 0;
let edgeCount: i32 = 0;
let undecided: usize = 0; // per statement: 1 when its own checks were not all decided (see verdict)
let undecidedCount: i32 = 0;
let reached: usize = 0; // per statement: 1 when reachable from root, state, queries and mutations
let known: usize = 0; // per node, what a lookup found (see statementOf and componentOf)
let forward = true;
let backward = true;

@inline function word(at: i32): i32 { return load<i32>(table + (<usize>at << 2)); }
// Word k of a record at byte address rec (k is a constant: one load with an offset).
@inline function field(rec: usize, k: i32): i32 { return load<i32>(rec + (<usize>k << 2)); }
@inline function nodeRule(i: i32): i32 { return load<i32>(nodesPtr + (<usize>i << 4)); }
@inline function nodeStart(i: i32): i32 { return load<i32>(nodesPtr + (<usize>i << 4), 4); }
@inline function nodeEnd(i: i32): i32 { return load<i32>(nodesPtr + (<usize>i << 4), 8); }
@inline function nodeSize(i: i32): i32 { return load<i32>(nodesPtr + (<usize>i << 4), 12); }
@inline function at32(base: usize, i: i32): i32 { return load<i32>(base + (<usize>i << 2)); }
@inline function set32(base: usize, i: i32, v: i32): void { store<i32>(base + (<usize>i << 2), v); }

// What the verdict needs to know of a rule, one byte per rule id: a load instead of a chain of
// comparisons in the hottest loops.
const NOISE: u8 = 1; // white space and line ends kept in the tree
const WHOLE: u8 = 2; // never a wrapper (see unwrap)
const RULE_CLASS = memory.data(256);
store<u8>(RULE_CLASS + RULE_gap, NOISE);
store<u8>(RULE_CLASS + RULE_ternaryBreak, NOISE);
store<u8>(RULE_CLASS + RULE_nl, NOISE);
store<u8>(RULE_CLASS + RULE_lineEnd, NOISE);
store<u8>(RULE_CLASS + RULE_sameLine, NOISE);
store<u8>(RULE_CLASS + RULE_literal, WHOLE);
store<u8>(RULE_CLASS + RULE_name, WHOLE);
store<u8>(RULE_CLASS + RULE_ComponentCall, WHOLE);
store<u8>(RULE_CLASS + RULE_ArrayLit, WHOLE);
store<u8>(RULE_CLASS + RULE_ObjectLit, WHOLE);
store<u8>(RULE_CLASS + RULE_stateName, WHOLE);
store<u8>(RULE_CLASS + RULE_Items, WHOLE);
store<u8>(RULE_CLASS + RULE_Entries, WHOLE);
// With one child (a builtin or action step called without arguments), still a call: src/lang/ast.ts
// keeps it.
store<u8>(RULE_CLASS + RULE_BuiltinCall, WHOLE);
store<u8>(RULE_CLASS + RULE_ActionCall, WHOLE);
store<u8>(RULE_CLASS + RULE_Unary_op, WHOLE);

@inline function isNoise(rule: i32): bool {
  return (load<u8>(RULE_CLASS + <usize>rule) & NOISE) != 0;
}

// Children are read last to first, without a list: in postorder node i's last child is i - 1,
// each child's previous sibling is just below its subtree, and the first node of i's subtree
// (its first leaf) is firstNode(i). Order does not matter to the verdict, except for arguments,
// which are counted first.
@inline function firstNode(i: i32): i32 { return i - nodeSize(i) + 1; }

// What src/lang/ast.ts turns into the node's child: groups, and wrappers kept around a single
// child only for the noise beside it (newlines in brackets, a chain level with no operator).
@inline function unwrap(i: i32): i32 {
  return isWhole(nodeRule(i)) ? i : unwrapWrapper(i);
}
// Nodes that are never wrappers (the usual case, tested without a call).
@inline function isWhole(rule: i32): bool {
  return (load<u8>(RULE_CLASS + <usize>rule) & WHOLE) != 0;
}
function unwrapWrapper(i: i32): i32 {
  while (true) {
    const rule = nodeRule(i);
    if (isWhole(rule)) return i;
    let only = -1;
    let n = 0;
    for (let j = i - 1, first = firstNode(i); j >= first && n < 2; j -= nodeSize(j)) {
      if (!isNoise(nodeRule(j))) {
        only = j;
        n++;
      }
    }
    if (rule == RULE_Group || n == 1) i = only;
    else return i;
  }
}

// A bracketed list: the items of an array literal, or a call's arguments (after its name). They
// are the node's children, or the children of its one `Items` child (an Items node with one item
// was replaced by the item). Sets listLast and listStop: read j = listLast, j -= nodeSize(j),
// while j > listStop, skipping noise.
let listLast: i32 = 0;
let listStop: i32 = 0;
@inline function openList(node: i32, stop: i32): void {
  let only = -1;
  let n = 0;
  for (let j = node - 1; j > stop && n < 2; j -= nodeSize(j)) {
    if (!isNoise(nodeRule(j))) {
      only = j;
      n++;
    }
  }
  if (n == 1 && (nodeRule(only) == RULE_Items || nodeRule(only) == RULE_Entries)) {
    listLast = only - 1;
    listStop = firstNode(only) - 1;
  } else {
    listLast = node - 1;
    listStop = stop;
  }
}

// Text comparisons: a span of the input against a string of the pool.
@inline function spanIs(start: i32, end: i32, off: i32, len: i32): bool {
  return end - start == len && sameUnits(INPUT + (<usize>start << 1), pool + (<usize>off << 1), len);
}
// Whether `len` code units at a and at b are the same, compared four at a time.
@inline function sameUnits(a: usize, b: usize, len: i32): bool {
  let k: usize = 0;
  const bytes = <usize>len << 1;
  for (; k + 8 <= bytes; k += 8) if (load<u64>(a + k) != load<u64>(b + k)) return false;
  for (; k < bytes; k += 2) if (load<u16>(a + k) != load<u16>(b + k)) return false;
  return true;
}
@inline function spanIsName(start: i32, end: i32, which: i32): bool {
  const at = word(T_NAMES_AT) + which * STRING_WORDS;
  return spanIs(start, end, word(at + STR_AT), word(at + STR_LENGTH));
}
// FNV-1a over the span's code units, four at a time (the last four read again when the length
// is not a multiple of four: the same text always hashes the same).
@inline function hashSpan(start: i32, end: i32): u32 {
  return hashUnits(INPUT + (<usize>start << 1), end - start);
}
@inline function hashUnits(at: usize, len: i32): u32 {
  const bytes = <usize>len << 1;
  let h: u64 = 0xcbf29ce484222325 ^ <u64>len;
  let k: usize = 0;
  for (; k + 8 <= bytes; k += 8) h = (h ^ load<u64>(at + k)) * 0x100000001b3;
  if (k < bytes) {
    if (bytes >= 8) h = (h ^ load<u64>(at + bytes - 8)) * 0x100000001b3;
    else for (; k < bytes; k += 2) h = (h ^ <u64>load<u16>(at + k)) * 0x100000001b3;
  }
  // Products carry low bits upwards only: fold the high half down, then take the high half of
  // one more product, so that every unit reaches the low bits a table slot is cut from.
  h = (h ^ (h >> 32)) * 0x9e3779b97f4a7c15;
  return <u32>(h >> 32);
}
// Fills the table's component hash (names → id + 1, open addressing; left empty by
// verdict-table.ts so that names are hashed by one function only).
function hashComponents(): void {
  const mask = word(T_HASH_SIZE) - 1;
  const hashAt = word(T_HASH_AT);
  const records = table + (<usize>word(T_COMPONENTS_AT) << 2);
  for (let id = 0; id < word(T_COMPONENTS); id++) {
    const rec = records + <usize>id * (COMPONENT_WORDS << 2);
    let h = <i32>(hashUnits(pool + (<usize>field(rec, C_NAME_AT) << 1), field(rec, C_NAME_LENGTH)) & <u32>mask);
    while (word(hashAt + h) != 0) h = (h + 1) & mask;
    store<i32>(table + (<usize>(hashAt + h) << 2), id + 1);
  }
}

@inline function lookupComponent(start: i32, end: i32): i32 {
  const mask = word(T_HASH_SIZE) - 1;
  const hashAt = word(T_HASH_AT);
  for (let h = <i32>(hashSpan(start, end) & <u32>mask); word(hashAt + h) != 0; h = (h + 1) & mask) {
    const id = word(hashAt + h) - 1;
    const rec = components + <usize>id * (COMPONENT_WORDS << 2);
    if (spanIs(start, end, field(rec, C_NAME_AT), field(rec, C_NAME_LENGTH))) return id;
  }
  return -1;
}

// Statement names: 16-byte slots {statement + 1, hash, text address, length}, open addressing. A
// probe reads one place, and the name's text only when the whole hash matches.
@inline function slotAt(h: i32): usize { return slots + (<usize>h << 4); }
// The slot holding the name of `len` units at `text` (hashed `hash`), or the empty slot it would go in.
@inline function probe(text: usize, len: i32, hash: u32): i32 {
  let h = <i32>(hash & <u32>slotMask);
  while (true) {
    const at = slotAt(h);
    if (load<i32>(at) == 0) return h;
    if (load<u32>(at, 4) == hash && load<i32>(at, 12) == len && sameUnits(text, load<usize>(at, 8), len)) return h;
    h = (h + 1) & slotMask;
  }
}
// The statement named by `len` units at `text`, or -1.
@inline function lookupStatement(text: usize, len: i32): i32 {
  return load<i32>(slotAt(probe(text, len, hashUnits(text, len)))) - 1;
}

// Adds statement s under its name; false when the name is taken (a redefinition).
function addStatement(s: i32): bool {
  const name = at32(stmtName, s);
  const text = INPUT + (<usize>nodeStart(name) << 1);
  const len = nodeEnd(name) - nodeStart(name);
  const hash = hashUnits(text, len);
  const at = slotAt(probe(text, len, hash));
  if (load<i32>(at) != 0) return false;
  store<i32>(at, s + 1);
  store<u32>(at, hash, 4);
  store<usize>(at, text, 8);
  store<i32>(at, len, 12);
  return true;
}

// The kind bit of an unwrapped value node (K_CALL: known only by following it).
@inline function kindOf(v: i32): i32 {
  const rule = nodeRule(v);
  if (rule == RULE_ArrayLit) return K_ARR;
  if (rule == RULE_ObjectLit) return K_OBJ;
  if (rule != RULE_literal) return K_CALL;
  const c = ch(nodeStart(v));
  if (c == 34 || c == 39) return K_STR;
  if (c == 116 || c == 102) return K_BOOL;
  if (c == 110) return K_NULL;
  return K_NUM;
}

// The name node of a call: its first child, the first node of its subtree (a leaf).
@inline function callName(call: i32): i32 {
  return firstNode(call);
}

// Every lookup is made once, before anything asks (see lookUpAll), and kept per node in `known`
// as answer + 1: for a component name its id, NONE or RESERVED; for a name the statement, NONE,
// or SCOPED.
const RESERVED: i32 = -2; // Query or Mutation
const NONE: i32 = -1;
const SCOPED: i32 = -3; // an @Each loop variable in its template: a value at run time, no reference

/** The component ComponentCall node `call` names: its id, NONE or RESERVED. */
@inline function componentOf(call: i32): i32 {
  return at32(known, callName(call)) - 1;
}
/** The statement `name` node `ref` refers to, NONE or SCOPED. */
@inline function statementOf(ref: i32): i32 {
  return at32(known, ref) - 1;
}

// Looks up every component name and every reference in one pass over the tree: the lookups do
// not wait on each other's answers, so their reads from memory overlap. Definitions are marked
// in `known` already; a member's name (`.name`, the last child of the PostfixOp_member node right
// after it) is no reference. An @Each comes after its template (postorder): its loop variable is
// marked there over what was looked up. False: the verdict is not known.
function lookUpAll(): bool {
  for (let j = 0, last = count - 1; j < last; j++) {
    const rule = nodeRule(j);
    if (rule == RULE_name) {
      if (at32(known, j) == 0 && nodeRule(j + 1) != RULE_PostfixOp_member) {
        set32(known, j, lookupStatement(INPUT + (<usize>nodeStart(j) << 1), nodeEnd(j) - nodeStart(j)) + 1);
      }
    } else if (rule == RULE_componentName) {
      const s = nodeStart(j);
      const e = nodeEnd(j);
      set32(known, j, (spanIsName(s, e, N_QUERY) || spanIsName(s, e, N_MUTATION) ? RESERVED : lookupComponent(s, e)) + 1);
    } else if (rule == RULE_BuiltinCall) {
      const name = callName(j);
      if (spanIsName(nodeStart(name) + 1, nodeEnd(name), N_EACH) && !scopeEach(j)) return false;
    }
  }
  return true;
}

// @Each(list, "v", template...): in the template, `v` is the loop variable (Checker.visit's scope),
// and its names there are marked SCOPED. The list, and an @Each with fewer arguments or a
// variable that is no string, scope nothing. False when the variable's string is escaped.
function scopeEach(each: i32): bool {
  openList(each, callName(each));
  let n = 0;
  for (let j = listLast; j > listStop; j -= nodeSize(j)) if (!isNoise(nodeRule(j))) n++;
  if (n < 3) return true;
  // The arguments last to first: the template runs from the third one's first node to the last one.
  let last = -1;
  let from = 0;
  let variable = -1;
  for (let j = listLast, k = n; j > listStop && variable < 0; j -= nodeSize(j)) {
    if (isNoise(nodeRule(j))) continue;
    k--;
    if (last < 0) last = j;
    if (k == 2) from = firstNode(j);
    if (k == 1) variable = unwrap(j);
  }
  if (kindOf(variable) != K_STR) return true;
  const start = plainString(variable);
  if (start < 0) return false;
  const len = nodeEnd(variable) - 1 - start;
  const text = INPUT + (<usize>start << 1);
  for (let j = from; j <= last; j++) {
    if (nodeRule(j) != RULE_name || nodeEnd(j) - nodeStart(j) != len || nodeRule(j + 1) == RULE_PostfixOp_member) continue;
    if (sameUnits(INPUT + (<usize>nodeStart(j) << 1), text, len)) set32(known, j, SCOPED + 1);
  }
  return true;
}

// Follows references to a statically known value (as Checker.resolve does): the unwrapped
// node, or -1 when the value is known only at run time.
function resolve(v: i32): i32 {
  for (let hops = 0; nodeRule(v) == RULE_name; hops++) {
    const s = statementOf(v);
    if (s < 0 || at32(stmtKind, s) != SK_VALUE || hops > MAX_HOPS) return -1;
    v = unwrap(at32(stmtExpr, s));
  }
  const rule = nodeRule(v);
  if (rule == RULE_literal || rule == RULE_ArrayLit || rule == RULE_ObjectLit) return v;
  if (rule == RULE_ComponentCall) {
    return componentOf(v) < 0 ? -1 : v;
  }
  return -1;
}

// Where a string literal's text starts (past its quote) when it holds no escape, else -1.
@inline function plainString(v: i32): i32 {
  const start = nodeStart(v) + 1;
  const end = nodeEnd(v) - 1;
  for (let k = start; k < end; k++) if (ch(k) == 92) return -1;
  return start;
}

// Whether string literal `v`, read between its quotes, is one of the enum members of shape
// record `rec`. Members hold no backslash (verdict-table.ts), so a literal equal to one holds none
// either and is that member; a literal equal to none is none unless it is escaped.
@inline function inEnum(v: i32, rec: usize): bool {
  const start = nodeStart(v) + 1;
  const end = nodeEnd(v) - 1;
  const at = field(rec, S_ENUM_AT);
  for (let k = 0; k < field(rec, S_ENUM); k++) {
    const str = at + STRING_WORDS * k;
    if (spanIs(start, end, word(str + STR_AT), word(str + STR_LENGTH))) return true;
  }
  return false;
}

// Whether component `id` is in the refs of shape record `rec`: a set of bits over the words
// from the lowest id's to the highest's.
@inline function refsHold(rec: usize, id: i32): bool {
  const w = (id >> 5) - field(rec, S_REFS_FROM);
  return w >= 0 && w < field(rec, S_REFS) && ((word(field(rec, S_REFS_AT) + w) >>> (id & 31)) & 1) != 0;
}

// Whether value node `raw` fits shape `shape` (Checker.fits, deciding only): FITS, MISS, UNKNOWN.
function fit(raw: i32, shape: i32, depth: i32): i32 {
  if (++fitSteps > fitBudget) return UNKNOWN;
  const rec = shapes + <usize>shape * (SHAPE_WORDS << 2);
  const flags = field(rec, S_FLAGS);
  if (depth > MAX_HOPS || (flags & F_ANY) != 0) return FITS;
  let v = unwrap(raw);
  let bit = kindOf(v);
  if (bit == K_CALL) {
    v = resolve(v);
    if (v < 0) return FITS;
    bit = kindOf(v);
  }
  if ((flags & F_REFS) != 0) {
    if (bit != K_CALL) return MISS;
    const id = componentOf(v);
    return id >= 0 && refsHold(rec, id) ? FITS : MISS;
  }
  if ((flags & F_BRANCHES) != 0) {
    let answer = MISS;
    const at = field(rec, S_BRANCHES_AT);
    for (let k = 0; k < field(rec, S_BRANCHES) && answer != FITS; k++) {
      const a = fit(v, word(at + k), depth + 1);
      if (a != MISS) answer = a;
    }
    if (answer != FITS) return answer;
  }
  if ((flags & F_ENUM) != 0 && bit != K_NULL) {
    if (bit != K_STR) return bit == K_NUM || bit == K_BOOL ? ((flags & F_ENUM_OTHER) != 0 ? UNKNOWN : MISS) : MISS;
    if (!inEnum(v, rec)) return (flags & F_ENUM_OTHER) != 0 || plainString(v) < 0 ? UNKNOWN : MISS;
  }
  if ((flags & F_CONST) != 0) return UNKNOWN;
  if ((field(rec, S_KINDS) & bit) == 0) return MISS;
  if ((flags & F_INTEGER) != 0 && bit == K_NUM) {
    // Digits only (with a sign) is an integer; a fraction or exponent may be one: let the checker say.
    for (let k = nodeStart(v); k < nodeEnd(v); k++) {
      const c = ch(k);
      if (c == 46 || c == 101 || c == 69) return UNKNOWN;
    }
  }
  const items = field(rec, S_ITEMS);
  if (bit == K_ARR && items >= 0) {
    openList(v, firstNode(v) - 1);
    const stop = listStop;
    for (let j = listLast; j > stop; j -= nodeSize(j)) {
      if (isNoise(nodeRule(j))) continue;
      const answer = quickThenFit(j, items, depth + 1);
      if (answer != FITS) return answer;
    }
  }
  const props = field(rec, S_PROPS);
  if (bit == K_OBJ && props > 0) {
    openList(v, firstNode(v) - 1);
    const stop = listStop;
    for (let j = listLast; j > stop; j -= nodeSize(j)) {
      if (isNoise(nodeRule(j))) continue;
      const answer = fitEntry(j, rec, depth);
      if (answer != FITS) return answer;
    }
  }
  return FITS;
}

// One `key: value` of an object literal against the properties of shape record `rec`.
function fitEntry(entry: i32, rec: usize, depth: i32): i32 {
  // Entry = gap key gap ":" Expr: the key is the first leaf after the noise, the value the last child.
  let key = firstNode(entry);
  if (isNoise(nodeRule(key))) key++;
  const value = entry - 1;
  let start = nodeStart(key);
  let end = nodeEnd(key);
  const c = ch(start);
  if (c == 34 || c == 39) {
    if (plainString(key) < 0) return UNKNOWN;
    start++;
    end--;
  }
  const at = field(rec, S_PROPS_AT);
  for (let k = 0; k < field(rec, S_PROPS); k++) {
    const entry = at + ENTRY_WORDS * k;
    if (spanIs(start, end, word(entry + ENTRY_KEY_AT), word(entry + ENTRY_KEY_LENGTH))) return fit(value, word(entry + ENTRY_SHAPE), depth + 1);
  }
  return FITS;
}

// A component call (Checker.call, deciding only). `whole`: the whole right side of a statement.
function checkCall(call: i32, whole: bool): bool {
  const id = componentOf(call);
  if (id < 0) return id == RESERVED && whole;
  openList(call, callName(call));
  const last = listLast;
  const stop = listStop;
  let count = 0;
  for (let j = last; j > stop; j -= nodeSize(j)) if (!isNoise(nodeRule(j))) count++;
  const rec = components + <usize>id * (COMPONENT_WORDS << 2);
  const props = field(rec, C_PROPS);
  const propsAt = field(rec, C_PROPS_AT);
  if (count > props) return false;
  // The arguments, last to first; then the props no argument was given for.
  let k = count;
  for (let j = last; j > stop; j -= nodeSize(j)) {
    if (isNoise(nodeRule(j))) continue;
    k--;
    const prop = propsAt + PROP_WORDS * k;
    if (!checkArg(unwrap(j), word(prop + PROP_FLAGS), word(prop + PROP_SHAPE))) return false;
  }
  for (k = count; k < props; k++) if (!checkArg(-1, word(propsAt + PROP_WORDS * k + PROP_FLAGS), 0)) return false;
  return true;
}

// Argument node `arg` (-1: none) for a prop with `flags` and `shape`.
@inline function checkArg(arg: i32, flags: i32, shape: i32): bool {
  if (arg < 0 || kindOf(arg) == K_NULL) return (flags & P_REQUIRED) == 0 || (flags & P_DEFAULT) != 0;
  return quickThenFit(arg, shape, 0) == FITS;
}

// fit(), with its common cases answered without the call.
@inline function quickThenFit(v: i32, shape: i32, depth: i32): i32 {
  const quick = quickFit(v, shape);
  return quick >= 0 ? quick : fit(v, shape, depth);
}

// The common cases of fit(), without its call: a literal against plain kinds or an enum of
// strings, a reference to a component against refs. -1: ask fit().
@inline function quickFit(v: i32, shape: i32): i32 {
  const rec = shapes + <usize>shape * (SHAPE_WORDS << 2);
  const flags = field(rec, S_FLAGS);
  if ((flags & F_ANY) != 0) return FITS;
  const rule = nodeRule(v);
  if (rule == RULE_literal && (flags & (F_CONST | F_INTEGER | F_BRANCHES | F_REFS | F_ENUM_OTHER)) == 0) {
    const bit = kindOf(v);
    const kinds = field(rec, S_KINDS);
    if ((flags & F_ENUM) == 0) return (kinds & bit) != 0 ? FITS : MISS;
    if (bit == K_STR && inEnum(v, rec)) return (kinds & K_STR) != 0 ? FITS : MISS;
    return -1;
  }
  if (rule == RULE_name && (flags & F_REFS) != 0) {
    const s = statementOf(v);
    if (s < 0) return -1;
    const id = at32(stmtComp, s);
    if (id >= 0) return refsHold(rec, id) ? FITS : MISS;
  }
  return -1;
}

// Statement s (Checker.statement, deciding only): every call and builtin in its expression
// checked, every reference recorded. A call or builtin it cannot decide marks the statement
// undecided and the walk goes on, so that its references are all recorded still; so does a
// reference to nothing (the checker reports it as unresolved). The expression's nodes are one run of the postorder array,
// read in order: every `name` in it is a reference, except a member's (`.name`, the last child
// of the PostfixOp_member node right after it).
function visitStatement(s: i32): bool {
  const top = unwrap(at32(stmtExpr, s));
  for (let j = top - nodeSize(top) + 1; j <= top; j++) {
    const rule = nodeRule(j);
    if (rule == RULE_name) {
      if (j < top && nodeRule(j + 1) == RULE_PostfixOp_member) continue;
      const t = statementOf(j);
      if (t == SCOPED) continue;
      if (t < 0) {
        // A reference to nothing: the checker words it (and its suggestion); no edge.
        markUndecided(s);
        continue;
      }
      set32(edges, edgeCount++, t);
      if (t <= s) forward = false;
      if (t >= s) backward = false;
    } else if (rule == RULE_ComponentCall) {
      if (!checkCall(j, j == top)) markUndecided(s);
    } else if (rule == RULE_BuiltinCall) {
      const name = callName(j);
      const start = nodeStart(name) + 1; // without the `@`
      const end = nodeEnd(name);
      let builtin = false;
      const at = word(T_BUILTINS_AT);
      for (let k = 0; k < word(T_BUILTINS) && !builtin; k++) {
        const str = at + STRING_WORDS * k;
        builtin = spanIs(start, end, word(str + STR_AT), word(str + STR_LENGTH));
      }
      if (!builtin) markUndecided(s);
    }
  }
  return true;
}

@inline function markUndecided(s: i32): void {
  if (at32(undecided, s) == 0) undecidedCount++;
  set32(undecided, s, 1);
}

// Whether the reference graph has a cycle: iterative depth-first search, colours in `colour`.
function hasCycle(colour: usize, path: usize, next: usize): bool {
  for (let root = 0; root < stmts; root++) {
    if (at32(colour, root) != 0) continue;
    let depth = 0;
    set32(path, 0, root);
    set32(next, root, at32(edgeStart, root));
    set32(colour, root, 1);
    while (depth >= 0) {
      const v = at32(path, depth);
      const e = at32(next, v);
      if (e < at32(edgeStart, v + 1)) {
        set32(next, v, e + 1);
        const w = at32(edges, e);
        const c = at32(colour, w);
        if (c == 1) return true;
        if (c == 0) {
          set32(colour, w, 1);
          set32(next, w, at32(edgeStart, w));
          set32(path, ++depth, w);
        }
      } else {
        set32(colour, v, 2);
        depth--;
      }
    }
  }
  return false;
}

// Every statement reachable from root, state, queries and mutations (no orphan).
function allReachable(seen: usize, queue: usize, root: i32): bool {
  let tail = 0;
  for (let s = 0; s < stmts; s++) {
    if (s == root || at32(stmtKind, s) != SK_VALUE) {
      set32(seen, s, 1);
      set32(queue, tail++, s);
    }
  }
  let reached = tail;
  for (let head = 0; head < tail; head++) {
    const v = at32(queue, head);
    for (let e = at32(edgeStart, v); e < at32(edgeStart, v + 1); e++) {
      const w = at32(edges, e);
      if (at32(seen, w) == 0) {
        set32(seen, w, 1);
        set32(queue, tail++, w);
        reached++;
      }
    }
  }
  return reached == stmts;
}

@inline function align(p: usize): usize { return (p + 15) & ~15; }

/** Where the library table goes (`bytes` long), past the tree; memory may grow. */
export function verdictTable(bytes: i32): usize {
  table = align(nodesPtr + (<usize>nodesCap << 4));
  grow(table + <usize>bytes);
  return table;
}

/**
 * The verdict on the tree of the last parse (start rule Program) against the table at
 * verdictTable(): the number of statements when the program certainly passes every check, else
 * -1. Reads what the parser wrote; changes nothing the caller reads.
 */
export function verdict(tableBytes: i32): i32 {
  if (overflow != 0 || count == 0) return -1;
  pool = table + (<usize>word(T_POOL_AT) << 2);
  hashComponents();
  shapes = table + (<usize>word(T_SHAPES_AT) << 2);
  components = table + (<usize>word(T_COMPONENTS_AT) << 2);
  const n = count;
  fitSteps = 0;
  fitBudget = (n << 2) + 4096;
  stmtName = align(table + <usize>tableBytes);
  stmtExpr = stmtName + (<usize>n << 2);
  stmtKind = stmtExpr + (<usize>n << 2);
  stmtComp = stmtKind + (<usize>n << 2);
  edgeStart = stmtComp + (<usize>n << 2);
  edges = edgeStart + (<usize>(n + 1) << 2);
  const colour = edges + (<usize>n << 2);
  const path = colour + (<usize>n << 2);
  const next = path + (<usize>n << 2);
  undecided = next + (<usize>n << 2);
  known = undecided + (<usize>n << 2);
  slots = known + (<usize>n << 2); // sized once the statements are counted
  grow(slots);
  memory.fill(known, 0, <usize>n << 2);
  memory.fill(undecided, 0, <usize>n << 2);
  undecidedCount = 0;
  // The statements, line by line (a program of one line may be that line's node), counted
  // first, then numbered in source order while the lines are read last to first.
  const top = n - 1;
  const program = nodeRule(top) == RULE_Program;
  const stop = program ? firstNode(top) - 1 : top - 1;
  const lastLine = program ? top - 1 : top;
  stmts = 0;
  for (let j = lastLine; j > stop; j -= nodeSize(j)) {
    const rule = nodeRule(j);
    if (rule == RULE_Line_broken || rule == RULE_brokenLine) return -1;
    if (rule == RULE_Line_statement || rule == RULE_Statement_value || rule == RULE_Statement_state) stmts++;
  }
  let size = 16;
  while (size < 2 * stmts) size <<= 1;
  slotMask = size - 1;
  grow(slots + (<usize>size << 4));
  memory.fill(slots, 0, <usize>size << 4);
  for (let j = lastLine, s = stmts; j > stop; j -= nodeSize(j)) {
    let line = j;
    // Line = Statement lineEnd: the statement is the last child but a recorded line end.
    if (nodeRule(line) == RULE_Line_statement) line = nodeRule(line - 1) == RULE_lineEnd ? line - 2 : line - 1;
    const rule = nodeRule(line);
    if (rule != RULE_Statement_value && rule != RULE_Statement_state) continue;
    s--;
    // Statement = name "=" Expr: the name is the first leaf, the expression the last child.
    const name = firstNode(line);
    set32(stmtName, s, name);
    set32(stmtExpr, s, line - 1);
    set32(stmtKind, s, rule == RULE_Statement_state ? SK_STATE : SK_VALUE);
    if (!addStatement(s)) return -1;
    set32(known, name, s + 1); // a definition: no reference to look up
  }
  if (!lookUpAll()) return -1;
  for (let s = 0; s < stmts; s++) {
    const expr = unwrap(at32(stmtExpr, s));
    const id = at32(stmtKind, s) == SK_VALUE && nodeRule(expr) == RULE_ComponentCall ? componentOf(expr) : NONE;
    if (id == RESERVED) set32(stmtKind, s, SK_RESERVED);
    set32(stmtComp, s, id);
  }
  // Each statement: its calls and builtins, and its references (grouped by statement).
  edgeCount = 0;
  forward = backward = true;
  for (let s = 0; s < stmts; s++) {
    set32(edgeStart, s, edgeCount);
    if (!visitStatement(s)) return -1;
  }
  set32(edgeStart, stmts, edgeCount);
  // `root`: an element of the library's root component, and the start of reachability.
  const root = lookupStatementNamed(N_ROOT);
  if (root < 0) return -1;
  const value = resolve(unwrap(at32(stmtExpr, root)));
  if (value < 0 || nodeRule(value) != RULE_ComponentCall) return -1;
  const want = word(T_ROOT);
  if (want >= 0 && componentOf(value) != want) return -1;
  if (!(forward || backward)) {
    memory.fill(colour, 0, <usize>stmts << 2);
    if (hasCycle(colour, path, next)) return -1;
  }
  memory.fill(colour, 0, <usize>stmts << 2);
  reached = colour;
  const noOrphan = allReachable(colour, path, root);
  // Everything but some statements' own checks (and their references to nothing) and orphans
  // holds: no broken line, no redefinition, no cycle, root right. -2: only the statements marked
  // in verdictUndecided() need the checker (with what they reference), the statements not marked
  // in verdictReached() are orphans; the rest certainly pass.
  return undecidedCount > 0 || !noOrphan ? -2 : stmts;
}

/** After a verdict of -2: the statement count, and per statement (source order) its expression
 *  node, whether it is undecided, and its references (edges[edgeStart[s]..edgeStart[s + 1])). */
export function verdictStatements(): i32 { return stmts; }
export function verdictExprs(): usize { return stmtExpr; }
export function verdictUndecided(): usize { return undecided; }
export function verdictEdgeStarts(): usize { return edgeStart; }
export function verdictEdges(): usize { return edges; }
export function verdictReached(): usize { return reached; }
/** Per node of the tree: for a `name` looked up, its statement + 1 (0: none; -2: a loop variable). */
export function verdictKnown(): usize { return known; }

// The statement named by table name `which` (N_ROOT), or -1.
function lookupStatementNamed(which: i32): i32 {
  const at = word(T_NAMES_AT) + which * STRING_WORDS;
  return lookupStatement(pool + (<usize>word(at + STR_AT) << 1), word(at + STR_LENGTH));
}
