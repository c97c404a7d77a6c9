// Stand-ins for the paid model providers, on loopback. Each speaks its provider's real wire
// format (OpenAI chat completions, Anthropic Messages, Gemini generateContent, incl. SSE), checks
// the parts of a request that the real one would refuse, and records what arrived.
// Used by the provider and embed tests and by bench/gateway.ts.

export interface Script {
  /** Text of the answer. */
  text?: string;
  /** Tool calls of the answer (arguments as a JSON string). */
  toolCalls?: { id: string; name: string; arguments: string }[];
  /** Answer with this error status (in the provider's error body) instead. */
  status?: number;
  errorMessage?: string;
  /** Break the stream after the first text piece: "close" drops the connection, "event" sends the provider's error event. */
  failMidStream?: "close" | "event";
  /** Finish reason in the provider's own words (e.g. "max_tokens", "MAX_TOKENS", "length"). */
  finish?: string;
  usage?: { input: number; output: number };
  /** Pieces the text is streamed in; default: split in words. */
  pieces?: string[];
  /** Wait this long before answering (a slow model: for background work, cancellation, time-outs). */
  delayMs?: number;
  /** Streamed: wait this long before each frame after the first (a model that writes slowly). */
  pieceDelayMs?: number;
}

export interface FakeCall {
  path: string;
  url: string;
  headers: Record<string, string>;
  body: any;
}

export interface FakeProvider {
  kind: "openai" | "anthropic" | "gemini";
  /** Base URL in the form the matching *_BASE_URL variable takes. */
  url: string;
  calls: FakeCall[];
  /** Answers for the next requests, in order; when empty, `responder` (when set) and then `fallback` answers. */
  queue: Script[];
  /** Computes an answer from the request body (in this provider's wire format) when `queue` is empty; see `agentResponder`. */
  responder?: (body: any) => Script;
  fallback: Script;
  /** When set, a request carrying another key gets the provider's 401. */
  requireKey: string | null;
  /**
   * The model's context window, in characters of the request's conversation (its messages, or
   * contents, and system) as JSON: a longer request gets the provider's own context-length 400.
   */
  contextLimit: number | null;
  stop(): void;
}

const enc = new TextEncoder();
const USAGE = { input: 11, output: 7 };

function words(s: string): string[] {
  const out = s.match(/\S+\s*|\s+/g) ?? [];
  return out.length ? out : [""];
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** Frame delays asked for by the script that answers a request, keyed by the frames array. */
const pieceDelays = new WeakMap<string[], number>();

/** A stream that writes `frames` and then, when `fail` is set, errors out. */
function sse(frames: string[], fail: "close" | null): Response {
  const gap = pieceDelays.get(frames) ?? 0;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      const f = frames.shift();
      if (f !== undefined) {
        if (gap && sent++ > 0) await Bun.sleep(gap);
        ctrl.enqueue(enc.encode(f));
        return;
      }
      if (fail === "close") {
        // Let the bytes so far reach the other side first, as a real dropped connection would.
        await Bun.sleep(20);
        // Bun resets the connection when a response body errors. Erroring with no reason keeps
        // that reset and spares the log the stack trace Bun prints for an Error (expected here).
        ctrl.error();
      } else ctrl.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

function start(kind: FakeProvider["kind"], handle: (fake: FakeProvider, req: Request, url: URL, body: any) => Response): FakeProvider {
  const fake: FakeProvider = {
    kind,
    url: "",
    calls: [],
    queue: [],
    fallback: { text: `Hello from the ${kind} stand-in.` },
    requireKey: null,
    contextLimit: null,
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      let body: any = null;
      try {
        body = await req.json();
      } catch {
        /* checked by the handler */
      }
      fake.calls.push({ path: url.pathname, url: req.url, headers: Object.fromEntries(req.headers), body });
      const res = handle(fake, req, url, body);
      const delay = body && typeof body === "object" ? delays.get(body) : undefined;
      if (delay) await Bun.sleep(delay);
      return res;
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  fake.url = kind === "openai" ? `${base}/v1` : base;
  return fake;
}

/** Delays asked for by the script that answers a request, keyed by the request's parsed body. */
const delays = new WeakMap<object, number>();

function nextScript(f: FakeProvider, body: any): Script {
  const s = f.queue.shift() ?? f.responder?.(body) ?? f.fallback;
  if (s.delayMs && body && typeof body === "object") delays.set(body, s.delayMs);
  return s;
}
const now = () => Math.floor(Date.now() / 1000);

// ---------------------------------------------------------------- OpenAI (and the aggregator)

function openaiError(status: number, message: string, type = "invalid_request_error", code: string | null = null, param: string | null = null): Response {
  return json({ error: { message, type, param, code } }, status);
}

/** The conversation's size as the stand-in counts it against `contextLimit` (null: it fits). */
function overflow(fake: FakeProvider, ...parts: unknown[]): { limit: number; size: number } | null {
  if (fake.contextLimit === null) return null;
  const size = parts.reduce<number>((n, part) => n + (part === undefined ? 0 : JSON.stringify(part).length), 0);
  return size > fake.contextLimit ? { limit: fake.contextLimit, size } : null;
}

export function startFakeOpenAI(): FakeProvider {
  return start("openai", (fake, req, url, body) => {
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") return openaiError(404, `no route ${url.pathname}`);
    const auth = req.headers.get("authorization");
    if (fake.requireKey !== null && auth !== `Bearer ${fake.requireKey}`) return openaiError(401, "Incorrect API key provided", "invalid_api_key");
    if (!body || typeof body.model !== "string" || !Array.isArray(body.messages)) return openaiError(400, "model and messages are required");
    const over = overflow(fake, body.messages);
    if (over) {
      const message = `This model's maximum context length is ${over.limit} tokens. However, your messages resulted in ${over.size} tokens. Please reduce the length of the messages.`;
      return openaiError(400, message, "invalid_request_error", "context_length_exceeded", "messages");
    }
    const s = nextScript(fake, body);
    if (s.status) return openaiError(s.status, s.errorMessage ?? "stand-in error", s.status === 429 ? "rate_limit_exceeded" : "server_error");
    const id = `chatcmpl-fake${fake.calls.length}`;
    const u = s.usage ?? USAGE;
    const usage = { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output };
    const calls = s.toolCalls ?? [];
    const finish = s.finish ?? (calls.length ? "tool_calls" : "stop");
    if (!body.stream) {
      return json({
        id,
        object: "chat.completion",
        created: now(),
        model: body.model,
        system_fingerprint: "fp_fake",
        choices: [
          {
            index: 0,
            logprobs: null,
            finish_reason: finish,
            message: {
              role: "assistant",
              content: calls.length && !s.text ? null : (s.text ?? ""),
              refusal: null,
              ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) } : {}),
            },
          },
        ],
        usage,
      });
    }
    const withUsage = body.stream_options?.include_usage === true;
    const base = { id, object: "chat.completion.chunk", created: now(), model: body.model, system_fingerprint: "fp_fake" };
    const frame = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ ...base, choices, ...(withUsage ? { usage: null } : {}), ...extra })}\n\n`;
    const frames = [frame([{ index: 0, delta: { role: "assistant", content: "", refusal: null }, logprobs: null, finish_reason: null }])];
    if (s.pieceDelayMs) pieceDelays.set(frames, s.pieceDelayMs);
    const pieces = s.text ? (s.pieces ?? words(s.text)) : [];
    pieces.forEach((p, i) => {
      frames.push(frame([{ index: 0, delta: { content: p }, logprobs: null, finish_reason: null }]));
      if (i === 0 && s.failMidStream === "event") frames.push(`data: ${JSON.stringify({ error: { message: "stand-in failed mid-stream", code: 502 } })}\n\n`);
    });
    if (s.failMidStream) return sse(frames.slice(0, s.failMidStream === "event" ? 3 : 2), s.failMidStream === "close" ? "close" : null);
    calls.forEach((c, i) => {
      // Arguments arrive in two pieces, as OpenAI does.
      const half = Math.floor(c.arguments.length / 2);
      frames.push(
        frame([
          {
            index: 0,
            delta: { tool_calls: [{ index: i, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] },
            logprobs: null,
            finish_reason: null,
          },
        ]),
      );
      frames.push(
        frame([{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: c.arguments.slice(0, half) } }] }, logprobs: null, finish_reason: null }]),
      );
      frames.push(
        frame([{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: c.arguments.slice(half) } }] }, logprobs: null, finish_reason: null }]),
      );
    });
    frames.push(frame([{ index: 0, delta: {}, logprobs: null, finish_reason: finish }]));
    if (withUsage) frames.push(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
    frames.push("data: [DONE]\n\n");
    return sse(frames, null);
  });
}

// ---------------------------------------------------------------- Anthropic Messages

function anthropicError(status: number, message: string): Response {
  const type = status === 429 ? "rate_limit_error" : status === 401 ? "authentication_error" : status >= 500 ? "api_error" : "invalid_request_error";
  return json({ type: "error", error: { type, message } }, status);
}

/** What the Messages API itself refuses. */
function checkAnthropic(body: any): string | null {
  if (typeof body?.model !== "string") return "model: Field required";
  if (typeof body.max_tokens !== "number") return "max_tokens: Field required";
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "messages: at least one message is required";
  let prev = "";
  for (const [i, m] of body.messages.entries()) {
    if (m.role !== "user" && m.role !== "assistant") return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (m.role === prev) return 'messages: roles must alternate between "user" and "assistant"';
    prev = m.role;
    if (Array.isArray(m.content)) {
      for (const b of m.content) {
        if (b.type === "text" && !b.text) return "messages: text content blocks must be non-empty";
        if (b.type === "tool_use" && (typeof b.input !== "object" || b.input === null)) return "tool_use.input must be an object";
      }
    }
  }
  if (body.system !== undefined && typeof body.system !== "string" && !Array.isArray(body.system)) return "system: must be a string";
  return null;
}

export function startFakeAnthropic(): FakeProvider {
  return start("anthropic", (fake, req, url, body) => {
    if (req.method !== "POST" || url.pathname !== "/v1/messages") return anthropicError(404, `Not found: ${url.pathname}`);
    if (!req.headers.get("anthropic-version")) return anthropicError(400, "anthropic-version: header is required");
    if (fake.requireKey !== null && req.headers.get("x-api-key") !== fake.requireKey) return anthropicError(401, "invalid x-api-key");
    const problem = checkAnthropic(body);
    if (problem) return anthropicError(400, problem);
    const over = overflow(fake, body.system, body.messages);
    if (over) return anthropicError(400, `prompt is too long: ${over.size} tokens > ${over.limit} maximum`);
    const s = nextScript(fake, body);
    if (s.status) return anthropicError(s.status, s.errorMessage ?? "stand-in error");
    const id = `msg_fake${fake.calls.length}`;
    const u = s.usage ?? USAGE;
    const calls = s.toolCalls ?? [];
    const stop = s.finish ?? (calls.length ? "tool_use" : "end_turn");
    const content = [
      ...(s.text ? [{ type: "text", text: s.text }] : []),
      ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: JSON.parse(c.arguments) })),
    ];
    if (!body.stream) {
      return json({
        id,
        type: "message",
        role: "assistant",
        model: body.model,
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: u.input, output_tokens: u.output },
      });
    }
    const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    const frames = [
      ev("message_start", {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model: body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: u.input, output_tokens: 1 },
        },
      }),
      ev("ping", { type: "ping" }),
    ];
    if (s.pieceDelayMs) pieceDelays.set(frames, s.pieceDelayMs);
    let index = 0;
    if (s.text) {
      frames.push(ev("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }));
      const pieces = s.pieces ?? words(s.text);
      for (const [i, p] of pieces.entries()) {
        frames.push(ev("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: p } }));
        if (i === 0 && s.failMidStream) {
          if (s.failMidStream === "event") frames.push(ev("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }));
          return sse(frames, s.failMidStream === "close" ? "close" : null);
        }
      }
      frames.push(ev("content_block_stop", { type: "content_block_stop", index }));
      index++;
    }
    for (const c of calls) {
      frames.push(ev("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } }));
      const half = Math.floor(c.arguments.length / 2);
      frames.push(ev("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } }));
      frames.push(
        ev("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: c.arguments.slice(0, half) } }),
      );
      frames.push(
        ev("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: c.arguments.slice(half) } }),
      );
      frames.push(ev("content_block_stop", { type: "content_block_stop", index }));
      index++;
    }
    frames.push(ev("message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: u.output } }));
    frames.push(ev("message_stop", { type: "message_stop" }));
    return sse(frames, null);
  });
}

// ---------------------------------------------------------------- Gemini

function geminiError(status: number, message: string): Response {
  const statusName =
    status === 429 ? "RESOURCE_EXHAUSTED" : status === 401 || status === 403 ? "PERMISSION_DENIED" : status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT";
  return json({ error: { code: status, message, status: statusName } }, status);
}

function checkGemini(body: any): string | null {
  if (!Array.isArray(body?.contents) || body.contents.length === 0) return "* GenerateContentRequest.contents: contents is not specified";
  for (const [i, c] of body.contents.entries()) {
    if (c.role !== "user" && c.role !== "model") return `Please use a valid role: user, model. (contents[${i}])`;
    if (!Array.isArray(c.parts) || c.parts.length === 0) return `contents[${i}].parts: must not be empty`;
    for (const p of c.parts) {
      if (p.functionResponse && (typeof p.functionResponse.name !== "string" || typeof p.functionResponse.response !== "object"))
        return "functionResponse needs name and response object";
    }
  }
  if (body.systemInstruction && !Array.isArray(body.systemInstruction.parts)) return "systemInstruction.parts is required";
  return null;
}

export function startFakeGemini(): FakeProvider {
  return start("gemini", (fake, req, url, body) => {
    const m = /^\/v1beta\/models\/([^:]+):(generateContent|streamGenerateContent)$/.exec(url.pathname);
    if (req.method !== "POST" || !m) return geminiError(404, `Method not found: ${url.pathname}`);
    const stream = m[2] === "streamGenerateContent";
    if (stream && url.searchParams.get("alt") !== "sse") return geminiError(400, "stand-in speaks SSE only: add alt=sse");
    if (fake.requireKey !== null && req.headers.get("x-goog-api-key") !== fake.requireKey)
      return geminiError(400, "API key not valid. Please pass a valid API key.");
    const problem = checkGemini(body);
    if (problem) return geminiError(400, problem);
    const over = overflow(fake, body.systemInstruction, body.contents);
    if (over) return geminiError(400, `The input token count (${over.size}) exceeds the maximum number of tokens allowed (${over.limit}).`);
    const s = nextScript(fake, body);
    if (s.status) return geminiError(s.status, s.errorMessage ?? "stand-in error");
    const u = s.usage ?? USAGE;
    const usageMetadata = { promptTokenCount: u.input, candidatesTokenCount: u.output, totalTokenCount: u.input + u.output };
    const calls = s.toolCalls ?? [];
    const finishReason = s.finish ?? "STOP";
    const modelVersion = decodeURIComponent(m[1]!);
    const callParts = calls.map((c) => ({ functionCall: { name: c.name, args: JSON.parse(c.arguments) } }));
    if (!stream) {
      return json({
        candidates: [{ content: { role: "model", parts: [...(s.text ? [{ text: s.text }] : []), ...callParts] }, finishReason, index: 0 }],
        usageMetadata,
        modelVersion,
        responseId: `resp${fake.calls.length}`,
      });
    }
    const frame = (o: unknown) => `data: ${JSON.stringify(o)}\r\n\r\n`;
    const frames: string[] = [];
    if (s.pieceDelayMs) pieceDelays.set(frames, s.pieceDelayMs);
    const pieces = s.text ? (s.pieces ?? words(s.text)) : [];
    for (const [i, p] of pieces.entries()) {
      frames.push(
        frame({
          candidates: [{ content: { role: "model", parts: [{ text: p }] }, index: 0 }],
          usageMetadata: { promptTokenCount: u.input, totalTokenCount: u.input },
          modelVersion,
        }),
      );
      if (i === 0 && s.failMidStream) {
        if (s.failMidStream === "event") frames.push(frame({ error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }));
        return sse(frames, s.failMidStream === "close" ? "close" : null);
      }
    }
    frames.push(
      frame({
        candidates: [{ content: { role: "model", parts: callParts.length ? callParts : [{ text: "" }] }, finishReason, index: 0 }],
        usageMetadata,
        modelVersion,
      }),
    );
    return sse(frames, null);
  });
}

/** A loopback port with nothing listening on it. */
export function deadUrl(): string {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port;
  s.stop(true);
  return `http://127.0.0.1:${port}`;
}

// ---------------------------------------------------------------- A stand-in model for agents

interface OfferedTool {
  name: string;
  schema: any;
}
interface AgentTurn {
  tools: OfferedTool[];
  /** "none", "auto", "required" or the name of the one tool the request forces. */
  choice: string;
  /** The last message is the user's own (not a tool result). */
  userSpoke: boolean;
  /** The user's last text, or the last tool result's text. */
  text: string;
}

const textOf = (c: unknown): string =>
  typeof c === "string" ? c : Array.isArray(c) ? c.map((p: any) => (typeof p === "string" ? p : typeof p?.text === "string" ? p.text : "")).join("") : "";

/** A Gemini functionResponse.response: a tool's text comes wrapped as `{ result: "…" }` (or another single key). */
function unwrapResult(r: unknown): string {
  if (r && typeof r === "object" && !Array.isArray(r)) {
    const values = Object.values(r);
    if (values.length === 1 && typeof values[0] === "string") return values[0];
  }
  return JSON.stringify(r);
}

/** Reads the last turn of a request in any of the three wires. */
function readTurn(body: any): AgentTurn {
  if (Array.isArray(body?.contents)) {
    // Gemini: tools[].functionDeclarations[], functionResponse parts.
    const tools = (body.tools ?? []).flatMap((t: any) =>
      (t.functionDeclarations ?? []).map((f: any) => ({ name: f.name, schema: f.parametersJsonSchema ?? f.parameters })),
    );
    const mode = body.toolConfig?.functionCallingConfig?.mode;
    const allowed = body.toolConfig?.functionCallingConfig?.allowedFunctionNames;
    const choice = mode === "NONE" ? "none" : mode === "ANY" ? (allowed?.length === 1 ? allowed[0] : "required") : "auto";
    const last = body.contents.at(-1);
    const parts: any[] = last?.parts ?? [];
    const response = parts.find((p) => p.functionResponse)?.functionResponse;
    return {
      tools,
      choice,
      userSpoke: last?.role === "user" && !response,
      text: response ? unwrapResult(response.response) : parts.map((p) => p.text ?? "").join(""),
    };
  }
  const openaiShaped =
    body?.tools?.some((t: any) => t.function) ||
    body?.messages?.some((m: any) => m.role === "tool" || m.role === "system" || m.role === "developer" || m.tool_calls);
  if (!openaiShaped) {
    // Anthropic: tools[] with input_schema, tool_result blocks.
    const tools = (body.tools ?? []).map((t: any) => ({ name: t.name, schema: t.input_schema }));
    const tc = body.tool_choice;
    const choice = !tc ? "auto" : tc.type === "tool" ? tc.name : tc.type === "any" ? "required" : tc.type;
    const last = body.messages?.at(-1);
    const blocks: any[] = Array.isArray(last?.content) ? last.content : [];
    const result = blocks.find((b) => b.type === "tool_result");
    return {
      tools,
      choice,
      userSpoke: last?.role === "user" && !result,
      text: result ? textOf(result.content) : textOf(last?.content),
    };
  }
  // OpenAI chat completions (also the aggregator and local): tools[].function, role "tool".
  const tools = (body?.tools ?? [])
    .filter((t: any) => t.type === "function" || t.function)
    .map((t: any) => ({ name: t.function.name, schema: t.function.parameters }));
  const tc = body?.tool_choice;
  const choice = !tc ? "auto" : typeof tc === "string" ? tc : (tc.function?.name ?? "auto");
  const last = body?.messages?.at(-1);
  return { tools, choice, userSpoke: last?.role === "user", text: textOf(last?.content) };
}

/** A value that fits `schema`, plausible for a property called `name`. */
export function plausibleValue(schema: any, name = ""): unknown {
  if (!schema || typeof schema !== "object") return "example";
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ("const" in schema) return schema.const;
  const branch = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branch) && branch.length) return plausibleValue(branch.find((b: any) => b?.type !== "null") ?? branch[0], name);
  let type = Array.isArray(schema.type) ? schema.type.find((t: string) => t.toLowerCase() !== "null") : schema.type;
  type = typeof type === "string" ? type.toLowerCase() : schema.properties ? "object" : "string";
  switch (type) {
    case "object": {
      const props: Record<string, any> = schema.properties ?? {};
      const required: string[] = Array.isArray(schema.required) ? schema.required : Object.keys(props);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(props)) if (required.includes(key)) out[key] = plausibleValue(props[key], key);
      return out;
    }
    case "array":
      return [plausibleValue(schema.items, name)];
    case "integer":
      return Math.max(1, Math.ceil(schema.minimum ?? 1));
    case "number":
      return Math.max(1, schema.minimum ?? 1);
    case "boolean":
      return true;
    case "null":
      return null;
    default: {
      const n = name.toLowerCase();
      if (/location|city|place|where|address/.test(n)) return "San Francisco";
      if (/unit/.test(n)) return "celsius";
      if (/country/.test(n)) return "US";
      if (/date|day/.test(n)) return "2026-01-01";
      if (/query|question|text|prompt|message|input/.test(n)) return "the weather in San Francisco";
      if (/name/.test(n)) return "Ada";
      if (/email/.test(n)) return "ada@example.com";
      if (/url|link/.test(n)) return "https://example.com";
      return "example";
    }
  }
}

let agentCalls = 0;

/**
 * A stand-in model for agents, for `FakeProvider.responder`: when the request offers tools (and
 * does not forbid them) and the last message is the user's, it calls the first offered tool (or
 * the one `tool_choice` names) with arguments built from the tool's parameters schema, e.g.
 * `{"location":"San Francisco"}` for get_weather; after a tool result, or without tools, it
 * answers with text that quotes what it answers to.
 */
export function agentResponder(body: any): Script {
  const turn = readTurn(body);
  if (turn.userSpoke && turn.tools.length && turn.choice !== "none") {
    const tool = turn.tools.find((t) => t.name === turn.choice) ?? turn.tools[0]!;
    const args = plausibleValue(tool.schema ?? { type: "object", properties: {} });
    return { toolCalls: [{ id: `call_stand_in_${++agentCalls}`, name: tool.name, arguments: JSON.stringify(args && typeof args === "object" ? args : {}) }] };
  }
  const quoted = turn.text.replace(/\s+/g, " ").trim().slice(0, 120);
  return { text: turn.userSpoke || !turn.tools.length ? `Stand-in answer to: ${quoted || "(nothing)"}` : `The tool answered: ${quoted || "(nothing)"}` };
}
