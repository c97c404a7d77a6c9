// Library (the chatLibrary JSON) → the complete system prompt of a managed-UI request with the
// application's own library (a built-in library is prompted by ./builtin.ts).
// Pure: the example check is passed in, so this module needs neither the parser nor I/O.
import { SYNTAX_RULES } from "./syntax.ts";
import { signatures } from "./signatures.ts";

export { SYNTAX_RULES } from "./syntax.ts";
export { signature, signatures, typeOf } from "./signatures.ts";
export { assembleBuiltinPrompt, type BuiltinPrompt, type BuiltinPromptOptions } from "./builtin.ts";

export interface PromptOptions {
  preamble?: string;
  additionalRules?: string[];
  examples?: string[];
}

export interface PromptInput {
  library: Record<string, unknown>;
  options?: PromptOptions;
  /** The block's free-form instructions (after its JSON line), appended last. */
  instructions?: string;
  /** Only examples for which this holds are shown: a wrong example teaches wrong programs. */
  checkExample?: (program: string) => boolean;
}

const DEFAULT_PREAMBLE =
  "You are an assistant that answers with generative UI: instead of prose, you write a small program that the application renders as interface components.";

/** A group as the library may write it: any JSON in each field (the compiler does not read groups). */
interface Group {
  name?: unknown;
  components?: unknown;
  notes?: unknown;
  description?: unknown;
}

/** A group field as prompt text, whatever JSON it holds: lists joined by `sep`, objects as JSON. */
function text(value: unknown, sep: string): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value))
    return value
      .map((v) => text(v, sep))
      .filter((t) => t !== "")
      .join(sep);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function assembleSystemPrompt(input: PromptInput): string {
  const lib = input.library;
  const defs = (lib.schema as { $defs?: Record<string, Record<string, unknown>> } | undefined)?.$defs ?? {};
  const parts: string[] = [input.options?.preamble?.trim() || DEFAULT_PREAMBLE];
  parts.push(`## The UI language\n${SYNTAX_RULES}`);
  const root = typeof lib.root === "string" ? `\nThe \`root\` statement must be a ${lib.root}(...).` : "";
  parts.push(
    `## Components\nSignatures list arguments in positional order; \`?\` marks optional ones, \`= x\` a default.${root}\n${signatures(defs).join("\n")}`,
  );

  const groups = (Array.isArray(lib.componentGroups) ? lib.componentGroups : []).filter((g): g is Group => g !== null && typeof g === "object");
  if (groups.length) {
    const lines = groups.map((g) => {
      const notes = text(g.notes ?? g.description, " ");
      return `- ${text(g.name, " ") || "Group"}: ${text(g.components, ", ")}${notes ? `. ${notes}` : ""}`;
    });
    parts.push(`## Component groups\n${lines.join("\n")}`);
  }

  const rules = input.options?.additionalRules?.filter((r) => r.trim()) ?? [];
  if (rules.length) parts.push(`## Rules\n${rules.map((r) => `- ${r}`).join("\n")}`);

  const candidates = input.options?.examples ?? [];
  const examples = candidates.filter((ex) => ex.trim() && (input.checkExample?.(ex) ?? true));
  if (examples.length) parts.push(`## Examples\n${examples.map((ex) => ex.trim()).join("\n\n---\n\n")}`);

  if (input.instructions?.trim()) parts.push(input.instructions.trim());
  return parts.join("\n\n");
}
