// The artifact prompts: the built-in library's own prompt, the document rules, the examples (each
// one valid: a wrong example would be dropped silently), and edit mode.
import { beforeAll, expect, test } from "bun:test";
import { isValid, loadLanguage, parse } from "../../src/lang/index.ts";
import { ARTIFACT_KINDS, artifactLibrary } from "../../src/artifacts/kinds.ts";
import { editPrompt, generationPrompt } from "../../src/artifacts/prompt.ts";
import { programTitle } from "../../src/artifacts/title.ts";

beforeAll(() => loadLanguage());

test("each kind's examples are valid in its library, and every prompt shows them", () => {
  for (const kind of ARTIFACT_KINDS) {
    const lib = artifactLibrary(kind);
    expect(lib.library.root).toBe(kind === "slides" ? "SlideShow" : "ReportView");
    const check = (p: string) => isValid(parse(p, lib.library));
    for (const example of lib.examples) {
      expect(parse(example, lib.library).errors).toEqual([]);
      expect(generationPrompt(lib, "", check)).toContain(example);
    }
    const prompt = generationPrompt(lib, "Write for the board.", check);
    expect(prompt).toContain(`${lib.root}(title: string, subtitle?: string, ${kind === "slides" ? "slides: Slide[]" : "pages: Page[]"})`);
    expect(prompt.endsWith("Write for the board.")).toBe(true);
    expect(prompt).not.toContain("## Edit mode");
    const edit = editPrompt(lib, "", check);
    expect(edit).toContain("## Edit mode");
    expect(edit).toContain("`name = null` deletes a statement");
  }
});

test("an artifact's name is its root's title, through a reference too", () => {
  expect(programTitle('root = SlideShow("Coffee", "x", [a])\na = Slide("a", TextBody("t", []))')).toBe("Coffee");
  expect(programTitle('root = ReportView(title, "x", [])\ntitle = "Survey = 2025"')).toBe("Survey = 2025");
  expect(programTitle("root = SlideShow(1, [])")).toBeNull();
  expect(programTitle("not a program")).toBeNull();
});
