// POST /responses/compact and /responses/input_tokens. Compaction asks the model for a summary of
// the whole context and seals it (AES-GCM under the master key, bound to the organization) into a
// `compaction` item: opaque to the client, opened again when the item comes back as input.
import type { Organization } from "../../../db/index.ts";
import { complete } from "../../../providers/call.ts";
import type { ChatMessage } from "../../../providers/types.ts";
import { newId } from "../../../responses/ids.ts";
import { responseUsage } from "../../../responses/object.ts";
import type { CompactBody, CreateBody, InputTokensBody } from "../../../responses/schema.ts";
import type { AppDeps } from "../../context.ts";
import { HttpError } from "../../errors.ts";
import { COMPACTION_SEAL, prepareTurn } from "./prepare.ts";
import { providerHttpError } from "../../provider-target.ts";

const SUMMARY_REQUEST =
  "Write a summary of the conversation above from which it can be continued without it: keep every fact, name, number, " +
  "decision, code word, open question and the user's last request. Answer with the summary only.";

export async function compactTurn(deps: AppDeps, org: Organization, body: CompactBody) {
  const t = await prepareTurn(deps, org, { ...body, tools: undefined, tool_choice: undefined, text: undefined } as CreateBody);
  const chat = {
    ...t.chat,
    stream: false,
    stream_options: undefined,
    messages: [...t.chat.messages, { role: "user", content: SUMMARY_REQUEST } as ChatMessage],
  };
  let completion;
  try {
    completion = await complete(t.provider!.adapter, chat, t.provider!.target);
  } catch (e) {
    throw providerHttpError(e) ?? e;
  }
  const summary = completion.choices[0]?.message.content ?? "";
  if (!summary.trim()) throw new HttpError(502, "the model returned an empty summary", { code: "upstream_error" });
  const item = { type: "compaction", id: newId("compaction"), encrypted_content: await deps.keys.seal(org.id, COMPACTION_SEAL, summary) };
  const u = completion.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  return { output: [item], usage: responseUsage(u) };
}

/** Characters per token of English text with the common tokenizers, and a flat cost per image. */
const CHARS_PER_TOKEN = 4;
const TOKENS_PER_IMAGE = 85;
const TOKENS_PER_MESSAGE = 4;

/** An estimate of the input tokens of a request, as the model would be sent it. */
export async function estimateTokens(deps: AppDeps, org: Organization, body: InputTokensBody): Promise<number> {
  const t = await prepareTurn(deps, org, { ...body, model: body.model ?? "openai/estimate" } as CreateBody, undefined, { provider: false });
  let chars = JSON.stringify(t.chat.tools ?? []).length;
  let tokens = 0;
  for (const m of t.chat.messages) {
    tokens += TOKENS_PER_MESSAGE;
    if (typeof m.content === "string") chars += m.content.length;
    else
      for (const p of m.content ?? []) {
        if (p.type === "text") chars += (p as { text: string }).text.length;
        else tokens += TOKENS_PER_IMAGE;
      }
    for (const c of m.tool_calls ?? []) chars += c.function.name.length + c.function.arguments.length;
  }
  return tokens + Math.ceil(chars / CHARS_PER_TOKEN);
}
