// The system prompt from a library: component groups as applications write them, and as any JSON.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { assembleSystemPrompt } from "../../src/prompt/index.ts";

const schema = { $defs: { Card: { properties: { title: { type: "string" } }, required: ["title"] } } };

test("component groups: name, components and notes (a list or a string, or the description)", () => {
  const prompt = assembleSystemPrompt({
    library: {
      schema,
      componentGroups: [
        { name: "Layout", components: ["Card", "Stack"], notes: ["Cards hold one topic.", "Stacks hold cards."] },
        { name: "Text", components: ["Title"], description: "Headings." },
        { components: ["Card"] },
      ],
    },
  });
  expect(prompt).toContain("## Component groups\n- Layout: Card, Stack. Cards hold one topic. Stacks hold cards.\n- Text: Title. Headings.\n- Group: Card");
});

test('a group field of any JSON is text in the prompt, never an exception (found: notes {"toString": null})', () => {
  const odd = assembleSystemPrompt({ library: { schema, componentGroups: [{ name: ["A", 1], components: "Card", notes: { toString: null } }, null, 5] } });
  expect(odd).toContain('- A 1: Card. {"toString":null}');
  fc.assert(
    fc.property(
      fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 3 }),
      fc.array(fc.record({ name: fc.jsonValue(), components: fc.jsonValue(), notes: fc.jsonValue(), description: fc.jsonValue() }, { requiredKeys: [] })),
      (loose, groups) => {
        expect(typeof assembleSystemPrompt({ library: { schema, componentGroups: [...loose, ...groups] } })).toBe("string");
      },
    ),
    { numRuns: 500 },
  );
});
