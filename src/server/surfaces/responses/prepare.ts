// A responses.create body → everything a turn needs before the provider is called: the history it
// continues (a previous_response_id chain, a conversation, or a WebSocket's store:false cache),
// its own input with references resolved, the chat request (managed UI prompt in place), the
// provider to call and the price. Every refusal happens here, before any credit is held.
import {
  allConversationItems,
  chainItems,
  findConversation,
  findItemInOrganization,
  findResponseItem,
  responseState,
  type Db,
  type Organization,
} from "../../../db/index.ts";
import type { Library } from "../../../lang/index.ts";
import { UnsupportedRequestError, type ChatMessage, type ChatRequest } from "../../../providers/types.ts";
import { newId } from "../../../responses/ids.ts";
import { functionTools, settingsOf, type ResponseSettings } from "../../../responses/object.ts";
import type { CreateBody, ToolChoiceIn } from "../../../responses/schema.ts";
import { normalizeInput, toChatRequest } from "../../../responses/to-chat.ts";
import type { CompactionItem, FunctionToolOut, Item } from "../../../responses/types.ts";
import type { Keyring } from "../../crypto/keyring.ts";
import type { AppDeps } from "../../context.ts";
import { detectMode } from "../../managed/mode.ts";
import { HttpError } from "../../errors.ts";
import { checkApprovals } from "../../hosted/mcp/tool.ts";
import { hostedConfig, hostedToolsOf, type HostedSetup } from "../../hosted/registry.ts";
import { providerHttpError, resolveProvider, type ProviderCall } from "../../provider-target.ts";
import type { ToolLoop } from "./tool-loop.ts";

export interface PreparedTurn {
  org: Organization;
  body: CreateBody;
  settings: ResponseSettings;
  /** The request's own input items, as stored with the response. */
  input: Item[];
  /** History then input: what a store:false continuation on the same socket starts from. */
  context: Item[];
  chat: ChatRequest;
  /** Null only when asked not to resolve it (the token estimate calls no model). */
  provider: ProviderCall | null;
  /** The library when the instructions are a config block (managed UI), else null. */
  library: Library | null;
  conversationId: string | null;
  /** The application's user, when a frontend token asked: only that user's conversations and responses are reached. */
  userId: string | null;
  /** The request's hosted tools, checked; null when it has none (or they were not asked for). */
  hosted: HostedSetup | null;
  /** The chat request of a later model call of the turn: this turn's items so far, the hosted tools' declarations. */
  chatFor(round: RoundChat): Promise<ChatRequest>;
  /** The hosted-tool loop, once the turn's first model call is being opened (run.ts). */
  loop?: ToolLoop;
}

export interface RoundChat {
  /** Items this turn has made so far (its output). */
  output: Item[];
  /** Hosted tools' function declarations, after the application's own. */
  hosted: FunctionToolOut[];
  /** The request's tool_choice (first call), or "auto" / "none" (later calls). */
  toolChoice: ToolChoiceIn | undefined;
  resultText?: (id: string) => string | undefined;
}

/** store:false responses a WebSocket may continue: id → the items up to and including its output. */
export type TurnCache = Map<string, Item[]>;

export const COMPACTION_SEAL = "compaction";

export async function prepareTurn(
  deps: Pick<AppDeps, "db" | "config" | "keys">,
  org: Organization,
  body: CreateBody,
  cache?: TurnCache,
  opts: { provider?: boolean; userId?: string | null } = {},
): Promise<PreparedTurn> {
  const { db } = deps;
  const userId = opts.userId ?? null;
  if (body.conversation != null && body.previous_response_id != null) {
    throw new HttpError(400, "conversation and previous_response_id cannot be used together: a conversation already carries its history", {
      param: "conversation",
    });
  }
  if (body.background && body.store === false) {
    throw new HttpError(400, "background responses must be stored: background and store:false cannot be combined", { param: "background" });
  }
  const provider = opts.provider !== false ? await resolveProvider(deps, org.id, body.model, body.byok) : null;

  let history: Item[] = [];
  let conversationId: string | null = null;
  if (body.previous_response_id != null) {
    history = await previousItems(db, org, body.previous_response_id, cache, userId);
  } else if (body.conversation != null) {
    conversationId = typeof body.conversation === "string" ? body.conversation : body.conversation.id;
    if (!(await findConversation(db, { organizationId: org.id, userId }, conversationId))) {
      throw new HttpError(404, `no conversation ${conversationId}`, { param: "conversation", code: "conversation_not_found" });
    }
    history = await allConversationItems(db, conversationId);
  }

  const input = await resolveReferences(db, org.id, normalizeInput(body.input), history, userId !== null);
  const context = [...history, ...input];
  checkApprovals(input, context, body.tools);
  // Hosted tools are checked and set up for a turn that calls a model (not for a token estimate).
  const hosted = opts.provider !== false ? await hostedToolsOf(body.tools, hostedConfig(deps)) : null;
  const summaries = await openCompactions(deps.keys, org.id, context);
  const id = newId("response");
  const settings = settingsOf(body, id, Math.floor(Date.now() / 1000), conversationId);
  const build = async (round: RoundChat) => {
    let chat: ChatRequest;
    try {
      chat = toChatRequest([...context, ...round.output], {
        model: body.model,
        instructions: body.instructions,
        tools: [...functionTools(body), ...round.hosted],
        toolChoice: round.toolChoice ?? undefined,
        parallelToolCalls: body.parallel_tool_calls,
        temperature: body.temperature,
        topP: body.top_p,
        maxOutputTokens: body.max_output_tokens,
        format: settings.text.format,
        user: body.safety_identifier ?? body.user,
        summaryOf: (item) => summaries.get(item.encrypted_content)!,
        resultText: round.resultText,
      });
    } catch (e) {
      if (e instanceof UnsupportedRequestError) throw new HttpError(400, e.message, { param: e.param, code: "invalid_request" });
      throw e;
    }
    if (chat.messages.length === 0) throw new HttpError(400, "input is empty: send a string or at least one input item", { param: "input" });
    const mode = await detectMode(chat.messages as ChatMessage[]);
    chat.messages = mode.messages;
    return { chat, mode };
  };
  const chatFor = async (round: RoundChat) => (await build(round)).chat;
  const { chat, mode } = await build({ output: [], hosted: [], toolChoice: body.tool_choice ?? undefined });
  // What this provider cannot take is refused before a background response is queued, as the
  // foreground's openTurn refuses it (a background run would find it only after "queued").
  if (provider && body.background) {
    try {
      provider.adapter.toRequest(chat, provider.target, true);
    } catch (e) {
      throw providerHttpError(e) ?? e;
    }
  }
  return {
    org,
    body,
    settings,
    input,
    context,
    chat,
    provider,
    library: mode.kind === "managed" ? mode.library : null,
    conversationId,
    userId,
    hosted,
    chatFor,
  };
}

async function previousItems(db: Db, org: Organization, id: string, cache: TurnCache | undefined, userId: string | null): Promise<Item[]> {
  const cached = cache?.get(id);
  if (cached) return cached;
  const notFound = new HttpError(400, `Previous response with id '${id}' not found.`, { param: "previous_response_id", code: "previous_response_not_found" });
  const prev = await responseState(db, org.id, id);
  // A frontend token continues only its own user's responses: any other is a 404, as if it never existed.
  if (userId !== null && prev?.user_id !== userId) throw new HttpError(404, `no response ${id}`, { param: "previous_response_id", code: "response_not_found" });
  if (!prev) throw notFound;
  if (prev.status === "queued" || prev.status === "in_progress") {
    throw new HttpError(400, `previous response ${id} is still ${prev.status}: continue it once it has ended`, { param: "previous_response_id" });
  }
  return chainItems(db, org.id, id);
}

/** item_reference → the item it names: from the history first, else any stored item of the organization (not for a token's user). */
async function resolveReferences(db: Db, orgId: number, items: ReturnType<typeof normalizeInput>, history: Item[], historyOnly: boolean): Promise<Item[]> {
  const out: Item[] = [];
  for (const [i, item] of items.entries()) {
    if (item.type !== "item_reference") {
      out.push(item);
      continue;
    }
    const found =
      history.find((h) => h.id === item.id) ??
      (historyOnly ? undefined : ((await findResponseItem(db, orgId, item.id)) ?? (await findItemInOrganization(db, orgId, item.id))));
    if (!found) throw new HttpError(400, `item_reference: no stored item ${item.id}`, { param: `input[${i}].id`, code: "item_not_found" });
    out.push(found);
  }
  return out;
}

/** The summaries sealed in compaction items; a blob that does not open is a 400. */
async function openCompactions(keys: Keyring, orgId: number, items: Item[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const item of items) {
    if (item.type !== "compaction" || out.has(item.encrypted_content)) continue;
    const text = await keys.open(orgId, COMPACTION_SEAL, (item as CompactionItem).encrypted_content);
    if (text === null) {
      throw new HttpError(400, "a compaction item cannot be opened: it was made by another organization or server, or it was altered", {
        param: "input",
        code: "invalid_compaction",
      });
    }
    out.set(item.encrypted_content, text);
  }
  return out;
}
