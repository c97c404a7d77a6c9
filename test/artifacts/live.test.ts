// The live text of an artifact: only the program goes out, repaired line by line; an edit starts
// from the program being edited; what was sent, once finished, reads as the checked program.
import { beforeAll, expect, test } from "bun:test";
import { artifactLibrary } from "../../src/artifacts/kinds.ts";
import { liveArtifact } from "../../src/artifacts/live.ts";
import { mergeProgram } from "../../src/artifacts/merge.ts";
import { loadLanguage } from "../../src/lang/index.ts";

beforeAll(() => loadLanguage());

const DECK = `root = SlideShow("Coffee Sales", "Q3 review", [cover, numbers])
cover = Slide("cover", StandardTitle("Coffee Sales", "Q3 review"))
numbers = Slide("numbers", ContentClassic("Numbers", ["Revenue up 12%", "Six new stores"]))`;
const words = (s: string) => s.match(/\S+\s*|\s+/g) ?? [];
/** Reads a text as the language does: a later statement of a name wins, unreachable ones are dropped. */
const meaning = (text: string) => mergeProgram("", text).program.split("\n").sort();

function stream(base: string | null, answer: string, final: string) {
  const live = liveArtifact(artifactLibrary("slides"), base);
  const pieces = [live.start()];
  for (const w of words(answer)) pieces.push(live.push(w));
  const shownBeforeEnd = pieces.join("");
  pieces.push(live.finish(final));
  const text = pieces.join("");
  expect(live.sent()).toBe(text);
  return { text, shownBeforeEnd };
}

test("prose and fences around the program are not sent; a misspelt component is mended as its line ends", () => {
  const answer = `Here is your deck:\n\`\`\`openui\n${DECK.replace("ContentClassic", "ContentClasic")}\n\`\`\`\nEnjoy!`;
  const { text, shownBeforeEnd } = stream(null, answer, DECK);
  expect(text).toBe(DECK);
  // Every line but the last was out before the model's answer ended.
  expect(shownBeforeEnd).toContain('cover = Slide("cover"');
  expect(shownBeforeEnd).not.toContain("```");
  expect(shownBeforeEnd).not.toContain("Here is");
});

test("an edit: the program being edited, then the patch's statements; deletions are not sent; the whole reads as the merged program", () => {
  const patch =
    '```\nnumbers = Slide("numbers", ContentClassic("Numbers = facts", ["Up 14%"]))\nplan = Slide("plan", ContentClassic("Plan", ["Open two stores"]))\nroot = SlideShow("Coffee Sales", "Q3 review", [numbers, plan])\ncover = null\n```';
  const merged = mergeProgram(DECK, patch).program;
  const { text, shownBeforeEnd } = stream(DECK, patch, merged);
  expect(text.startsWith(DECK)).toBe(true);
  expect(shownBeforeEnd).toContain("Numbers = facts");
  expect(text).not.toContain("null");
  expect(meaning(text)).toEqual(meaning(merged));
});

test("what the check changed after the stream (a fixing model's repair) is sent at the finish", () => {
  const repaired = DECK.replace("Six new stores", "Seven new stores");
  const { text } = stream(null, DECK, repaired);
  expect(text.startsWith(DECK)).toBe(true);
  expect(meaning(text)).toEqual(meaning(repaired));
});
