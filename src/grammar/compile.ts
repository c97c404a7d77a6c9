// The grammar compiler: reads an Ohm grammar through ohm-js and emits AssemblyScript source for
// a backtracking recursive-descent parser with Ohm's semantics (ordered choice, greedy
// iteration, implicit space skipping before tokens in syntactic rules, parameterised rules).
// Pure: text in, text out. `build.ts` turns the source into WebAssembly.
//
// The parser writes a flat syntax tree into linear memory, in postorder, four i32 per node:
// rule id, start, end, subtree size (nodes, itself included). What is recorded, so that the
// tree stays small and Ohm's own tree can be reduced the same way (see `ohm-tree.ts`):
//   - applications made from syntactic rules only; a lexical rule is a leaf (a token);
//   - no zero-width node;
//   - a node whose only child covers the same span is replaced by that child.
// Rules are applied without memoisation, but for the few named (see CompileOptions): the grammar
// is written so that no other alternative re-reads more than a token, which keeps parsing linear.
import * as ohm from "ohm-js";

const { pexprs } = ohm as unknown as { pexprs: Record<string, any> };

export interface CompiledGrammar {
  /** AssemblyScript source of the parser. */
  source: string;
  /** Rule names by id, as recorded in the tree. */
  rules: string[];
  /** Start rules the module can be asked to parse, by name → id in `rules`. */
  startRules: string[];
  grammarName: string;
}

/**
 * How deep constructs may nest: every application of a nesting rule (see `nestRules`: a bracket,
 * a prefix operator, a ternary's tail) counts one, as does every operand read in the tail of a
 * `nestTails` rule (a binary operator's right operand). Past it the parse stops with `overflow`
 * (the language core says "nested too deep"). Chosen below what the native stack holds on the
 * engines the core runs on (measured in the baseline tiers, whose frames are the largest).
 */
export const MAX_DEPTH = 1200;
// Functions compiled from expressions have one caller each: AssemblyScript inlines them there, so
// that only rule applications (and probes) are calls. V8 does not inline WebAssembly calls.
const INL = "@inline ";

export function isSyntactic(ruleName: string): boolean {
  const c = ruleName.charCodeAt(0);
  return c >= 65 && c <= 90;
}

/** Which rules the compiler treats specially (by name; see each field). */
export interface CompileOptions {
  /** Rules that get exported entry points. */
  startRules: string[];
  /**
   * Lexical rules whose applications are remembered per position, as Ohm remembers every
   * application: without it a rule that retries at every position after a failure takes
   * exponential time. Each entry has a table (8 bytes per unit of input); rules grouped in one
   * entry share it, which is right only when no two of them are ever applied at one position.
   */
  memoRules?: (string | string[])[];
  /**
   * Syntactic rules whose last application is remembered (where, at which depth, its end or
   * failure, the farthest failure inside it), its nodes left where they were written until
   * something is written over them. An ordered choice whose first alternative reads one of them
   * and then fails, and whose next alternative reads it again at the same place, reads it once:
   * otherwise nesting such choices takes exponential time.
   */
  recallRules?: string[];
  /**
   * Lexical rules that open with a fixed unit and whose failed application at p decides every
   * application at a later position before the farthest failure inside it: they fail the same
   * way. True of a quoted string whose quote, inside it, can only end an escape (`\"`): a later
   * quote inside a failed string is then followed by a unit the failed scan also started a
   * character at, and from there both scans are one. Without it a line of escaped quotes that
   * never closes is read again from every quote (quadratic).
   */
  failSpanRules?: string[];
  /**
   * Lexical rules whose applications each parse counts (exported `applications(k)`, k the rule's
   * place in this list): for tests that bound the work a parse does, where time cannot be asserted.
   */
  countRules?: string[];
  /**
   * Rules each of whose nodes is one level of an expression tree's height. A parse whose tree is
   * taller than MAX_DEPTH anywhere stops with `overflow`, as nesting deeper than MAX_DEPTH does:
   * the nesting count (`nestRules`) bounds how deep the parser recurses, the height bounds how deep
   * whoever reads the tree does (an operator above a nested first operand, `[[1] + 1] + 1`, adds a
   * level there that the count, made on the way down, cannot see).
   */
  heightRules?: string[];
  /** Rules that nest what they hold, each application one level of the nesting depth. */
  nestRules?: string[];
  /** Recursive rules whose code is inlined where they are applied. */
  inlineRules?: string[];
  /**
   * Rules compiled as levels of a chain (see `chainOf`) whose tail, what follows the first
   * factor, counts one nesting level for each application in it that leads back into nesting
   * (`Additive<n> = Multiplicative<n> (n additiveOp Multiplicative<n>)*`: the right operand).
   */
  nestTails?: string[];
}

/** Compiles `grammarSource` with the special rules that `options` names. */
export function compileGrammar(grammarSource: string, options: CompileOptions): CompiledGrammar {
  const { startRules, recallRules = [], failSpanRules = [], countRules = [], heightRules = [], nestRules = [], inlineRules = [], nestTails = [] } = options;
  const memoTables = (options.memoRules ?? []).map((entry) => (typeof entry === "string" ? [entry] : entry));
  const memoRules = memoTables.flat();
  // A recall moves nodes without looking at what another recall keeps (see the recall code).
  if (recallRules.length > 1) throw new Error("at most one rule can be recalled");
  const grammar = ohm.grammar(grammarSource) as any;
  const ruleNames = Object.keys(grammar.rules).filter((name) => grammar.rules[name].source);
  // Only rules of this grammar (and `space`, which it overrides) get ids; built-ins it uses are
  // compiled like any other rule.
  const ids = new Map<string, number>();
  const rules: string[] = [];
  const idOf = (name: string) => {
    let id = ids.get(name);
    if (id === undefined) {
      id = rules.length;
      ids.set(name, id);
      rules.push(name);
    }
    return id;
  };
  for (const name of ruleNames) idOf(name);

  // FIRST sets: the code units a match can start with (after skipped spaces, where they are
  // skipped), so that alternatives and iterations that cannot match are not even tried. A test
  // that rules a match out still records the failure position, as trying it would have.
  // Conservative: a superset is always safe; `nullable` expressions are always tried.
  interface First {
    chars: Set<number> | "any";
    nullable: boolean;
  }
  const firstMemo = new Map<string, First>();
  function first(e: any, actuals: any[]): First {
    if (e instanceof pexprs.Param) return first(actuals[e.index], actuals);
    if (e === pexprs.any) return { chars: "any", nullable: false };
    if (e === pexprs.end) return { chars: new Set(), nullable: true };
    if (e instanceof pexprs.Terminal) {
      const s = String(e.obj);
      return s.length ? { chars: new Set([s.charCodeAt(0)]), nullable: false } : { chars: new Set(), nullable: true };
    }
    if (e instanceof pexprs.Range) {
      const lo = String(e.from).codePointAt(0)!;
      const hi = String(e.to).codePointAt(0)!;
      if (hi - lo > 512) return { chars: "any", nullable: false };
      const chars = new Set<number>();
      for (let c = lo; c <= hi; c++) chars.add(c);
      return { chars, nullable: false };
    }
    if (e instanceof pexprs.Apply) {
      const args = e.args.map((a: any) => a.substituteParams(actuals));
      const key = `${e.ruleName}<${args.map((a: any) => a.toString()).join(",")}>`;
      const known = firstMemo.get(key);
      if (known) return known;
      firstMemo.set(key, { chars: "any", nullable: true }); // left recursion: give up, safely
      const result = first(grammar.rules[e.ruleName].body, args);
      firstMemo.set(key, result);
      return result;
    }
    if (e instanceof pexprs.Alt) return union(e.terms.map((t: any) => first(t, actuals)));
    if (e instanceof pexprs.Seq) {
      const parts: First[] = [];
      for (const f of e.factors) {
        const fi = first(f, actuals);
        parts.push(fi);
        if (!fi.nullable) return { chars: union(parts).chars, nullable: false };
      }
      return { chars: union(parts).chars, nullable: true };
    }
    if (e instanceof pexprs.Star || e instanceof pexprs.Opt) return { chars: first(e.expr, actuals).chars, nullable: true };
    if (e instanceof pexprs.Plus || e instanceof pexprs.Lex) return first(e.expr, actuals);
    if (e instanceof pexprs.Not || e instanceof pexprs.Lookahead) return { chars: new Set(), nullable: true };
    return { chars: "any", nullable: true };
  }
  function union(parts: First[]): First {
    const chars = new Set<number>();
    let nullable = false;
    for (const part of parts) {
      if (part.nullable) nullable = true;
      if (part.chars === "any") return { chars: "any", nullable: parts.some((q) => q.nullable) };
      for (const c of part.chars) chars.add(c);
    }
    return { chars, nullable };
  }
  // Sets of code units as sorted, disjoint, inclusive ranges.
  type Ranges = [number, number][];
  const rangesOf = (units: Iterable<number>): Ranges => merge([...units].map((u): [number, number] => [u, u]));
  function merge(rs: Ranges): Ranges {
    const out: Ranges = [];
    for (const [lo, hi] of [...rs].sort((a, b) => a[0] - b[0])) {
      const last = out[out.length - 1];
      if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
      else out.push([lo, hi]);
    }
    return out;
  }
  function complement(rs: Ranges): Ranges {
    const out: Ranges = [];
    let next = 0;
    for (const [lo, hi] of rs) {
      if (lo > next) out.push([next, lo - 1]);
      next = hi + 1;
    }
    if (next <= 0xffff) out.push([next, 0xffff]);
    return out;
  }
  const minus = (a: Ranges, b: Ranges): Ranges => complement(merge([...complement(a), ...b]));
  const covers = (rs: Ranges, lo: number, hi: number) => rs.some(([l, h]) => l <= lo && h >= hi);
  // An AssemblyScript test of `c` (a code unit, or -1 past the end) against a set. Two ranges or
  // fewer are compared; larger sets test a bit of a 64-bit constant for the units below 128 (no
  // memory load on the way) and compare above. `unit`: c is known to be a code unit, so the
  // complement may be tested instead.
  function setTest(rs: Ranges, unit = false): string {
    const compare = (xs: Ranges) => xs.map(([lo, hi]) => (lo === hi ? `c == ${lo}` : hi === 0xffff ? `c >= ${lo}` : `(c >= ${lo} && c <= ${hi})`)).join(" || ");
    if (rs.length === 0) return "false";
    const not = complement(rs);
    if (rs.length <= 2) return compare(rs);
    if (unit && not.length === 0) return "true";
    // Most units are above the few left out (`"`, `\`, newline): one comparison admits them.
    if (unit && not.length <= 3) return `(c > ${not[not.length - 1][1]} || !(${compare(not)}))`;
    const words = [0n, 0n];
    for (const [lo, hi] of rs) for (let u = lo; u <= Math.min(hi, 127); u++) words[u >> 6] |= 1n << BigInt(u & 63);
    const bit = (w: bigint, shift: string) => `((<u64>0x${w.toString(16)} >> <u64>${shift}) & 1) != 0`;
    const high = rs.filter(([, hi]) => hi >= 128).map(([lo, hi]): [number, number] => [Math.max(lo, 128), hi]);
    const highTest = high.length ? compare(high) : "false";
    const [w0, w1] = words;
    if (w1 === 0n) return `(<u32>c < 64 ? ${bit(w0, "c")} : ${highTest})`;
    if (w0 === 0n) return `(<u32>c < 64 ? false : <u32>c < 128 ? ${bit(w1, "(c - 64)")} : ${highTest})`;
    return `(<u32>c < 64 ? ${bit(w0, "c")} : <u32>c < 128 ? ${bit(w1, "(c - 64)")} : ${highTest})`;
  }
  // An AssemblyScript test of `c` against a FIRST set, or null when it cannot rule anything out.
  function firstTest(f: First): string | null {
    if (f.nullable || f.chars === "any") return null;
    return setTest(rangesOf(f.chars));
  }

  // Expressions that consume exactly one code point whose first unit is in a set (a terminal of
  // one character, a range, `~x any`, alternatives of those, rules made of them): compiled to a
  // single test instead of a call per operator. Only where nothing is skipped or recorded.
  interface CharTest {
    set: Ranges;
    codePoint: boolean; // may consume a surrogate pair (from `any`)
  }
  const isSurrogate = (u: number) => u >= 0xd800 && u <= 0xdfff;
  function charTest(e: any, actuals: any[]): CharTest | null {
    if (e instanceof pexprs.Param) return charTest(actuals[e.index], actuals);
    if (e === pexprs.any) return { set: [[0, 0xffff]], codePoint: true };
    if (e instanceof pexprs.Terminal) {
      const t = String(e.obj);
      return t.length === 1 && !isSurrogate(t.charCodeAt(0)) ? { set: [[t.charCodeAt(0), t.charCodeAt(0)]], codePoint: false } : null;
    }
    if (e instanceof pexprs.Range) {
      const lo = String(e.from).codePointAt(0)!;
      const hi = String(e.to).codePointAt(0)!;
      return hi <= 0xffff && !isSurrogate(lo) && !isSurrogate(hi) && !(lo < 0xd800 && hi > 0xdfff) && lo <= hi ? { set: [[lo, hi]], codePoint: false } : null;
    }
    if (e instanceof pexprs.Apply) {
      if (isSyntactic(e.ruleName) || !grammar.rules[e.ruleName]) return null;
      return charTest(
        grammar.rules[e.ruleName].body,
        e.args.map((a: any) => a.substituteParams(actuals)),
      );
    }
    if (e instanceof pexprs.Alt) {
      const terms = e.terms.map((t: any) => charTest(t, actuals));
      if (terms.some((t: CharTest | null) => t === null)) return null;
      return { set: merge(terms.flatMap((t: CharTest) => t.set)), codePoint: terms.some((t: CharTest) => t.codePoint) };
    }
    if (e instanceof pexprs.Seq && e.factors.length > 0) {
      // `~a ~b x`: lookaheads on the same character, then one character.
      const last = charTest(e.factors[e.factors.length - 1], actuals);
      if (!last) return null;
      let set = last.set;
      for (const f of e.factors.slice(0, -1)) {
        const inner = f instanceof pexprs.Not ? charTest(f.expr, actuals) : null;
        if (!inner) return null;
        set = minus(set, inner.set);
      }
      return { set, codePoint: last.codePoint };
    }
    return null;
  }
  const pair = (at: string) => `if (c >= 0xD800 && c <= 0xDBFF && ${at} < end) { const d = ch(${at}); if (d >= 0xDC00 && d <= 0xDFFF) ${at}++; }`;
  const advance = (t: CharTest) => (t.codePoint ? `{ let q = pos + 1; const end = len; ${pair("q")} return q; }` : "return pos + 1;");
  // A loop that moves `q` from `from` over the units (code points) that pass `t`. Where the set
  // holds every low surrogate, a pair needs no test of its own: its second half passes anyway.
  // Strings and names are most of a program: where units can be taken one at a time, eight are
  // tested at once (SIMD), and the scan stops at the first that fails, or at the end.
  const scan = (t: CharTest, from: string) => {
    const pairs = t.codePoint && !covers(t.set, 0xdc00, 0xdfff);
    const wide = pairs ? null : vectorTest(t.set);
    if (wide) {
      return `let q = ${from}; const end = len;
  while (q < end) { const v = v128.load(INPUT + (<usize>q << 1)); const m = ${wide}; if (m != 0) { q += ctz(m); break; } q += 8; }
  if (q > end) q = end;`;
    }
    return `let q = ${from}; const end = len;
  while (q < end) { const c = ch(q); if (!(${setTest(t.set, true)})) break; q++;${pairs ? ` ${pair("q")}` : ""} }`;
  };
  // Of eight units \`v\`, a bit mask of those not in the set (lane i: bit i); null when the set
  // takes too many comparisons. The set or its complement, whichever has fewer ranges, is tested.
  // Units past the end are read too (prepare leaves room) and ignored: the scan stops at the end.
  function vectorTest(rs: Ranges): string | null {
    const not = complement(rs);
    const test = not.length <= rs.length ? not : rs;
    if (test.length === 0 || test.length > 4) return null;
    const lane = ([lo, hi]: [number, number]) =>
      lo === hi
        ? `i16x8.eq(v, i16x8.splat(${lo}))`
        : lo === 0
          ? `i16x8.le_u(v, i16x8.splat(${hi}))`
          : hi === 0xffff
            ? `i16x8.ge_u(v, i16x8.splat(${lo}))`
            : `i16x8.le_u(i16x8.sub(v, i16x8.splat(${lo})), i16x8.splat(${hi - lo}))`;
    const any = test.map(lane).reduce((a, b) => `v128.or(${a}, ${b})`);
    return test === not ? `i16x8.bitmask(${any})` : `(~i16x8.bitmask(${any}) & 0xFF)`;
  }

  // Rules that can apply themselves: only those need the nesting-depth guard.
  const calls = new Map<string, Set<string>>();
  const collect = (e: any, into: Set<string>) => {
    if (!e || typeof e !== "object") return;
    if (e instanceof pexprs.Apply) {
      into.add(e.ruleName);
      e.args.forEach((a: any) => collect(a, into));
    }
    for (const child of [e.expr, ...(e.terms ?? []), ...(e.factors ?? [])]) if (child) collect(child, into);
  };
  for (const name of Object.keys(grammar.rules)) {
    const into = new Set<string>();
    collect(grammar.rules[name].body, into);
    calls.set(name, into);
  }
  // The nesting depth counts applications of `nestRules`; every way a rule can apply itself must
  // pass through one of them, or nesting there would be unbounded.
  const nests = (rule: string) => nestRules.includes(rule);
  for (const rule of calls.keys()) {
    if (nests(rule)) continue;
    const seen = new Set<string>();
    const stack = [...(calls.get(rule) ?? [])];
    while (stack.length) {
      const next = stack.pop()!;
      if (next === rule) throw new Error(`${rule} can apply itself without a nesting rule (${nestRules.join(", ")}) between`);
      if (seen.has(next) || nests(next)) continue;
      seen.add(next);
      stack.push(...(calls.get(next) ?? []));
    }
  }
  const recursiveMemo = new Map<string, boolean>();
  function recursive(rule: string): boolean {
    let known = recursiveMemo.get(rule);
    if (known !== undefined) return known;
    const seen = new Set<string>();
    const stack = [...(calls.get(rule) ?? [])];
    known = false;
    while (stack.length) {
      const next = stack.pop()!;
      if (next === rule) {
        known = true;
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(calls.get(next) ?? []));
    }
    recursiveMemo.set(rule, known);
    return known;
  }

  const out: string[] = [];
  const fns = new Map<string, string>(); // specialisation key → function name
  let counter = 0;
  const fresh = (prefix: string) => `${prefix}${counter++}`;

  interface Ctx {
    syntactic: boolean; // the rule whose body this is
    lexified: boolean;
    actuals: any[]; // concrete pexprs for the rule's parameters
    // The rule can apply itself: its function stays on the native stack while what is nested
    // in it is read (see `spineLeaf`).
    spine?: boolean;
    // A `nestTails` rule's tail: applications that lead back into nesting count one level.
    nestApps?: boolean;
  }

  // Whether applying `rule` can lead back to a recursive rule (and so deeper into nesting).
  const reachMemo = new Map<string, boolean>();
  function reaches(rule: string): boolean {
    let known = reachMemo.get(rule);
    if (known !== undefined) return known;
    const seen = new Set<string>([rule]);
    const stack = [rule];
    known = false;
    while (stack.length && !known) {
      const next = stack.pop()!;
      if (recursive(next)) known = true;
      for (const callee of calls.get(next) ?? []) if (!seen.has(callee)) seen.add(callee), stack.push(callee);
    }
    reachMemo.set(rule, known);
    return known;
  }
  // Nesting depth is bounded by the native stack, which holds the frames of the recursive rules'
  // functions, each as large as every local of the code inlined into it (the engines' baseline
  // tiers give every local a slot). Code in such a function that loops (scans of names, numbers,
  // strings, white space; the later items of a list), or that is large and never leads back into
  // nesting, is therefore a function of its own, exported so that Binaryen keeps it out of line
  // (it inlines any function with one caller): its locals are on the stack only while it runs.
  // With the chain's upper tails split off (chainFn) and Items and Primary inlined, 600 nested
  // calls went from overflowing to fitting (JavaScriptCore's baseline tier held 302 before, 812
  // after; V8's Liftoff 292 and 916), for about 5% more parse time on the 100k program.
  function spineLeaf(e: any, ctx: Ctx, code: string): boolean {
    if (!ctx.spine) return false;
    if (/\bwhile \(/.test(code)) return true;
    if (code.length < 160) return false;
    const apps = new Set<string>();
    collect(e, apps);
    for (const a of ctx.actuals) collect(a, apps);
    return ![...apps].some(reaches);
  }
  const keepOut = new Set<string>(); // functions of leaf rules applied from a recursive rule's code

  const skips = (ctx: Ctx) => ctx.syntactic && !ctx.lexified;
  // A compiled expression: given the variable holding the position, the AssemblyScript
  // expression that matches there (the end position, or -1). The nesting depth is passed on from
  // the variable `depth`, which every parsing function has.
  type Callee = (at: string) => string;

  // A function that applies `ruleName` with concrete `args`, recording or not. `skipped`: it is
  // always entered past spaces (as a syntactic rule applied where spaces are skipped is), so
  // that its body need not skip them again.
  function applyFn(ruleName: string, args: any[], record: boolean, skipped = false): string {
    if (!isSyntactic(ruleName)) skipped = false; // a lexical rule's body skips nothing anyway
    const key = `${record ? "R" : "L"}${skipped ? "S" : ""}:${ruleName}<${args.map((a) => a.toString()).join(",")}>`;
    const known = fns.get(key);
    if (known) return known;
    const name = fresh(record ? "rule_" : "lex_");
    fns.set(key, name);
    const info = grammar.rules[ruleName];
    if (!info) throw new Error(`unknown rule ${ruleName}`);
    const ctx: Ctx = { syntactic: isSyntactic(ruleName), lexified: false, actuals: args, spine: recursive(ruleName) };
    if (record && ctx.syntactic) {
      const levels = chainOf(ruleName, args);
      if (levels.length > 1) {
        out.push(`// ${key.slice(key.indexOf(":") + 1)}: ${levels.map((l) => l.rule).join(" > ")}\n${chainFn(name, levels, skipped)}`);
        return name;
      }
    }
    // Only a chain level's tail is compiled apart from its first factor.
    if (nestTails.includes(ruleName)) throw new Error(`${ruleName} (in nestTails) is not compiled as a level of a chain`);
    // Inside a lexical rule nothing is recorded.
    const body = expr(info.body, ctx, ctx.syntactic, skipped);
    const label = `// ${key.slice(key.indexOf(":") + 1)}`;
    // The nesting depth is a parameter, as the position is (kept in a register, not in memory):
    // what a rule passes on is its own, so there is nothing to undo when it returns.
    const guard = nests(ruleName) ? `if (depth >= ${MAX_DEPTH}) { overflow = 1; return -1; } depth++;` : "";
    if (record && recallRules.includes(ruleName)) {
      if (!ctx.syntactic) throw new Error(`only syntactic rules can be recalled: ${ruleName}`);
      // Its farthest failure is its own while it runs (then merged back), so that a recall
      // records what reading it again would. The recalled nodes are moved to the top of the tree
      // (mostly they are there already: the alternatives before record one leaf each, the same).
      const r = `recall${recallRules.indexOf(ruleName)}`;
      out.push(`${label}
function ${name}(pos: i32, depth: i32): i32 {
  ${guard}
  if (${r}Pos == pos && ${r}Depth == depth) {
    miss(${r}Far);
    if (${r}End < 0) return -1;
    if (${r}From != count) { memory.copy(nodesPtr + (<usize>count << 4), nodesPtr + (<usize>${r}From << 4), <usize>${r}Size << 4); ${r}From = count; }
    count += ${r}Size;
    return ${r}End;
  }
  const outer = farthest; farthest = 0;
  const mark = count;
  const q = ${body("pos")};
  const own = farthest; if (outer > farthest) farthest = outer;
  if (q >= 0) finish(${idOf(ruleName)}, pos, q, mark);
  if (overflow == 0) { ${r}Pos = pos; ${r}Depth = depth; ${r}End = q; ${r}Far = own; ${r}From = mark; ${r}Size = q < 0 ? 0 : count - mark; }
  return q;
}`);
    } else if (record) {
      const id = idOf(ruleName);
      out.push(`${label}
${inlineRules.includes(ruleName) ? INL : ""}function ${name}(pos: i32, depth: i32): i32 {
  ${guard}
  const mark = count;
  const q = ${body("pos")};
  if (q < 0) return -1;
  finish(${id}, pos, q, mark);
  return q;
}`);
    } else if (failSpanRules.includes(ruleName)) {
      // A failure is read twice, the second time for its own farthest failure: keeping that on
      // every application cost the parse of valid programs 5%, where strings are most tokens.
      const s = `span${failSpanRules.indexOf(ruleName)}`;
      const read = body("pos");
      out.push(`${label}
function ${name}(pos: i32, depth: i32): i32 {
  if (pos < ${s}Far && pos > ${s}From && ch(pos) == ${s}Unit) return miss(${s}Far);
  ${guard}
  const q = ${read};
  if (q < 0 && overflow == 0 && pos < len) {
    const outer = farthest; farthest = 0;
    ${read};
    ${s}Unit = ch(pos); ${s}From = pos; ${s}Far = farthest;
    if (outer > farthest) farthest = outer;
  }
  return q;
}`);
    } else if (memoRules.includes(ruleName)) {
      if (isSyntactic(ruleName)) throw new Error(`only lexical rules can be memoised: ${ruleName}`);
      // memo[pos]: the parse that wrote it (high half; older ones are unknown), then 1 failed or
      // end + 2 matched (low half). Stamped entries need no clearing before each parse.
      const slot = memoTables.findIndex((table) => table.includes(ruleName));
      out.push(`${label}
function ${name}(pos: i32, depth: i32): i32 {
  const at = memoPtr + ((<usize>${slot} * <usize>(memoSpan) + <usize>pos) << 3);
  const entry = load<u64>(at);
  if (<u32>(entry >> 32) == generation) {
    const known = <i32>entry;
    if (known == 1) return miss(pos);
    return known - 2;
  }
  ${guard}
  const q = ${body("pos")};
  if (overflow == 0) store<u64>(at, (<u64>generation << 32) | <u64>(q >= 0 ? q + 2 : 1));
  return q;
}`);
    } else {
      const counted = countRules.indexOf(ruleName);
      if (counted >= 0) countedFns.add(ruleName);
      out.push(`${label}
function ${name}(pos: i32, depth: i32): i32 {
  ${counted >= 0 ? `store<u32>(applied + ${counted * 4}, load<u32>(applied + ${counted * 4}) + 1);` : ""}
  ${guard}
  const q = ${body("pos")};
  return q;
}`);
    }
    return name;
  }

  // Looking past white space. An expression that starts with a nullable lexical rule W (`gap`,
  // `n`) followed by something that cannot be empty, e.g. `gap "," Expr<gap>`, has W's code
  // units in its FIRST set: at a newline it is tried, W parsed, and the expression fails at the
  // next token, again at every level that tries one. A probe runs W once (not recorded), skips
  // and tests the next code unit: when it cannot start what follows W, the expression fails
  // with the failure positions trying it would have recorded (W's, then the token's). Through
  // applications of syntactic rules and alternatives whose terms all start with the same W.
  interface PastW {
    w: any; // the Apply of W, with concrete arguments
    key: string; // W's body: rules with the same body behave the same
    firstW: First;
    rest: First; // what must follow W
    enters: number; // nesting rules entered before W (their depth checks)
  }
  function pastW(e: any, actuals: any[], enters = 0, seen = new Set<string>()): PastW | null {
    if (e instanceof pexprs.Param) return pastW(actuals[e.index], actuals, enters, seen);
    if (e instanceof pexprs.Seq && e.factors.length >= 2) {
      let head = e.factors[0];
      if (head instanceof pexprs.Param) head = actuals[head.index];
      if (!(head instanceof pexprs.Apply) || !grammar.rules[head.ruleName] || memoRules.includes(head.ruleName)) return null;
      if (isSyntactic(head.ruleName)) return pastW(head, actuals, enters, seen);
      if (head.ruleName === "spaces") return null;
      const args = head.args.map((a: any) => a.substituteParams(actuals));
      const firstW = first(head, actuals);
      if (!firstW.nullable || firstW.chars === "any") return null;
      const parts: First[] = [];
      let rest: First | null = null;
      for (const f of e.factors.slice(1)) {
        const fi = first(f, actuals);
        parts.push(fi);
        if (!fi.nullable) {
          rest = { chars: union(parts).chars, nullable: false };
          break;
        }
      }
      if (!rest || firstTest(rest) === null) return null;
      const w = { ruleName: head.ruleName, args };
      return { w, key: `${grammar.rules[head.ruleName].body.toString()}<${args.map((a: any) => a.toString()).join(",")}>`, firstW, rest, enters };
    }
    if (e instanceof pexprs.Apply && isSyntactic(e.ruleName) && grammar.rules[e.ruleName] && !memoRules.includes(e.ruleName)) {
      const args = e.args.map((a: any) => a.substituteParams(actuals));
      const key = `${e.ruleName}<${args.map((a: any) => a.toString()).join(",")}>`;
      if (seen.has(key)) return null;
      seen.add(key);
      return pastW(grammar.rules[e.ruleName].body, args, enters + (nests(e.ruleName) ? 1 : 0), seen);
    }
    if (e instanceof pexprs.Alt && e.terms.length > 0) {
      const terms = e.terms.map((t: any) => pastW(t, actuals, enters, new Set(seen)));
      if (terms.some((t: PastW | null) => t === null || t.key !== terms[0].key)) return null;
      return { ...terms[0], rest: union(terms.map((t: PastW) => t.rest)), enters: Math.max(...terms.map((t: PastW) => t.enters)) };
    }
    return null;
  }
  // A function of `c` (the code unit at pos, where spaces were skipped and the expression's
  // FIRST test passed): true when the expression is ruled out, its failure positions recorded;
  // false when it must be tried (farthest as it was).
  const probes = new Map<string, string>();
  function probeFn(pw: PastW): string {
    const key = `${pw.key}|${firstTest(pw.rest)}|${pw.enters}`;
    const known = probes.get(key);
    if (known) return known;
    const name = fresh("probe");
    probes.set(key, name);
    const w = applyFn(pw.w.ruleName, pw.w.args, false);
    const testW = firstTest({ chars: pw.firstW.chars, nullable: false })!;
    const testRest = firstTest(pw.rest)!;
    out.push(`function ${name}(c: i32, pos: i32, depth: i32): bool {
  if (!(${testW})) return !(${testRest});
  ${pw.enters ? `if (depth + ${pw.enters} > ${MAX_DEPTH}) return false;` : ""}
  const f = farthest;
  const q = ${w}(pos, depth);
  if (q >= 0) {
    const s = skip(q, depth);
    { const c = s < len ? ch(s) : -1; if (!(${testRest})) { miss(s); return true; } }
  }
  farthest = f; return false;
}`);
    return name;
  }

  // Chains: a syntactic rule whose body starts with an application of another syntactic rule,
  // which starts with another, and so on (Expr > Or > And > ... > Unary). Applied one level at a
  // time, every level skips spaces, checks the depth, calls the next and, once the innermost rule
  // has matched, tries its own tail at the same position. The chain is compiled to one function
  // that does the same work once: one skip (the levels below the first start where it ends), one
  // depth check for all levels (the depth is still set, level by level, to what the nested calls
  // would have made it), the innermost rule, then each level's tail and node, innermost first.
  // When no tail can start at the next token, one failed test stands for all of them: each would
  // have skipped to the same position and failed there.
  interface Level {
    rule: string;
    args: any[];
    ctx: Ctx;
    rest: any[]; // the factors after the first (unused for the innermost level)
    // A choice whose first term applies the next level (Unary = Postfix | ... -- op): its terms
    // and their FIRST tests; the others are tried when the first is ruled out or fails.
    terms?: any[];
    tests?: (string | null)[];
  }
  function chainOf(ruleName: string, args: any[]): Level[] {
    const levels: Level[] = [];
    const seen = new Set<string>();
    let rule = ruleName;
    let actuals = args;
    let choices = 0;
    while (true) {
      const key = `${rule}<${actuals.map((a) => a.toString()).join(",")}>`;
      if (seen.has(key)) break;
      seen.add(key);
      const ctx: Ctx = { syntactic: true, lexified: false, actuals, spine: recursive(rule) };
      const body = grammar.rules[rule].body;
      const level: Level = { rule, args: actuals, ctx, rest: [] };
      levels.push(level);
      let head: any;
      if (body instanceof pexprs.Alt && body.terms.length > 1 && choices === 0) {
        const tests = body.terms.map((t: any) => firstTest(first(t, actuals)));
        if (tests.every((t: string | null) => t === null)) break;
        head = body.terms[0];
        level.terms = body.terms;
        level.tests = tests;
        choices++;
      } else {
        const factors: any[] = body instanceof pexprs.Seq ? body.factors : [body];
        level.rest = factors.slice(1);
        head = factors[0];
      }
      if (head instanceof pexprs.Param) head = actuals[head.index];
      if (!(head instanceof pexprs.Apply) || !isSyntactic(head.ruleName) || !grammar.rules[head.ruleName]) break;
      if (memoRules.includes(head.ruleName)) break;
      const next = head.args.map((a: any) => a.substituteParams(actuals));
      if (seen.has(`${head.ruleName}<${next.map((a: any) => a.toString()).join(",")}>`)) break;
      rule = head.ruleName;
      actuals = next;
    }
    // A choice is a level of its own only with a level below it.
    const last = levels[levels.length - 1];
    if (last.terms) {
      delete last.terms;
      delete last.tests;
    }
    return levels;
  }
  // With a choice at level a, the chain is two segments: levels 0..a above it, whose depth is
  // checked once at the start, and levels a+1..k below it, applied (with their own depth check)
  // only where the choice's first term passes its FIRST test. Where they fail, the choice's other
  // terms are tried at the same position and depth, as the choice itself would try them.
  function chainFn(name: string, levels: Level[], skipped: boolean): string {
    const k = levels.length - 1;
    const inner = applyFn(levels[k].rule, levels[k].args, true, true);
    const guarded = levels.slice(0, k).map((l) => nests(l.rule));
    // depthAt[i]: the depth while level i's tail runs (levels 0..i entered).
    const depthAt: number[] = [];
    let g = 0;
    for (let i = 0; i < k; i++) depthAt.push((g += guarded[i] ? 1 : 0));
    const a = levels.findIndex((l) => l.terms);
    const setDepth = (d: number) => (d === 0 ? "depth = base;" : `depth = base + ${d};`);
    const fail = "{ count = mark; return -1; }";
    // `e1`: where the nodes since `mark` are one node from start1 (or none, at start1): there, a
    // node from start1 would be that node again (elided), so it is not even tried.
    const finishOf = (i: number) =>
      `if (pos != e1${i === 0 && !skipped ? " || start0 != start1" : ""}) { finish(${idOf(levels[i].rule)}, ${i === 0 ? "start0" : "start1"}, pos, mark); e1 = pos; }`;
    // Levels whose tails matched nothing all end where the level below ended: the first of their
    // nodes stands (or is elided) for all that start at start1, since finishing the same span
    // again changes nothing; the outermost differs only when spaces were skipped before it.
    const finishes = (from: number) => (from === 0 ? finishOf(0) : `${finishOf(from)} ${finishOf(0)}`);
    const tails = levels.slice(0, k).map((l) => l.rest.map((f) => expr(f, nestTails.includes(l.rule) ? { ...l.ctx, nestApps: true } : l.ctx, true)));
    // One probe for the tails of levels [lo, hi), when each is a single `x*` or `x?` with a FIRST
    // test: when none can start at the next token, one failed test stands for all of them. `done`
    // is what follows (the nodes finished).
    const probe = (lo: number, hi: number, done: string): string | null => {
      const tailProbes = levels.slice(lo, hi).map((l) => {
        const none = { ok: false, first: null as First | null, past: null as PastW | null };
        if (l.rest.length === 0) return { ...none, ok: true };
        if (l.rest.length !== 1) return none;
        let f = l.rest[0];
        if (f instanceof pexprs.Param) f = l.ctx.actuals[f.index];
        if (!(f instanceof pexprs.Star || f instanceof pexprs.Opt)) return none;
        const fi = first(f.expr, l.ctx.actuals);
        return { ok: firstTest(fi) !== null, first: fi, past: pastW(f.expr, l.ctx.actuals) };
      });
      const tested = tailProbes.filter((p) => p.first).map((p) => p.first!);
      if (!tailProbes.every((p) => p.ok) || tested.length === 0) return null;
      const test = firstTest(union(tested))!;
      // Past white space: tails grouped by the W they start with; the others' FIRST test.
      const groups = new Map<string, PastW[]>();
      const plain: First[] = [];
      for (const p of tailProbes) {
        if (!p.first) continue;
        if (p.past) groups.set(p.past.key, [...(groups.get(p.past.key) ?? []), p.past]);
        else plain.push(p.first);
      }
      const past = [...groups.values()].map((ws) => probeFn({ ...ws[0], rest: union(ws.map((w) => w.rest)), enters: Math.max(...ws.map((w) => w.enters)) }));
      const plainTest = plain.length ? firstTest(union(plain)) : "false";
      const ruledOut = past.length ? ` || (!(${plainTest}) && ${past.map((fn) => `${fn}(c, s, depth)`).join(" && ")})` : "";
      // Where a probe ruled the tails out, the next probe (the levels above) is at the same
      // position: it takes the same skip and unit (their failure is recorded already).
      return `if (overflow == 0) {
    const f0 = farthest; let s = sTo; let c = sC;
    if (sAt != pos) { s = skip(pos, depth); c = s < len ? ch(s) : -1; miss(s); }
    if (!(${test})${ruledOut}) { sAt = pos; sTo = s; sC = c; ${done} }
    farthest = f0;
  }`;
    };
    // Tails and nodes of levels hi-1 down to lo (level hi has matched).
    const tailsDown = (lo: number, hi: number, failed: string) => {
      const lines: string[] = [];
      for (let i = hi - 1; i >= lo; i--) {
        if (i < hi - 1 && guarded[i + 1]) lines.push(setDepth(depthAt[i]));
        for (const t of tails[i]) lines.push(`q = ${t("pos")}; if (q < 0) ${failed} pos = q;`);
        lines.push(finishOf(i));
      }
      return lines;
    };
    const lines: string[] = [];
    if (guarded[0]) lines.push(`if (depth >= ${MAX_DEPTH}) { overflow = 1; return -1; }`);
    lines.push("const base = depth; const mark = count; let sAt = -1; let sTo = 0; let sC = 0;");
    lines.push(`let pos = ${skipped ? "start0" : "skip(start0, depth)"}; const start1 = pos; let e1 = -1; let q = 0;`);
    const top = a < 0 ? k - 1 : a; // the levels whose depth is checked at the start
    const total = depthAt[top] ?? 0;
    if (total > (guarded[0] ? 1 : 0)) lines.push(`if (base + ${total} > ${MAX_DEPTH}) { overflow = 1; return -1; }`);
    if (a < 0) {
      if (total) lines.push(setDepth(total));
      lines.push(`q = ${inner}(pos, depth); if (q < 0) ${fail} pos = q;`);
      lines.push("e1 = pos;");
      const p = probe(0, k, `${finishes(k - 1)} return pos;`);
      if (p) lines.push(p);
      lines.push(...tailsDown(0, k, fail));
      lines.push("return pos;");
      return `function ${name}(start0: i32, depth: i32): i32 {\n  ${lines.join("\n  ")}\n}`;
    }
    // The choice at level a, entered at depth base + depthAt[a].
    const level = levels[a];
    const atA = setDepth(depthAt[a]);
    const below = depthAt[k - 1] - depthAt[a]; // depth checks of levels a+1..k-1
    const seg: string[] = [];
    if (below) seg.push(`if (base + ${depthAt[k - 1]} > ${MAX_DEPTH}) { overflow = 1; break; }`, setDepth(depthAt[k - 1]));
    seg.push(`q = ${inner}(pos, depth); if (q < 0) break; pos = q;`, "e1 = pos;");
    const miss1 = "{ pos = start1; count = mark; break; }";
    if (k - 1 > a) {
      const p = probe(a + 1, k, `${finishOf(k - 1)} ok = true; break;`);
      if (p) seg.push(p);
      seg.push(...tailsDown(a + 1, k, miss1));
    }
    seg.push("ok = true;");
    lines.push(atA);
    lines.push("let ok = false;");
    lines.push("const c = pos < len ? ch(pos) : -1;");
    const t0 = level.tests![0];
    lines.push(`${t0 === null ? "" : `if (${t0}) `}do {\n    ${seg.join("\n    ")}\n  } while (false);`);
    lines.push(atA);
    // A term that applies one rule leaves one node from start1 (or none, at start1): `e1`.
    const others = level.terms!.slice(1).map((t: any, i: number) => {
      const test = level.tests![i + 1];
      if (t instanceof pexprs.Param) t = level.ctx.actuals[t.index];
      const one = t instanceof pexprs.Apply && t.ruleName !== "spaces";
      return `if (${test === null ? "" : `(${test}) && `}(q = ${expr(t, level.ctx, true, true)("pos")}) >= 0) { pos = q; e1 = ${one ? "pos" : "-1"}; }`;
    });
    if (a === 0) {
      lines.push(`if (!ok) {\n    ${others.join("\n    else ")}\n    else { miss(pos); ${fail.slice(2)}\n  }`);
      lines.push(finishOf(a));
      lines.push("return pos;");
      return `function ${name}(start0: i32, depth: i32): i32 {\n  ${lines.join("\n  ")}\n}`;
    }
    // The tails of the levels above the choice run in a function of their own, called from the
    // two ways the choice can end (so that Binaryen does not inline it back): their locals are
    // then not in this function's frame, which stays on the native stack while the innermost
    // rule reads what is nested in it (`[[[...]]]`, `Stack([Stack([...])])`).
    const up: string[] = [];
    up.push("let depth = base; let q = 0;");
    if (guarded[a]) up.push(setDepth(depthAt[a - 1]));
    else up.push(setDepth(depthAt[a]));
    const p = probe(0, a, `${finishes(a - 1)} return pos;`);
    if (p) up.push(p);
    up.push(...tailsDown(0, a, fail));
    up.push("return pos;");
    const upName = `${name}_up`;
    const state = "pos, start0, start1, mark, e1, base, sAt, sTo, sC";
    out.push(
      `function ${upName}(pos: i32, start0: i32, start1: i32, mark: i32, e1: i32, base: i32, sAt: i32, sTo: i32, sC: i32): i32 {\n  ${up.join("\n  ")}\n}`,
    );
    lines.push(`if (ok) { ${finishOf(a)} return ${upName}(${state}); }`);
    lines.push(`${others.join("\n  else ")}\n  else { miss(pos); ${fail.slice(2)}`);
    lines.push(finishOf(a));
    lines.push(`return ${upName}(${state});`);
    return `function ${name}(start0: i32, depth: i32): i32 {\n  ${lines.join("\n  ")}\n}`;
  }

  // A sequence of two or more factors, in a rule that skips spaces, whose first applies a rule
  // tested where it is applied (see emptyAt): that rule's function and test.
  function leadingWhite(e: any, ctx: Ctx, record: boolean): { fn: string; empty: { test: string; always: boolean } } | null {
    if (!skips(ctx) || e.factors.length < 2) return null;
    let head = e.factors[0];
    if (head instanceof pexprs.Param) head = ctx.actuals[head.index];
    if (!(head instanceof pexprs.Apply) || head.ruleName === "spaces" || !grammar.rules[head.ruleName]) return null;
    const args = head.args.map((a: any) => a.substituteParams(ctx.actuals));
    const empty = emptyAt(head.ruleName, args);
    return empty && { fn: applyFn(head.ruleName, args, record, true), empty };
  }

  // A lexical rule whose body is `x*` or `x?` (white space: `gap`, `ternaryBreak`), tested where
  // it is applied: when `x` cannot start at the next code unit the rule matches nothing, having
  // recorded a failure there, and succeeds unless nesting overflowed (a loop over single code
  // units succeeds regardless: `always`). The test, or null where this does not apply.
  function emptyAt(ruleName: string, args: any[]): { test: string; always: boolean } | null {
    const info = grammar.rules[ruleName];
    if (!info || isSyntactic(ruleName) || memoRules.includes(ruleName) || recursive(ruleName)) return null;
    const body = info.body;
    if (!(body instanceof pexprs.Star || body instanceof pexprs.Opt)) return null;
    const test = firstTest(first(body.expr, args));
    if (test === null) return null;
    return { test, always: body instanceof pexprs.Star && charTest(body.expr, args) !== null };
  }

  // Where an iteration's body (not skipping, not recording) is a choice whose first terms cannot
  // start with some code units and whose next term is one code unit (strings: `"\\" jsonEscape |
  // ~("\"" | "\\" | nl) any`), those units are consumed by the loop itself: the body would test
  // the first terms' FIRST sets, skip them and match that unit, recording no failure.
  function unitOf(e: any, actuals: any[]): CharTest | null {
    if (e instanceof pexprs.Param) return unitOf(actuals[e.index], actuals);
    if (e instanceof pexprs.Apply) {
      const info = grammar.rules[e.ruleName];
      if (!info || isSyntactic(e.ruleName) || memoRules.includes(e.ruleName) || recursive(e.ruleName)) return null;
      return unitOf(
        info.body,
        e.args.map((a: any) => a.substituteParams(actuals)),
      );
    }
    if (!(e instanceof pexprs.Alt)) return null;
    // Each term consumes the unit when the terms before it were skipped and its own unit test
    // passes; a term that fails is tried, and recorded, so the next terms count only where its
    // FIRST test rules it out.
    let skipped: Ranges = [];
    const units: CharTest[] = [];
    for (const term of e.terms) {
      const unit = charTest(term, actuals) ?? unitOf(term, actuals);
      if (unit) units.push({ set: minus(unit.set, skipped), codePoint: unit.codePoint });
      const f = first(term, actuals);
      if (f.nullable || f.chars === "any") break;
      skipped = merge([...skipped, ...rangesOf(f.chars)]);
    }
    if (!units.length) return null;
    return { set: merge(units.flatMap((u) => u.set)), codePoint: units.some((u) => u.codePoint) };
  }

  // Compiles one parsing expression to a function of the position that returns where the match
  // ends, or -1 when there is none (then `count` is as it was). The position is a parameter and
  // a result, not a global, so that the engines keep it in a register. `record` says whether
  // applications inside are recorded (true only in syntactic rule bodies); `skipped`, that the
  // position it is called with is past spaces already (spaces are skipped once per position).
  function expr(e: any, ctx: Ctx, record: boolean, skipped = false): Callee {
    if (e instanceof pexprs.Param) return expr(ctx.actuals[e.index], ctx, record, skipped);
    if (e instanceof pexprs.Lex) return expr(e.expr, { ...ctx, lexified: true }, record);
    const name = fresh("e");
    const plain = !skips(ctx) && !record;
    // Where tokens start: past spaces in a syntactic context.
    const past = (x: string) => (skips(ctx) && !skipped ? `skip(${x}, depth)` : x);
    const at = past("pos");
    const call =
      (fn: string): Callee =>
      (x) =>
        `${fn}(${x}, depth)`;
    const single = plain ? charTest(e, ctx.actuals) : null;
    if (single) {
      out.push(`${INL}function ${name}(pos: i32, depth: i32): i32 {
  if (pos < len) { const c = ch(pos); if (${setTest(single.set, true)}) ${advance(single)} }
  return miss(pos);
}`);
      return call(name);
    }
    const repeated = plain && (e instanceof pexprs.Star || e instanceof pexprs.Plus) ? charTest(e.expr, ctx.actuals) : null;
    if (repeated) {
      out.push(`${spineLeaf(e, ctx, "while (") ? "export " : INL}function ${name}(pos: i32, depth: i32): i32 {
  ${scan(repeated, "pos")}
  miss(q);
  ${e instanceof pexprs.Plus ? "if (q == pos) return -1;\n  " : ""}return q;
}`);
      return call(name);
    }
    let code: string;
    // Applications, tokens and single factors are called where they are used: no function.
    if (e === pexprs.any) {
      return (x) => `matchAny(${past(x)})`;
    } else if (e === pexprs.end) {
      return (x) => `matchEnd(${past(x)})`;
    } else if (e instanceof pexprs.Terminal) {
      const units = String(e.obj)
        .split("")
        .map((c) => c.charCodeAt(0));
      if (units.length === 0) return (x) => x;
      else {
        const test = units.map((u, i) => `ch(pos + ${i}) == ${u}`).join(" && ");
        out.push(`${INL}function ${name}_t(pos: i32): i32 { if (pos + ${units.length} <= len && ${test}) return pos + ${units.length}; return miss(pos); }`);
        return (x) => `${name}_t(${past(x)})`;
      }
    } else if (e instanceof pexprs.Range) {
      const lo = String(e.from).codePointAt(0)!;
      const hi = String(e.to).codePointAt(0)!;
      if (hi > 0xffff) throw new Error("ranges beyond the BMP are not supported");
      out.push(
        `${INL}function ${name}_r(pos: i32): i32 { if (pos < len) { const c = ch(pos); if (c >= ${lo} && c <= ${hi}) return pos + 1; } return miss(pos); }`,
      );
      return (x) => `${name}_r(${past(x)})`;
    } else if (e instanceof pexprs.Apply) {
      if (e.ruleName === "spaces" && !grammar.rules.spaces.source) {
        return (x) => `skip(${x}, depth)`; // the built-in `spaces`, never recorded
      } else {
        const args = e.args.map((a: any) => a.substituteParams(ctx.actuals));
        const fn = applyFn(e.ruleName, args, record, skips(ctx));
        if (ctx.spine && !reaches(e.ruleName)) keepOut.add(fn);
        const empty = emptyAt(e.ruleName, args);
        const body = grammar.rules[e.ruleName]?.body;
        if (ctx.nestApps && reaches(e.ruleName)) {
          // An operand in a nesting tail: one level deeper, checked as a nesting rule checks it.
          // Its native stack cost is the tail's loop and the chain of the level below, on top of
          // the level of brackets or calls it may hold.
          code = `const s = ${at}; if (depth >= ${MAX_DEPTH}) { overflow = 1; return -1; }
  return ${fn}(s, depth + 1);`;
        } else if (!isSyntactic(e.ruleName) && body instanceof pexprs.Terminal && String(body.obj) === "" && !memoRules.includes(e.ruleName)) {
          // A rule that matches nothing (`sameLine`): no node, no failure.
          return past;
        } else if (empty) {
          // Tested here: where nothing can start, the rule matches nothing (no node).
          code = `const s = ${at}; const c = s < len ? ch(s) : -1;
  if (!(${empty.test})) { miss(s); return ${empty.always ? "s" : "overflow == 0 ? s : -1"}; }
  return ${fn}(s, depth);`;
        } else return (x) => `${fn}(${past(x)}, depth)`;
      }
    } else if (e instanceof pexprs.Alt) {
      const tests = e.terms.map((t: any) => firstTest(first(t, ctx.actuals)));
      const tested = !tests.every((t: string | null) => t === null);
      const terms: Callee[] = e.terms.map((t: any) => expr(t, ctx, record, tested || skipped));
      if (!tested) {
        code = `let q = 0;\n  ${terms.map((t) => `if ((q = ${t("pos")}) >= 0) return q;`).join("\n  ")}\n  return -1;`;
      } else {
        // Skipping spaces once here is what each term would do first anyway.
        code = `const p = ${at}; const c = p < len ? ch(p) : -1; let q = 0;
  ${terms.map((t, i) => `if (${tests[i] === null ? "" : `(${tests[i]}) && `}(q = ${t("p")}) >= 0) return q;`).join("\n  ")}
  return miss(p);`;
      }
    } else if (e instanceof pexprs.Seq && leadingWhite(e, ctx, record)) {
      // `W x ...` where W is white space tested where it is applied (`gap "," Expr`, `n Atom`):
      // the code unit W is tested on is read once. Where W cannot start it matches nothing, and
      // `x` starts where W would have: past spaces already, and a one-unit token is that unit.
      const { fn, empty } = leadingWhite(e, ctx, record)!;
      let next = e.factors[1];
      if (next instanceof pexprs.Param) next = ctx.actuals[next.index];
      const unit = next instanceof pexprs.Terminal && String(next.obj).length === 1 && !isSurrogate(String(next.obj).charCodeAt(0));
      const nextPast = unit ? `(c == ${String(next.obj).charCodeAt(0)} ? s + 1 : miss(s))` : expr(next, ctx, record, true)("s");
      const nextAfter = expr(next, ctx, record);
      const rest = e.factors.slice(2).map((f: any) => expr(f, ctx, record));
      code = `const m = count; const s = ${at}; const c = s < len ? ch(s) : -1; let q = 0;
  if (!(${empty.test})) { miss(s); ${empty.always ? "" : "if (overflow != 0) return -1; "}q = ${nextPast}; }
  else { q = ${fn}(s, depth); if (q < 0) return -1; q = ${nextAfter("q")}; }
  if (q < 0) { count = m; return -1; }
  ${rest.map((f: Callee) => `q = ${f("q")}; if (q < 0) { count = m; return -1; }`).join("\n  ")}
  return q;`;
    } else if (e instanceof pexprs.Seq) {
      const factors: Callee[] = e.factors.map((f: any, i: number) => expr(f, ctx, record, i === 0 && skipped));
      if (factors.length === 0) return (x) => x;
      else if (factors.length === 1) return factors[0];
      else {
        // The first factor leaves `count` as it was when it fails.
        const [head, ...rest] = factors;
        code = `const m = count;
  let q = ${head("pos")}; if (q < 0) return -1;
  ${rest.map((f) => `q = ${f("q")}; if (q < 0) { count = m; return -1; }`).join("\n  ")}
  return q;`;
      }
    } else if (e instanceof pexprs.Star || e instanceof pexprs.Plus) {
      const min = e instanceof pexprs.Plus ? 1 : 0;
      const test = firstTest(first(e.expr, ctx.actuals));
      const inner = expr(e.expr, ctx, record, test !== null);
      const past = test !== null && skips(ctx) ? pastW(e.expr, ctx.actuals) : null;
      const ruledOut = past ? ` || ${probeFn(past)}(c, s, depth)` : "";
      const guard =
        test === null
          ? ""
          : `const s = ${skips(ctx) ? "skip(before, depth)" : "before"}; const c = s < len ? ch(s) : -1; if (!(${test})${ruledOut}) { miss(s); break; } `;
      const fast = plain ? unitOf(e.expr, ctx.actuals) : null;
      const quick = fast ? `{ ${scan(fast, "p")} if (q != p) { p = q; n++; } }\n    ` : "";
      code = `let p = pos; const m = count; let n = 0;
  while (true) { ${quick}const before = p; ${guard}const q = ${inner(test === null ? "before" : "s")}; if (q < 0) break; p = q; n++; if (p == before) break; }
  if (overflow != 0 || n < ${min}) { count = m; return -1; }
  return p;`;
    } else if (e instanceof pexprs.Opt) {
      const test = firstTest(first(e.expr, ctx.actuals));
      const inner = expr(e.expr, ctx, record, test !== null || skipped);
      const past = test !== null && skips(ctx) ? pastW(e.expr, ctx.actuals) : null;
      const ruledOut = past ? ` || ${probeFn(past)}(c, s, depth)` : "";
      code =
        test === null
          ? `let q = ${inner("pos")}; if (q < 0) q = pos;
  return overflow == 0 ? q : -1;`
          : `const s = ${at}; const c = s < len ? ch(s) : -1; let q = pos;
  if (!(${test})${ruledOut}) miss(s); else { q = ${inner("s")}; if (q < 0) q = pos; }
  return overflow == 0 ? q : -1;`;
    } else if (e instanceof pexprs.Not) {
      const inner = expr(e.expr, ctx, record, skipped);
      code = `const m = count; const f = farthest;
  const hit = ${inner("pos")};
  count = m; farthest = f;
  if (hit >= 0) return miss(pos);
  return overflow == 0 ? pos : -1;`;
    } else if (e instanceof pexprs.Lookahead) {
      const inner = expr(e.expr, ctx, record, skipped);
      code = `return ${inner("pos")} < 0 ? -1 : pos;`;
    } else {
      throw new Error(`the grammar compiler does not support ${e.constructor.name}`);
    }
    out.push(`${spineLeaf(e, ctx, code) ? "export " : INL}function ${name}(pos: i32, depth: i32): i32 {\n  ${code}\n}`);
    return call(name);
  }

  const countedFns = new Set<string>();
  const spaceFn = applyFn("space", [], false);
  const spaceTest = firstTest(first(grammar.rules.space.body, [])) ?? "true";
  // The leading alternatives of `space` that are one code unit each (" ", "\t", ...): where one
  // of them matches, `space` consumes that unit and records no failure, so the loop does it.
  const spaceBody = grammar.rules.space.body;
  const units: First[] = [];
  for (const term of spaceBody instanceof pexprs.Alt ? spaceBody.terms : []) {
    const t = charTest(term, []);
    if (!t || t.codePoint) break;
    units.push(first(term, []));
  }
  const unitSpace = units.length ? `if (${firstTest({ chars: union(units).chars, nullable: false })}) { pos++; continue; } ` : "";
  const entries = startRules.map((rule, i) => {
    if (!grammar.rules[rule]) throw new Error(`unknown start rule ${rule}`);
    const ctx: Ctx = { syntactic: isSyntactic(rule), lexified: false, actuals: [] };
    // Ohm's top level: apply the start rule, then `end` (spaces skipped before it when the
    // start rule is syntactic). Here `end` is left to the caller: a prefix parse is useful.
    const fn = applyFn(rule, [], true, ctx.syntactic);
    return `  if (which == ${i}) end = ${fn}(${ctx.syntactic ? "skip(from, 0)" : "from"}, 0);`;
  });

  // A counted rule compiled into its callers' tests (a single-unit rule) would count nothing.
  for (const rule of countRules)
    if (!countedFns.has(rule)) throw new Error(`${rule} cannot be counted: it is not compiled as a function of its own (a lexical rule that is not memoised)`);

  // A rule function applied from one place only, and not through itself, is inlined there: V8
  // does not inline WebAssembly calls, and Binaryen only small functions.
  const text = out.join("\n\n") + entries.join("\n");
  for (const [key, fn] of fns) {
    const rule = key.slice(key.indexOf(":") + 1, key.indexOf("<"));
    if (recursive(rule) || memoRules.includes(rule)) continue;
    const sites = text.match(new RegExp(`\\b${fn}\\(`, "g"))?.length ?? 0;
    if (sites !== 2) continue; // the definition and one call
    const at = out.findIndex((f) => f.includes(`\nfunction ${fn}(`));
    // A leaf rule applied from a recursive rule's code, that loops: kept out of line (spineLeaf).
    const inline = keepOut.has(fn) ? "export " : INL;
    out[at] = out[at].replace(`\nfunction ${fn}(`, `\n${inline}function ${fn}(`);
  }
  const ruleNamesForHeight = () => rules.map((rule) => (heightRules.includes(rule) ? 1 : 0)).join(", ");
  for (const rule of heightRules) if (!ids.has(rule)) throw new Error(`unknown height rule ${rule}`);
  const source = `// Generated by src/grammar/compile.ts from grammar/ui.ohm. Do not edit.
// The position is no global: every parsing function takes it and returns where it got to (or -1).
// Nor is the nesting depth: every parsing function takes it (the number of recursive rules entered).
let len: i32 = 0;
let count: i32 = 0;
let farthest: i32 = 0;
let overflow: i32 = 0;
let nodesPtr: usize = 0;
let nodesCap: i32 = 0;
let memoPtr: usize = 0;
let memoSpan: i32 = 0; // positions per memo table: capacity + 1
let generation: u32 = 0; // parses since the memo tables were cleared
// Applications of each counted rule in the last parse (CompileOptions.countRules).
const applied = memory.data(${Math.max(4, countRules.length * 4)});
${recallRules
  .map(
    (_, k) => `// The last application of ${recallRules[k]}: at Pos (-1: none), Depth; End or -1; Far, its farthest failure; its nodes [From, From + Size).
let recall${k}Pos: i32 = -1; let recall${k}Depth: i32 = 0; let recall${k}End: i32 = 0; let recall${k}Far: i32 = 0; let recall${k}From: i32 = 0; let recall${k}Size: i32 = 0;`,
  )
  .join("\n")}
${failSpanRules
  .map(
    (_, k) => `// The last failed application of ${failSpanRules[k]}: its opening Unit, From where, its farthest failure Far.
let span${k}Unit: i32 = 0; let span${k}From: i32 = 0; let span${k}Far: i32 = 0;`,
  )
  .join("\n")}

// The input starts at a fixed address, so that reading a unit needs no pointer from a global. The
// module's static data (the verdict's rule classes) must fit below it (prepare checks).
const INPUT: usize = 4096;
@inline function ch(p: i32): i32 { return <i32>load<u16>(<usize>p << 1, INPUT); }
// A failure at pos: Ohm's rightmost failure position moves. Returns -1, no match.
@inline function miss(pos: i32): i32 { if (pos > farthest) farthest = pos; return -1; }
function matchAny(pos: i32): i32 {
  if (pos >= len) return miss(pos);
  const c = ch(pos);
  pos++;
  if (c >= 0xD800 && c <= 0xDBFF && pos < len) { const d = ch(pos); if (d >= 0xDC00 && d <= 0xDFFF) pos++; }
  return pos;
}
function matchEnd(pos: i32): i32 { return pos == len ? pos : miss(pos); }
function skipSlow(pos: i32, depth: i32): i32 {
  while (pos < len) { const c = ch(pos); ${unitSpace}if (!(${spaceTest})) return pos; const q = ${spaceFn}(pos, depth); if (q < 0) return pos; pos = q; }
  return pos;
}
// Past the spaces at pos.
@inline function skip(pos: i32, depth: i32): i32 { if (pos < len) { const c = ch(pos); if (${spaceTest}) return skipSlow(pos, depth); } return pos; }

function grow(bytes: usize): void {
  const have = <usize>memory.size() << 16;
  if (bytes > have) { const pages = <i32>((bytes - have + 0xFFFF) >> 16); if (memory.grow(pages) < 0) unreachable(); }
}

// Records a node for a rule that matched [start, end) with children [mark, count).
@inline function finish(rule: i32, start: i32, end: i32, mark: i32): void {
  if (end == start) { count = mark; return; }
  if (count > mark) {
    const last = nodesPtr + (<usize>(count - 1) << 4);
    if (count - load<i32>(last, 12) == mark && load<i32>(last, 4) == start && load<i32>(last, 8) == end) return;
  }
  ${recallRules.map((_, k) => `if (<u32>(count - recall${k}From) < <u32>recall${k}Size) recall${k}Pos = -1; // written over`).join("\n  ")}
  if (count == nodesCap) {
    nodesCap = nodesCap * 2;
    grow(nodesPtr + (<usize>nodesCap << 4));
  }
  const at = nodesPtr + (<usize>count << 4);
  store<i32>(at, rule);
  store<i32>(at, start, 4);
  store<i32>(at, end, 8);
  store<i32>(at, count - mark + 1, 12);
  count++;
}

// Memo tables whose entries are all unknown (a new place in memory holds anything).
function clearMemo(): void {
  memory.fill(memoPtr, 0, (<usize>${memoTables.length} * <usize>memoSpan) << 3);
  generation = 1;
}

/** Makes room for inputs of up to \`capacity\` UTF-16 units; returns where to write them. */
export function prepare(capacity: i32): usize {
  if (__heap_base > INPUT) unreachable();
  // 16 bytes past the input: a scan reads eight units at a time.
  memoPtr = (INPUT + (<usize>capacity << 1) + 16 + 15) & ~15;
  memoSpan = capacity + 1;
  nodesPtr = (memoPtr + ((<usize>${memoTables.length} * <usize>memoSpan) << 3) + 15) & ~15;
  nodesCap = max(1024, capacity >> 1);
  grow(nodesPtr + (<usize>nodesCap << 4));
  clearMemo();
  return INPUT;
}

// Per rule id: 1 when its nodes count in the tree's height (CompileOptions.heightRules).
const HEIGHT = memory.data<u8>([${ruleNamesForHeight()}]);

// The first node found whose path from the top holds more than MAX_DEPTH counted nodes, or -1.
// From the top down, with a stack past the tree: a subtree with fewer nodes than the levels left
// cannot hold such a path, so only the large ones near the top are looked into.
function tooTall(): i32 {
  const stack = (nodesPtr + (<usize>nodesCap << 4) + 15) & ~15;
  let n = 1;
  grow(stack + 8);
  store<i32>(stack, count - 1);
  store<i32>(stack, <i32>load<u8>(HEIGHT + <usize>load<i32>(nodesPtr + (<usize>(count - 1) << 4))), 4);
  while (n > 0) {
    n--;
    const j = load<i32>(stack + (<usize>n << 3));
    const above = load<i32>(stack + (<usize>n << 3), 4);
    if (above > ${MAX_DEPTH}) return j;
    const size = load<i32>(nodesPtr + (<usize>j << 4), 12);
    if (above + size - 1 <= ${MAX_DEPTH}) continue;
    grow(stack + (<usize>(n + size) << 3)); // room for its children, fewer than its nodes
    for (let c = j - 1, first = j - size + 1; c >= first; c -= load<i32>(nodesPtr + (<usize>c << 4), 12)) {
      store<i32>(stack + (<usize>n << 3), c);
      store<i32>(stack + (<usize>n << 3), above + <i32>load<u8>(HEIGHT + <usize>load<i32>(nodesPtr + (<usize>c << 4))), 4);
      n++;
    }
  }
  return -1;
}

/** Parses input[from, length) with start rule \`which\`; returns the end position or -1. */
export function parse(which: i32, from: i32, length: i32): i32 {
  len = length; count = 0; farthest = from; overflow = 0;
  memory.fill(applied, 0, ${countRules.length * 4});
  ${recallRules.map((_, k) => `recall${k}Pos = -1;`).join(" ")} ${failSpanRules.map((_, k) => `span${k}Far = 0;`).join(" ")}
  // What earlier parses remembered is stamped with their generation, so forgotten.
  if (++generation == 0) clearMemo();
  let end = -1;
${entries.join("\n")}
  if (overflow == 0 && end >= 0 && count > ${MAX_DEPTH}) {
    const tall = tooTall();
    if (tall >= 0) { overflow = 1; farthest = load<i32>(nodesPtr + (<usize>tall << 4), 4); }
  }
  return overflow == 0 ? end : -1;
}
export function nodes(): usize { return nodesPtr; }
export function nodeCount(): i32 { return count; }
export function farthestPosition(): i32 { return farthest; }
export function overflowed(): i32 { return overflow; }
export function applications(k: i32): u32 { return load<u32>(applied + (<usize>k << 2)); }

${out.join("\n\n")}
`;
  return { source, rules, startRules, grammarName: grammar.name };
}
