// A round's result read from the round's own inspection (reinspect.ts) must be what inspecting
// the whole text finds: the same statements where they stand, the same broken lines, the same
// errors. Held to that on every round of every corpus case, and on a long program where only the
// mended statement may be parsed again.
import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mutationArb } from "../conformance/generators.ts";
import { compileLibrary, inspect, loadLanguage, type Inspection, type Library } from "../../src/lang/index.ts";
import { unitsParsed } from "../../src/lang/engine.ts";
import { makeRound } from "../../src/repair/round.ts";
import { REINSPECT_FROM, roundEdits, sanitize } from "../../src/repair/sanitize.ts";
import { reinspect } from "../../src/repair/reinspect.ts";
import { corpusPrograms, HELD_OUT_SEEDS, makeCase, TUNE_SEEDS, type Case, type Program } from "./corpus/corpus.ts";
import { STACK_TEXT_LIBRARY } from "../support/stack-text-library.ts";

let programs: Record<string, Program>;
beforeAll(async () => {
  await loadLanguage();
  programs = await corpusPrograms();
});

/** What an inspection says, as plain data in a fixed order. */
function facts(ins: Inspection) {
  const errors = ins.errors.map((e) => JSON.stringify([e.at, e.code, e.statementId ?? null, e.path ?? null, e.component ?? null, e.message])).sort();
  return {
    head: ins.head,
    program: ins.program,
    tail: ins.tail,
    blocks: ins.blocks,
    statements: ins.statements.map((s) => JSON.stringify({ id: s.id, kind: s.kind, start: s.start, end: s.end, expr: s.expr })),
    broken: ins.broken.map((b) => JSON.stringify(b)),
    errors,
  };
}

describe("reinspect", () => {
  test("agrees with a whole inspection on every round of the corpus, and is used for most of them", () => {
    let rounds = 0;
    let used = 0;
    const seeds = [...TUNE_SEEDS, ...HELD_OUT_SEEDS];
    for (const c of seeds.map((s) => makeCase(s, programs)).filter((x): x is Case => x !== null)) {
      let text = c.broken;
      let ins = inspect(text, c.library);
      const seen = new Set([text]);
      for (let r = 0; r < 24 && ins.errors.length; r++) {
        const round = makeRound(text, c.library, ins);
        const next = roundEdits(round, seen);
        if (next === null) break;
        seen.add(next.text);
        rounds++;
        const whole = inspect(next.text, c.library);
        const again = reinspect(round, next.kept, next.text, c.library);
        if (again !== null) {
          used++;
          expect(facts(again), `seed ${c.seed}, round ${r}`).toEqual(facts(whole));
        }
        text = next.text;
        ins = whole;
      }
    }
    expect(rounds).toBeGreaterThan(1000);
    expect(used).toBeGreaterThan(rounds / 4);
  });

  test("agrees with a whole inspection on every round of the sanitizer over arbitrary mutations of the corpus programs", () => {
    const texts = Object.values(programs).map((p) => p.text);
    const library = Object.values(programs)[0].library;
    let used = 0;
    fc.assert(
      fc.property(mutationArb(texts), (broken) => {
        let text = broken;
        let ins = inspect(text, library);
        const seen = new Set([text]);
        for (let r = 0; r < 24 && ins.errors.length; r++) {
          const round = makeRound(text, library, ins);
          const next = roundEdits(round, seen);
          if (next === null) break;
          seen.add(next.text);
          const whole = inspect(next.text, library);
          const again = reinspect(round, next.kept, next.text, library);
          if (again !== null) {
            used++;
            expect(facts(again)).toEqual(facts(whole));
          }
          text = next.text;
          ins = whole;
        }
      }),
      { numRuns: 300, seed: 20 },
    );
    expect(used).toBeGreaterThan(0);
  });

  test("an edit that changes what a referring statement finds: its errors are found again, the rest kept", () => {
    const library = compileLibrary({
      root: "Stack",
      schema: {
        $defs: {
          Stack: {
            type: "object",
            properties: { children: { type: "array", items: { anyOf: [{ $ref: "#/$defs/Text" }, { $ref: "#/$defs/Card" }] } } },
            required: ["children"],
          },
          Text: { type: "object", properties: { text: { type: "string" }, size: { enum: ["s", "l"] } }, required: ["text"] },
          Card: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Badge" } } }, required: ["children"] },
          Badge: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
        },
      },
    });
    const text = [
      "root = Stack([head, b, card, more])",
      'head = Text("Hi", "xl")',
      'b = Badg("new")',
      "card = Card([head, b2])",
      'b2 = Badge("ok")',
      "more = [head, card]",
      'x = Text("never shown")',
    ].join("\n");
    const check = (edits: { start: number; end: number; text: string }[]) => {
      const round = makeRound(text, library, inspect(text, library));
      let out = "";
      let at = 0;
      for (const e of edits) {
        out += text.slice(at, e.start) + e.text;
        at = e.end;
      }
      out += text.slice(at);
      const again = reinspect(round, edits, out, library);
      expect(again).not.toBeNull();
      expect(facts(again!)).toEqual(facts(inspect(out, library)));
      return again!;
    };
    const b = text.indexOf("Badg(");
    // Badg → Badge: root now finds a Badge among its children.
    const renamed = check([{ start: b, end: b + 4, text: "Badge" }]);
    expect(renamed.errors.some((e) => e.statementId === "root" && e.code === "type-mismatch")).toBe(true);
    // And head's size mended at the same time (an error of head's own that card's check saw through it).
    const size = text.indexOf('"xl"');
    check([
      { start: size, end: size + 4, text: '"l"' },
      { start: b, end: b + 4, text: "Badge" },
    ]);
    // A line added or a reference dropped is not a mend in place.
    const round = makeRound(text, library, inspect(text, library));
    const end = text.indexOf("\n");
    expect(reinspect(round, [{ start: end, end, text: "\nnew = 1" }], text.slice(0, end) + "\nnew = 1" + text.slice(end), library)).toBeNull();
    const ref = text.indexOf(", more])");
    expect(reinspect(round, [{ start: ref, end: ref + 6, text: "" }], text.slice(0, ref) + text.slice(ref + 6), library)).toBeNull();
  });

  test("a long program with one misspelt component: the fix parses the text once, and only the mended line again", () => {
    const library: Library = compileLibrary(STACK_TEXT_LIBRARY);
    const lines = Array.from({ length: 2000 }, (_, i) => `t${i} = Text("Row ${i} of the page", "small")`);
    lines[1000] = 't1000 = Txt("Row 1000 of the page", "small")';
    const text = [`root = Stack([${lines.map((_, i) => `t${i}`).join(", ")}])`, ...lines].join("\n");
    const first = inspect(text, library);
    const before = unitsParsed();
    const out = sanitize(text, library, first);
    const parsed = unitsParsed() - before;
    expect(out.remaining).toEqual([]);
    expect(out.content).toBe(text.replace('t1000 = Txt("', 't1000 = Text("'));
    expect(parsed).toBeLessThan(200);
    expect(facts(out.last)).toEqual(facts(inspect(out.content, library)));
  });

  test("a program shorter than REINSPECT_FROM is inspected whole after a round (a parse of it costs less), with the same result", () => {
    const library: Library = compileLibrary(STACK_TEXT_LIBRARY);
    const text = 'root = Stack([title, rows])\ntitle = Txt("Orders", "large")\nrows = Stack([Text("First row", "small"), Text("Second row")])';
    expect(text.length).toBeLessThan(REINSPECT_FROM);
    const first = inspect(text, library);
    const before = unitsParsed();
    const out = sanitize(text, library, first);
    const parsed = unitsParsed() - before;
    expect(out.content).toBe(text.replace("Txt(", "Text("));
    expect(out.remaining).toEqual([]);
    // The mended text once, whole: reinspect would have parsed only the mended line.
    expect(parsed).toBeGreaterThanOrEqual(out.content.length);
    expect(facts(out.last)).toEqual(facts(inspect(out.content, library)));
  });
});
