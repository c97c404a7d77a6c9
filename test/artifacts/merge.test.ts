// The patch merge against a model of it: random programs and patches are printed as text
// (multi-line ternaries and arrays, strings holding `=`, `#`, `//`, quotes and newline escapes;
// fences, prose or a stored-turn envelope around the patch), merged as text, and the merged text
// read back must hold exactly the statements the model's merge keeps, each with the text it was
// printed with, in model order.
import { beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { loadLanguage } from "../../src/lang/index.ts";
import { mergeProgram, readStatements } from "../../src/artifacts/merge.ts";

beforeAll(() => loadLanguage());

interface Printed {
  text: string;
  refs: string[];
}

const NAMES = ["root", "a", "b", "c", "d", "e", "f", "g", "title", "rows"];
const STATES = ["$open", "$tab"];
const COMPONENTS = ["Stack", "Slide", "Text", "Card", "TitleSlide"];

// Strings that trip a line-based reader: `=` (looks like a new statement), `#` and `//` (look like
// comments), quotes, brackets, `?`/`:` (look like a ternary's lines), and newlines (escaped).
const stringLit = fc
  .array(fc.constantFrom("a", "Z", " ", "=", "x = y", "==", "#", "//", '"', "'", "\\", "\n", "?", ":", "(", ")", "[", "]", ",", "é"), { maxLength: 8 })
  .map((parts) => ({ text: JSON.stringify(parts.join("")), refs: [] as string[] }));

const refTo = (names: string[]) => fc.constantFrom(...names).map((n) => ({ text: n, refs: [n] }));

function exprArb(names: string[]): fc.Arbitrary<Printed> {
  const { expr } = fc.letrec<{ expr: Printed; leaf: Printed }>((tie) => ({
    leaf: fc.oneof(
      stringLit,
      fc.integer({ min: -50, max: 50 }).map((n) => ({ text: String(n), refs: [] })),
      refTo(names),
      refTo(STATES),
    ),
    expr: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      tie("leaf"),
      // A call, its arguments on one line or one per line.
      fc.tuple(fc.constantFrom(...COMPONENTS), fc.array(tie("expr"), { maxLength: 3 }), fc.boolean()).map(([name, args, spread]) => ({
        text: spread && args.length ? `${name}(\n  ${args.map((a) => a.text).join(",\n  ")}\n)` : `${name}(${args.map((a) => a.text).join(", ")})`,
        refs: args.flatMap((a) => a.refs),
      })),
      fc.tuple(fc.array(tie("expr"), { maxLength: 3 }), fc.boolean()).map(([items, spread]) => ({
        text: spread ? `[\n  ${items.map((a) => a.text).join(",\n  ")}\n]` : `[${items.map((a) => a.text).join(", ")}]`,
        refs: items.flatMap((a) => a.refs),
      })),
      // A ternary whose `?` and `:` parts stand on lines of their own: one statement, three lines.
      fc.tuple(refTo(STATES), tie("leaf"), tie("leaf"), fc.boolean()).map(([cond, then, other, lines]) => ({
        text: lines ? `${cond.text} == "x"\n  ? ${then.text}\n  : ${other.text}` : `${cond.text} ? ${then.text} : ${other.text}`,
        refs: [...cond.refs, ...then.refs, ...other.refs],
      })),
    ),
  }));
  return expr;
}

type Stmt = Printed & { id: string };

/** A program: root first, then some other names, then state; every statement printed. */
const programArb = fc
  .tuple(fc.subarray(NAMES.slice(1), { minLength: 1 }), fc.subarray(STATES))
  .chain(([names, states]) =>
    fc.tuple(
      fc.tuple(...["root", ...names].map((id) => exprArb(names).map((e) => ({ id, ...e })))),
      fc.tuple(...states.map((id) => stringLit.map((e) => ({ id, ...e })))),
    ),
  )
  .map(([stmts, states]) => [...stmts, ...states] as Stmt[]);

/** A patch over a program: changed statements (old and new names), deletions, and a wrapping. */
const patchArb = (names: string[]) =>
  fc.tuple(fc.subarray(NAMES), fc.subarray(NAMES), fc.constantFrom("bare", "fenced", "prose", "envelope")).chain(([changed, deleted, wrap]) => {
    const removed = deleted.filter((d) => !changed.includes(d));
    const pool = [...new Set([...names, ...changed])];
    return fc.tuple(fc.tuple(...changed.map((id) => exprArb(pool).map((e) => ({ id, ...e })))), fc.constant(removed), fc.constant(wrap));
  });

const print = (stmts: Stmt[]) => stmts.map((s) => `${s.id} = ${s.text}`).join("\n");

function wrap(text: string, how: string): string {
  if (how === "fenced") return "```openui\n" + text + "\n```";
  if (how === "envelope") return "]]>openui:content\n" + text + '\n]]>openui:context\n[{"note": "x = 1"}]\n]]>openui:end';
  if (how === "prose") return "Here is the change, x = 1:\n\n```\n" + text + "\n```\nThat is all = done.";
  return text;
}

/** The merge on the model: the rules, applied to statements already known. */
function modelMerge(base: Stmt[], changed: Stmt[], deleted: string[]): Stmt[] {
  const m = new Map(base.map((s) => [s.id, s]));
  for (const s of changed) m.set(s.id, s);
  for (const id of deleted) m.delete(id);
  if (!m.has("root")) return [...m.values()];
  const reached = new Set<string>();
  const queue = [...m.keys()].filter((id) => id === "root" || id.startsWith("$"));
  for (const id of queue) reached.add(id);
  while (queue.length) {
    for (const r of m.get(queue.pop()!)!.refs) if (m.has(r) && !reached.has(r)) reached.add(r), queue.push(r);
  }
  return [...m.values()].filter((s) => reached.has(s.id));
}

const asRead = (stmts: Stmt[]) => stmts.map((s) => ({ id: s.id, text: `${s.id} = ${s.text}` }));

test("a printed program reads back as the statements it was printed from", () => {
  fc.assert(
    fc.property(programArb, (program) => {
      const read = readStatements(print(program));
      expect(read.ignored).toEqual([]);
      expect(read.statements.map((s) => ({ id: s.id, text: s.text }))).toEqual(asRead(program));
      for (const [i, s] of read.statements.entries()) expect(new Set(s.refs)).toEqual(new Set(program[i].refs.filter((r) => r !== s.id)));
    }),
    { numRuns: 300 },
  );
});

test("merging a random patch keeps exactly what the rules keep, each statement's text intact", () => {
  fc.assert(
    fc.property(
      programArb.chain((program) => fc.tuple(fc.constant(program), patchArb(program.map((s) => s.id)))),
      ([program, [changed, deleted, how]]) => {
        const patchText = print([...changed, ...deleted.map((id) => ({ id, text: "null", refs: [] }))]);
        const result = mergeProgram(print(program), wrap(patchText, how));
        const expected = modelMerge(program, changed, deleted);
        const read = readStatements(result.program);
        expect(read.statements.map((s) => ({ id: s.id, text: s.text }))).toEqual(asRead(expected));
        expect(result.program).toBe(print(expected));
        const baseIds = new Set(program.map((s) => s.id));
        expect(result.added).toEqual(changed.filter((s) => !baseIds.has(s.id)).map((s) => s.id));
        expect(result.deleted).toEqual(deleted.filter((id) => baseIds.has(id)));
      },
    ),
    { numRuns: 400 },
  );
});

test("a whole program as the edit merges like a patch: the new program's statements, in place", () => {
  fc.assert(
    fc.property(programArb, programArb, (base, whole) => {
      const result = mergeProgram(print(base), wrap(print(whole), "fenced"));
      expect(result.program).toBe(print(modelMerge(base, whole, [])));
    }),
    { numRuns: 200 },
  );
});

test("a rename: the parent re-declared with the new name, the old statement collected", () => {
  const base = 'root = Stack([intro, chart])\nintro = Text("a = b")\nchart = Card("c")';
  const result = mergeProgram(base, 'root = Stack([summary, chart])\nsummary = Text("a = b")');
  expect(result.program).toBe('root = Stack([summary, chart])\nchart = Card("c")\nsummary = Text("a = b")');
  expect(result.collected).toEqual(["intro"]);
});

test("a multi-line ternary the patch does not touch survives whole (OpenUI's own merge cuts it at the first line)", () => {
  const base = 'root = Stack([body, footer])\nbody = $open\n  ? Card("Open: x = 1")\n  : Text("closed\\nfor now")\nfooter = Text("f")\n$open = false';
  const result = mergeProgram(base, 'footer = Text("changed = yes")');
  expect(result.program).toBe(
    'root = Stack([body, footer])\nbody = $open\n  ? Card("Open: x = 1")\n  : Text("closed\\nfor now")\nfooter = Text("changed = yes")\n$open = false',
  );
});

test("`name = null` deletes; deleting what root still references leaves the reference for the check to report", () => {
  const result = mergeProgram('root = Stack([a, b])\na = Text("a")\nb = Text("b")', "b = null\nroot = Stack([a])");
  expect(result.program).toBe('root = Stack([a])\na = Text("a")');
  expect(result.deleted).toEqual(["b"]);
  expect(mergeProgram('root = Stack([a, b])\na = Text("a")\nb = Text("b")', "b = null").program).toBe('root = Stack([a, b])\na = Text("a")');
});

test("state, queries and mutations are kept though nothing references them; prose lines are set aside", () => {
  const base = 'root = Stack([a])\na = Text("a")\n$tab = "one"\nq = Query("load", {}, {})\nm = Mutation("save", {})';
  const result = mergeProgram(base, "I changed it:\nroot = Stack([])\nthis is not a statement");
  expect(result.program).toBe('root = Stack([])\n$tab = "one"\nq = Query("load", {}, {})\nm = Mutation("save", {})');
  expect(result.collected).toEqual(["a"]);
  expect(result.ignored).toEqual(["I changed it:", "this is not a statement"]);
});

test("a statement of the patch that does not parse is kept by its name, as written, for the check to mend", () => {
  const result = mergeProgram('root = Stack([a])\na = Text("a")', 'a = Text("unclosed)');
  expect(result.program).toBe('root = Stack([a])\na = Text("unclosed)');
  expect(result.replaced).toEqual(["a"]);
});

test("an empty edit changes nothing; an empty base takes the edit", () => {
  expect(mergeProgram('root = Stack([a])\na = Text("a")', "").program).toBe('root = Stack([a])\na = Text("a")');
  expect(mergeProgram("", 'root = Stack([a])\na = Text("a")').program).toBe('root = Stack([a])\na = Text("a")');
});
