// The system prompts of artifact generation and of edits: the kind's built-in library prompted as
// its package prompts it (src/prompt/builtin.ts), with the rules of a whole document and, for
// edits, of patches. Pure: the example check is passed in.
import { assembleBuiltinPrompt } from "../prompt/builtin.ts";
import type { ArtifactLibrary } from "./kinds.ts";

function rules(lib: ArtifactLibrary): string[] {
  const list = lib.kind === "slides" ? "slides" : "pages";
  return [
    `\`root\` is ${lib.root}(title, subtitle?, ${list}): the title of the whole ${lib.kind === "slides" ? "deck" : "report"}, then every ${lib.unit} in order.`,
    `Give each ${lib.unit} its own statement with a short, unique, lower-case name, and an id (its first argument) equal to that name.`,
    "Keep data (chart values, table rows, long lists) in statements of their own, referenced by name.",
    `Write real content for every ${lib.unit}: no placeholders, no lorem ipsum.`,
  ];
}

export function generationPrompt(lib: ArtifactLibrary, instructions: string, checkExample: (program: string) => boolean): string {
  return assembleBuiltinPrompt(lib.prompt, { additionalRules: rules(lib), examples: lib.examples.filter(checkExample) }, instructions);
}

const EDIT_MODE = `## Edit mode
You are changing an existing program: the user's message gives it, then what to change. Answer with only the statements that change or are new, one per line:
- a statement with a name the program has replaces that statement;
- a statement with a new name is added (re-declare its parent so that the parent references it);
- \`name = null\` deletes a statement; a statement nothing reaches from \`root\` any more is removed with it;
- reuse the program's names exactly, keep its ids, and never repeat statements that do not change.`;

export function editPrompt(lib: ArtifactLibrary, instructions: string, checkExample: (program: string) => boolean): string {
  return `${generationPrompt(lib, instructions, checkExample)}\n\n${EDIT_MODE}`;
}

/** The user turn of an edit: the current program, then the instruction. */
export function editRequest(program: string, instruction: string): string {
  return `The current program:\n\n${program}\n\nWhat to change:\n${instruction}`;
}
