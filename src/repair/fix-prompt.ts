// Builds the fixing model's prompt (Autofix attempt 2). Pure: library JSON, context, program and
// the errors the sanitizer could not fix in; chat messages out.
import type { FixError } from "../lang/types.ts";

export interface PromptTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface FixPromptInput {
  /** The chatLibrary JSON ({ root?, schema: { $defs } }). */
  library: Record<string, unknown>;
  /** Context turns of the conversation, oldest first. */
  context: { role: string; text: string }[];
  /** The program only (no fence, no envelope). */
  program: string;
  errors: FixError[];
  /** Free instructions from the config block, if any. */
  instructions?: string;
}

type JsonSchema = Record<string, unknown>;

/** `Name(prop: type, optional?: type)` per component, in positional order. */
export function componentSignatures(library: Record<string, unknown>): string[] {
  const defs = ((library.schema as JsonSchema | undefined)?.$defs ?? {}) as Record<string, JsonSchema>;
  return Object.entries(defs).map(([name, def]) => {
    const props = (def.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((def.required as string[] | undefined) ?? []);
    const args = Object.entries(props).map(([p, s]) => `${p}${required.has(p) ? "" : "?"}: ${typeText(s)}`);
    return `${name}(${args.join(", ")})`;
  });
}

function typeText(s: JsonSchema, depth = 0): string {
  if (depth > 3) return "any";
  if (typeof s.$ref === "string") return s.$ref.replace("#/$defs/", "");
  if (Array.isArray(s.enum)) return s.enum.map((e) => JSON.stringify(e)).join(" | ");
  const alts = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alts)) return alts.map((a) => typeText(a, depth + 1)).join(" | ");
  if (s.type === "array") return `${typeText((s.items ?? {}) as JsonSchema, depth + 1)}[]`;
  if (Array.isArray(s.type)) return s.type.join(" | ");
  return typeof s.type === "string" ? s.type : "any";
}

const RULES = `You repair programs written in a line-oriented UI language.
Each line is one statement: name = expression. Components are called with positional arguments only,
in the order listed below. The statement named root is the top of the page; every other component or
value statement must be reachable from root. Query(...) and Mutation(...) may only be the whole right
side of a statement.
Answer with the complete corrected program and nothing else: no explanation, no Markdown fence.
Change only what is needed to fix the listed errors; keep every other line exactly as it was.`;

export function buildFixPrompt(input: FixPromptInput): PromptTurn[] {
  const root = typeof input.library.root === "string" ? `\nThe root statement must be a ${input.library.root}.` : "";
  const system = [
    RULES + root,
    "Components:\n" + componentSignatures(input.library).join("\n"),
    input.instructions?.trim() ? `Application instructions:\n${input.instructions.trim()}` : "",
  ]
    .filter(Boolean)
    .join("\n\n");

  const context = input.context.length
    ? "The conversation that led to this program:\n" + input.context.map((t) => `[${t.role}] ${t.text}`).join("\n") + "\n\n"
    : "";
  const errors = input.errors.map((e) => `- ${e.code}${e.statementId ? ` in ${e.statementId}` : ""}${e.path ? ` at ${e.path}` : ""}: ${e.message}`).join("\n");
  const user = `${context}Program to repair:\n${input.program}\n\nErrors found by the checker:\n${errors || "- (none listed)"}`;
  return [
    { role: "system", content: system },
    { role: "user", content: user },
  ];
}
