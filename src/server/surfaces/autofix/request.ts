// Autofix request at the edge: the body schema and the rules of spec 2.1, 4.1 and 8
// that split `messages` into config block, context turns and the generation to fix.
import * as v from "valibot";
import { isConfigBlock, type ConfigBlock } from "../../../client/config-block.ts";
import type { Library } from "../../../lang/index.ts";
import type { ContextTurn } from "../../../repair/autofix.ts";
import { HttpError } from "../../errors.ts";
import { readConfig } from "../../managed/library.ts";

export const LIMITS = { generationChars: 100_000, contextTurns: 20, contextChars: 8_000 } as const;

const Part = v.looseObject({ type: v.string(), text: v.optional(v.unknown()) });
const Message = v.looseObject({
  role: v.picklist(["system", "developer", "user", "assistant", "tool", "function"]),
  content: v.optional(v.nullable(v.union([v.string(), v.array(Part)]))),
});
export const AutofixBody = v.looseObject({
  messages: v.array(Message),
  model: v.optional(v.nullable(v.string())),
  stream: v.optional(v.nullable(v.boolean())),
});
export type AutofixBody = v.InferOutput<typeof AutofixBody>;
type Message = v.InferOutput<typeof Message>;

export interface AutofixRequest {
  config: ConfigBlock;
  /** The block's library, compiled (once per distinct block: see library.ts). */
  library: Library;
  source: Record<string, unknown>;
  context: ContextTurn[];
  generation: string;
}

/** Only text is read: a string content, or the text parts of a part list joined in order. */
export function messageText(m: Message): string {
  if (typeof m.content === "string") return m.content;
  if (!m.content) return "";
  return m.content.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join("");
}

/**
 * Characters as people count them: an emoji or a CJK extension character is one, not the two
 * UTF-16 units that String.length counts. A lone surrogate counts as one.
 */
function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const bad = (message: string, param: string) => new HttpError(400, message, { param });

export function interpretAutofixRequest(body: AutofixBody): AutofixRequest {
  if (body.stream === true) throw bad("stream is not supported by autofix", "stream");
  const { messages } = body;
  if (messages.length < 2) {
    throw bad("messages must hold the config block system turn first and the assistant generation last", "messages");
  }

  const first = messages[0];
  const firstText = messageText(first);
  if (first.role !== "system" || !isConfigBlock(firstText)) {
    throw bad("the first message must be a system turn holding the library config block (]]>openui:config or ]]>service:config)", "messages[0]");
  }
  const config = readConfig(firstText, "messages[0].content");

  const last = messages[messages.length - 1];
  const generation = messageText(last);
  const lastParam = `messages[${messages.length - 1}]`;
  if (last.role !== "assistant" || generation.trim() === "") {
    throw bad("the last message must be an assistant turn whose text is the generation to fix", lastParam);
  }
  // A text has at least as many UTF-16 units as code points: only a longer one needs counting.
  const generationChars = generation.length > LIMITS.generationChars ? codePoints(generation) : generation.length;
  if (generationChars > LIMITS.generationChars) {
    throw bad(`the generation is ${generationChars} characters (Unicode code points); the limit is ${LIMITS.generationChars}`, lastParam);
  }

  // Context: text of user/assistant/system/developer turns; tool turns, non-text parts and further
  // config blocks are dropped before counting. History is never trimmed to fit: over a limit is a 400.
  const context: ContextTurn[] = [];
  for (const m of messages.slice(1, -1)) {
    if (m.role === "tool" || m.role === "function") continue;
    const text = messageText(m);
    if (text === "" || isConfigBlock(text)) continue;
    context.push({ role: m.role, text });
  }
  if (context.length > LIMITS.contextTurns) {
    throw bad(`the context has ${context.length} usable turns; the limit is ${LIMITS.contextTurns}`, "messages");
  }
  const units = context.reduce((n, t) => n + t.text.length, 0);
  const chars = units > LIMITS.contextChars ? context.reduce((n, t) => n + codePoints(t.text), 0) : units;
  if (chars > LIMITS.contextChars) {
    throw bad(`the context has ${chars} characters (Unicode code points) of text; the limit is ${LIMITS.contextChars}`, "messages");
  }
  return { config: config.block, library: config.library, source: config.source, context, generation };
}
