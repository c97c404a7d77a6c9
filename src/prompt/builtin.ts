// The system prompt of a built-in library: the pieces its package's own prompt() is made of
// (stored by scripts/generate-libraries.ts), put together in that package's order, with the
// request's options merged in where the package puts them. With no options the result is, byte
// for byte, what the package's prompt() writes (the generator and test/library check this).

export interface BuiltinComponentSignature {
  signature: string;
  description?: string;
}

export interface BuiltinPromptGroup {
  name: string;
  components: string[];
  notes?: string[];
}

export interface BuiltinPrompt {
  preamble: string;
  /** The language's rules as the package states them (its "## Syntax Rules" section). */
  rules: string;
  /** Lines after the signatures heading that explain how to read them. */
  signatureNotes: string[];
  /** Every component's signature line, in the library's order. */
  components: Record<string, BuiltinComponentSignature>;
  /** Groups the signatures are listed under (none: one flat list). */
  groups: BuiltinPromptGroup[];
  /** The sections between the signatures and the examples (actions, streaming order), whole. */
  guidance: string[];
  /** The package's own example programs. */
  examples: string[];
  /** The closing sections (important rules, final verification), whole. */
  closing: string;
  /** The package's own extra rules, listed last. */
  additionalRules: string[];
}

export interface BuiltinPromptOptions {
  preamble?: string;
  additionalRules?: string[];
  examples?: string[];
}

function line(c: BuiltinComponentSignature): string {
  return c.description ? `${c.signature} — ${c.description}` : c.signature;
}

function signatureSection(p: BuiltinPrompt): string {
  const lines = ["## Component Signatures", "", ...p.signatureNotes];
  if (p.groups.length === 0) {
    lines.push("");
    for (const c of Object.values(p.components)) lines.push(line(c));
    return lines.join("\n");
  }
  const listed = new Set<string>();
  for (const g of p.groups) {
    lines.push("", `### ${g.name}`);
    for (const name of g.components) {
      const c = p.components[name];
      if (!c || listed.has(name)) continue;
      listed.add(name);
      lines.push(line(c));
    }
    lines.push(...(g.notes ?? []));
  }
  const rest = Object.keys(p.components).filter((n) => !listed.has(n));
  if (rest.length) lines.push("", "### Other", ...rest.map((n) => line(p.components[n]!)));
  return lines.join("\n");
}

/**
 * The prompt: the request's preamble replaces the package's; its examples and rules come after
 * the package's own. `instructions` (the config block's free text) goes last.
 */
export function assembleBuiltinPrompt(p: BuiltinPrompt, options: BuiltinPromptOptions = {}, instructions?: string): string {
  const parts = [options.preamble?.trim() ? options.preamble : p.preamble, "", p.rules, "", signatureSection(p)];
  for (const section of p.guidance) parts.push("", section);
  const examples = [...p.examples, ...(options.examples ?? []).filter((e) => e.trim())];
  if (examples.length) {
    parts.push("", "## Examples", "");
    for (const e of examples) parts.push(e, "");
  }
  parts.push(p.closing);
  const rules = [...p.additionalRules, ...(options.additionalRules ?? []).filter((r) => r.trim())];
  if (rules.length) parts.push("", ...rules.map((r) => `- ${r}`));
  const prompt = parts.join("\n");
  return instructions?.trim() ? `${prompt}\n\n${instructions.trim()}` : prompt;
}
