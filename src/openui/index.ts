// `@tessera-ui/tessera/openui`: what OpenUI's ChatProvider (@openuidev/react-headless, @openuidev/react-ui)
// takes, talking to Tessera directly from the browser with a frontend token:
//   llm:     tesseraLLM(...)      a ChatLLM over Responses (stored in the thread's conversation),
//            read by OpenUI's own openAIResponsesAdapter
//   storage: tesseraStorage(...)  { thread: ThreadStorage over Conversations (threads are the
//            conversations of the token's user; titles live in their metadata), artifact:
//            ArtifactStorage over stored Artifacts (the token's user's slide decks and reports) }
// Each is configured by the service's base URL and a function that returns a fresh token (the
// application's own route, which mints one with its API key): fetched when needed, again before
// it expires or after a 401, one fetch at a time.
import {
  openAIResponsesAdapter,
  type Artifact,
  type ArtifactStorage,
  type ArtifactSummary,
  type ChatLLM,
  type ChatStorage,
  type Message,
  type Thread,
  type ThreadStorage,
  type UserMessage,
} from "@openuidev/react-headless";
import { tokenSource, type TokenAnswer, type TokenSource } from "./tokens.ts";

export { tokenSource, REFRESH_SKEW_SECONDS, type TokenAnswer, type TokenSource } from "./tokens.ts";

export interface TesseraConnection {
  /** The service's origin (`https://tessera.example.com`); a trailing /v1 or /v1/embed is accepted. */
  baseUrl: string;
  /** Returns a fresh frontend token (a string, or `{token, expires_at}` with expires_at in Unix seconds). */
  token: (() => Promise<TokenAnswer>) | TokenSource;
  fetch?: typeof fetch;
}

export interface TesseraLLMOptions extends TesseraConnection {
  /** `{provider}/{model}`, one the token may use. */
  model: string;
  /** The system prompt: for managed UI, the config block (@tessera-ui/tessera/client's libraryConfig()). */
  instructions?: string;
}

const DEFAULT_TITLE = "New conversation";
const TITLE_LENGTH = 60;

interface Connected {
  request(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response>;
  json<T>(method: string, path: string, body?: unknown): Promise<T>;
}

function connect(c: TesseraConnection): Connected {
  const base = c.baseUrl.replace(/\/+$/, "").replace(/\/v1(\/embed)?$/, "");
  const tokens = typeof c.token === "function" ? tokenSource(c.token) : c.token;
  const doFetch = c.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const request = async (method: string, path: string, body?: unknown, signal?: AbortSignal) => {
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.get();
      const res = await doFetch(base + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      // A token revoked or expired early: a new one, once.
      if (res.status !== 401 || attempt > 0) return res;
      tokens.invalidate(token);
    }
  };
  return {
    request,
    async json<T>(method: string, path: string, body?: unknown) {
      const res = await request(method, path, body);
      if (!res.ok) {
        const detail = await res.json().then(
          (b: { error?: { message?: string } }) => b?.error?.message,
          () => undefined,
        );
        throw new Error(`tessera: ${method} ${path} failed: ${res.status}${detail ? ` ${detail}` : ""}`);
      }
      return (await res.json()) as T;
    },
  };
}

/** The text of a user message's content (its text parts joined). */
function textOf(content: UserMessage["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** A user message as a Responses input item. */
function toInput(message: UserMessage) {
  if (typeof message.content === "string") return { type: "message", role: "user", content: message.content };
  const content = message.content.flatMap((part): Record<string, string>[] => {
    if (part.type === "text") return [{ type: "input_text", text: part.text }];
    if (part.type === "image" && "source" in part) {
      const src = part.source;
      return [{ type: "input_image", image_url: src.type === "url" ? src.value : `data:${src.mimeType};base64,${src.value}` }];
    }
    return [];
  });
  return { type: "message", role: "user", content };
}

/**
 * A ChatLLM over Responses: each turn sends the thread's new user messages to
 * POST /v1/embed/responses with the thread as its conversation, streamed (Tessera repairs
 * managed UI line by line as it streams), and OpenUI's openAIResponsesAdapter reads the events.
 */
export function tesseraLLM(opts: TesseraLLMOptions): ChatLLM {
  const api = connect(opts);
  return {
    streamProtocol: openAIResponsesAdapter(),
    send({ threadId, messages, signal }) {
      // The conversation holds what came before: only what the user added since the last answer goes.
      let from = messages.length;
      while (from > 0 && messages[from - 1].role === "user") from--;
      const input = (messages.slice(from) as UserMessage[]).map(toInput);
      const body: Record<string, unknown> = { model: opts.model, input, conversation: threadId, stream: true, store: true };
      if (opts.instructions !== undefined) body.instructions = opts.instructions;
      return api.request("POST", "/v1/embed/responses", body, signal);
    },
  };
}

interface ConversationJson {
  id: string;
  created_at: number;
  metadata?: Record<string, string> | null;
  title?: string | null;
}
interface ListJson<T> {
  data: T[];
  has_more: boolean;
  last_id: string | null;
}
type ItemJson = {
  id: string;
  type: string;
  role?: string;
  content?: { type: string; text?: string }[];
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: unknown;
};

const toThread = (c: ConversationJson): Thread => ({ id: c.id, title: c.title ?? c.metadata?.title ?? DEFAULT_TITLE, createdAt: c.created_at * 1000 });

/** A conversation item as the message OpenUI shows (null: not shown). */
function toMessage(item: ItemJson): Message | null {
  if (item.type === "message") {
    const text = (item.content ?? []).map((p) => p.text ?? "").join("");
    if (item.role === "user") return { id: item.id, role: "user", content: text };
    if (item.role === "assistant") return { id: item.id, role: "assistant", content: text };
    if (item.role === "system" || item.role === "developer") return { id: item.id, role: item.role, content: text } as Message;
    return null;
  }
  if (item.type === "function_call") {
    return {
      id: item.id,
      role: "assistant",
      toolCalls: [{ id: item.call_id ?? item.id, type: "function", function: { name: item.name ?? "", arguments: item.arguments ?? "" } }],
    };
  }
  if (item.type === "function_call_output") {
    return {
      id: item.id,
      role: "tool",
      toolCallId: item.call_id ?? "",
      content: typeof item.output === "string" ? item.output : JSON.stringify(item.output ?? ""),
    };
  }
  return null;
}

/** How many items a thread is read in at most (pages of 100). */
const MAX_ITEM_PAGES = 50;

/** Threads over Conversations: the token's user's conversations, newest first, 20 a page. */
export function tesseraThreadStorage(c: TesseraConnection): ThreadStorage {
  const api = connect(c);
  return {
    async listThreads(cursor) {
      const page = await api.json<ListJson<ConversationJson>>("GET", `/v1/conversations?limit=20${cursor ? `&after=${encodeURIComponent(cursor)}` : ""}`);
      return { threads: page.data.map(toThread), nextCursor: page.has_more && page.last_id ? page.last_id : undefined };
    },
    async createThread(first) {
      const title = textOf(first.content).trim().slice(0, TITLE_LENGTH) || DEFAULT_TITLE;
      return toThread(await api.json<ConversationJson>("POST", "/v1/conversations", { metadata: { title } }));
    },
    async getMessages(threadId) {
      const out: Message[] = [];
      let after = "";
      for (let i = 0; i < MAX_ITEM_PAGES; i++) {
        const page = await api.json<ListJson<ItemJson>>(
          "GET",
          `/v1/conversations/${encodeURIComponent(threadId)}/items?order=asc&limit=100${after ? `&after=${encodeURIComponent(after)}` : ""}`,
        );
        for (const item of page.data) {
          const m = toMessage(item);
          if (m) out.push(m);
        }
        if (!page.has_more || !page.last_id) break;
        after = page.last_id;
      }
      return out;
    },
    async updateThread(thread) {
      const row = await api.json<ConversationJson>("POST", `/v1/conversations/${encodeURIComponent(thread.id)}`, {
        metadata: { title: thread.title.slice(0, 512) },
      });
      return toThread(row);
    },
    async deleteThread(id) {
      await api.json("DELETE", `/v1/conversations/${encodeURIComponent(id)}`);
    },
  };
}

interface ArtifactJson {
  id: string;
  name?: string | null;
  kind: string;
  conversation_id: string | null;
  created_at: number;
  updated_at?: number | null;
  content?: string;
}

const toSummary = (a: ArtifactJson): ArtifactSummary => ({
  id: a.id,
  title: a.name ?? a.id,
  type: a.kind,
  threadId: a.conversation_id ?? "",
  updatedAt: 1000 * (a.updated_at ?? a.created_at),
});

/** Artifacts over /v1/artifacts: the token's user's slide decks and reports, newest first. */
export function tesseraArtifactStorage(c: TesseraConnection): ArtifactStorage {
  const api = connect(c);
  return {
    async list(params = {}) {
      const q = new URLSearchParams();
      if (params.name) q.set("name", params.name);
      for (const t of params.type ?? []) q.append("kind", t);
      if (params.cursor) q.set("after", params.cursor);
      q.set("limit", String(params.limit ?? 20));
      const page = await api.json<ListJson<ArtifactJson>>("GET", `/v1/artifacts?${q}`);
      return { artifacts: page.data.map(toSummary), nextCursor: page.has_more && page.last_id ? page.last_id : undefined };
    },
    async get(id): Promise<Artifact> {
      const a = await api.json<ArtifactJson>("GET", `/v1/artifacts/${encodeURIComponent(id)}`);
      return { ...toSummary(a), content: a.content ?? "" };
    },
    async update({ id, content }) {
      const body = { content: typeof content === "string" ? content : JSON.stringify(content) };
      return toSummary(await api.json<ArtifactJson>("POST", `/v1/artifacts/${encodeURIComponent(id)}`, body));
    },
  };
}

/** ChatProvider's `storage`: threads over Conversations, artifacts over Artifacts. */
export function tesseraStorage(c: TesseraConnection): ChatStorage {
  return { thread: tesseraThreadStorage(c), artifact: tesseraArtifactStorage(c) };
}

/** Both, sharing one token source (one fetch of a token for the model turn and the thread calls). */
export function tesseraChat(opts: TesseraLLMOptions): { llm: ChatLLM; storage: ChatStorage } {
  const token = typeof opts.token === "function" ? tokenSource(opts.token) : opts.token;
  return { llm: tesseraLLM({ ...opts, token }), storage: tesseraStorage({ ...opts, token }) };
}
