// Library (the chatLibrary JSON) → the complete system prompt of a managed-UI request.
// Pure: the example check is passed in, so this module needs neither the parser nor I/O.
import { SYNTAX_RULES } from "./syntax.ts";
import { signatures } from "./signatures.ts";

export { SYNTAX_RULES } from "./syntax.ts";
export { signature, signatures, typeOf } from "./signatures.ts";

export interface PromptOptions {
  preamble?: string;
  additionalRules?: string[];
  examples?: string[];
}

export interface PromptInput {
  library: Record<string, unknown>;
  options?: PromptOptions;
  /** Examples of the library itself (the built-in one has its own), shown before the block's. */
  libraryExamples?: string[];
  /** The block's free-form instructions (after its JSON line), appended last. */
  instructions?: string;
  /** Only examples for which this holds are shown: a wrong example teaches wrong programs. */
  checkExample?: (program: string) => boolean;
}

const DEFAULT_PREAMBLE =
  "You are an assistant that answers with generative UI: instead of prose, you write a small program that the application renders as interface components.";

interface Group { name?: string; components?: string[]; notes?: string[] | string; description?: string }

export function assembleSystemPrompt(input: PromptInput): string {
  const lib = input.library;
  const defs = ((lib.schema as { $defs?: Record<string, Record<string, unknown>> } | undefined)?.$defs) ?? {};
  const parts: string[] = [input.options?.preamble?.trim() || DEFAULT_PREAMBLE];
  parts.push(`## The UI language\n${SYNTAX_RULES}`);
  const root = typeof lib.root === "string" ? `\nThe \`root\` statement must be a ${lib.root}(...).` : "";
  parts.push(`## Components\nSignatures list arguments in positional order; \`?\` marks optional ones, \`= x\` a default.${root}\n${signatures(defs).join("\n")}`);

  const groups = (Array.isArray(lib.componentGroups) ? lib.componentGroups : []) as Group[];
  if (groups.length) {
    const lines = groups.map((g) => {
      const notes = Array.isArray(g.notes) ? g.notes.join(" ") : (g.notes ?? g.description ?? "");
      return `- ${g.name ?? "Group"}: ${(g.components ?? []).join(", ")}${notes ? `. ${notes}` : ""}`;
    });
    parts.push(`## Component groups\n${lines.join("\n")}`);
  }

  const rules = input.options?.additionalRules?.filter((r) => r.trim()) ?? [];
  if (rules.length) parts.push(`## Rules\n${rules.map((r) => `- ${r}`).join("\n")}`);

  const candidates = [...(input.libraryExamples ?? []), ...(input.options?.examples ?? [])];
  const examples = candidates.filter((ex) => ex.trim() && (input.checkExample?.(ex) ?? true));
  if (examples.length) parts.push(`## Examples\n${examples.map((ex) => ex.trim()).join("\n\n---\n\n")}`);

  if (input.instructions?.trim()) parts.push(input.instructions.trim());
  return parts.join("\n\n");
}
