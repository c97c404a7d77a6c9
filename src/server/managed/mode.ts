// Which of the modes of spec 4.2 a request is in. Managed UI: the first system message is a config
// block; the service then sends its own assembled system prompt in the block's place. Anything
// else is passthrough (plain text, or self-hosted UI whose prompt the application wrote itself).
import { isConfigBlock } from "../../client/config-block.ts";
import type { Library } from "../../lang/index.ts";
import type { ChatMessage } from "../../providers/types.ts";
import { assembleSystemPrompt } from "../../prompt/index.ts";
import { readConfig, type ResolvedConfig } from "./library.ts";
import { isValid, parse } from "../../lang/index.ts";
import { assembleBuiltinPrompt } from "../../prompt/builtin.ts";

export type Mode =
  | { kind: "passthrough"; messages: ChatMessage[] }
  | { kind: "managed"; messages: ChatMessage[]; library: Library; source: Record<string, unknown> };

function text(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((p) => (p.type === "text" ? (p as { text: string }).text : "")).join("");
}

export async function detectMode(messages: ChatMessage[]): Promise<Mode> {
  const i = messages.findIndex((m) => m.role === "system" || m.role === "developer");
  const first = i < 0 ? null : messages[i]!;
  const content = first ? text(first.content) : "";
  if (!first || !isConfigBlock(content)) return { kind: "passthrough", messages };
  const read = readConfig(content, `messages[${i}].content`);
  const out = messages.slice();
  out[i] = { role: "system", content: promptOf(read) };
  return { kind: "managed", messages: out, library: read.library, source: read.source };
}

// The prompt of each config block, kept with the block's cached reading (readConfig gives the same
// object for the same text, and lets it go when the block leaves its cache). Assembling it, its
// examples parsed and checked, took 35 µs of every managed request with the 53-component library.
const prompts = new WeakMap<ResolvedConfig, string>();
let assemblies = 0;

/** How many system prompts were assembled (for tests: once per distinct block). */
export function promptAssemblies(): number {
  return assemblies;
}

function promptOf(read: ResolvedConfig): string {
  let prompt = prompts.get(read);
  if (prompt === undefined) {
    assemblies++;
    const checkExample = (program: string) => isValid(parse(program, read.library));
    const options = read.block.systemPromptOptions;
    // A built-in library is prompted as its package prompts it; the request's examples still have
    // to be valid (a wrong example teaches wrong programs).
    prompt = read.prompt
      ? assembleBuiltinPrompt(read.prompt, { ...options, examples: options?.examples?.filter(checkExample) }, read.block.instructions)
      : assembleSystemPrompt({ library: read.source, options, instructions: read.block.instructions, checkExample });
    prompts.set(read, prompt);
  }
  return prompt;
}
