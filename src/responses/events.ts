// Chat-completion chunks → Responses stream events (pure). A small state machine, fed one chunk
// at a time: output indexes handed out in order; a message item opened on its first text, not
// the first chunk; one function_call item per tool index; every item opened is closed (the
// `.done` events) by `end()`, before the caller's terminal event. The same machine serves SSE,
// WebSocket frames and background runs; replays of a finished response come from `replay()`.
import type { ChatCompletionChunk, FinishReason, Usage } from "../chat/types.ts";
import type { UrlCitation } from "./citations.ts";
import { closingEvents, openingEvents } from "./hosted-events.ts";
import { copyJson } from "./json.ts";
import { newId } from "./ids.ts";
import type { ResponseEvent, TerminalEventType } from "./stream-events.ts";
import type { FunctionCallItem, IncompleteReason, OutputItem, OutputMessageItem, OutputTextPart, ResponseObject } from "./types.ts";

export interface BridgeOptions {
  /** Last word on a text-only answer before its `.done` events (managed UI repairs here). */
  finalizeText?: (text: string) => string;
  /** Whether a tool call is the service's to run (a hosted tool): it is collected, not streamed as a function_call. */
  isHosted?: (name: string) => boolean;
  /** The url_citation annotations of a finished text (sources the model cited). */
  annotate?: (text: string) => UrlCitation[];
}

/** A call of a hosted tool, as the model made it. */
export interface HostedCall {
  callId: string;
  name: string;
  arguments: string;
}

const emptyPart = (): OutputTextPart => ({ type: "output_text", text: "", annotations: [], logprobs: [] });

export class EventBridge {
  readonly output: OutputItem[] = [];
  finish: FinishReason | null = null;
  private message: { item: OutputMessageItem; index: number; text: string } | null = null;
  private calls = new Map<number, { item: FunctionCallItem; index: number }>();
  private openCalls: { item: FunctionCallItem; index: number }[] = [];
  private hosted = new Map<number, HostedCall>();
  private earlierUsage: Usage | null = null;
  private roundUsage: Usage | null = null;

  constructor(private readonly opts: BridgeOptions = {}) {}

  /** The usage of every model call of the response so far. */
  get usage(): Usage | null {
    const [a, b] = [this.earlierUsage, this.roundUsage];
    if (!a || !b) return a ?? b;
    return {
      prompt_tokens: a.prompt_tokens + b.prompt_tokens,
      completion_tokens: a.completion_tokens + b.completion_tokens,
      total_tokens: a.total_tokens + b.total_tokens,
    };
  }

  /** Another model call of the same response (after hosted calls ran): its items follow on. */
  nextRound(): void {
    this.earlierUsage = this.usage;
    this.roundUsage = null;
    this.finish = null;
    this.calls.clear();
    this.hosted.clear();
  }

  /** Function calls of the application in this round (they end the turn). */
  get appCalls(): number {
    return this.calls.size;
  }

  /** The hosted calls the model made this round, in its order. */
  hostedCalls(): HostedCall[] {
    return [...this.hosted.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
  }

  /** Appends an item made by the service (a hosted call's); its events are the caller's to send. */
  add(item: OutputItem): number {
    this.output.push(item);
    return this.output.length - 1;
  }

  /** The events one chunk gives. */
  push(chunk: ChatCompletionChunk): ResponseEvent[] {
    const events: ResponseEvent[] = [];
    if (chunk.usage) this.roundUsage = chunk.usage;
    const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
    if (!choice) return events;
    const text = choice.delta?.content;
    if (typeof text === "string" && text !== "") {
      const m = this.message ?? this.openMessage(events);
      m.text += text;
      events.push({ type: "response.output_text.delta", item_id: m.item.id, output_index: m.index, content_index: 0, delta: text, logprobs: [] });
    }
    for (const tc of choice.delta?.tool_calls ?? []) {
      const hosted = this.hosted.get(tc.index);
      if (hosted) {
        hosted.arguments += tc.function?.arguments ?? "";
        continue;
      }
      let call = this.calls.get(tc.index);
      if (!call && tc.function?.name && this.opts.isHosted?.(tc.function.name)) {
        if (this.message) this.closeMessage(events, "completed", false);
        this.hosted.set(tc.index, { callId: tc.id || newId("callId"), name: tc.function.name, arguments: tc.function.arguments ?? "" });
        continue;
      }
      if (!call) {
        // Text that a tool call follows is finished: its item closes before the call's opens.
        if (this.message) this.closeMessage(events, "completed", false);
        const item: FunctionCallItem = {
          type: "function_call",
          id: newId("functionCall"),
          call_id: tc.id || newId("callId"),
          name: tc.function?.name ?? "",
          arguments: "",
          status: "in_progress",
        };
        call = { item, index: this.output.length };
        this.output.push(item);
        this.calls.set(tc.index, call);
        this.openCalls.push(call);
        events.push({ type: "response.output_item.added", output_index: call.index, item: { ...item } });
      } else if (tc.function?.name && !call.item.name) {
        call.item.name = tc.function.name;
      }
      const args = tc.function?.arguments;
      if (args) {
        call.item.arguments += args;
        events.push({ type: "response.function_call_arguments.delta", item_id: call.item.id, output_index: call.index, delta: args });
      }
    }
    if (choice.finish_reason) this.finish = choice.finish_reason;
    return events;
  }

  /** Closes every open item; `incomplete` when the answer was cut off. */
  end(status: "completed" | "incomplete"): ResponseEvent[] {
    const events: ResponseEvent[] = [];
    if (this.message) this.closeMessage(events, status, this.calls.size === 0 && this.hosted.size === 0);
    for (const call of this.openCalls) {
      call.item.status = status;
      events.push({
        type: "response.function_call_arguments.done",
        item_id: call.item.id,
        output_index: call.index,
        name: call.item.name,
        arguments: call.item.arguments,
      });
      events.push({ type: "response.output_item.done", output_index: call.index, item: { ...call.item } });
    }
    this.openCalls = [];
    return events;
  }

  /** The text of the whole answer (all message items). */
  text(): string {
    return this.output.map((o) => (o.type === "message" ? o.content.map((p) => ("text" in p ? p.text : "")).join("") : "")).join("");
  }

  private openMessage(events: ResponseEvent[]) {
    const item: OutputMessageItem = { type: "message", id: newId("message"), role: "assistant", status: "in_progress", content: [] };
    const m = { item, index: this.output.length, text: "" };
    this.output.push(item);
    this.message = m;
    events.push({ type: "response.output_item.added", output_index: m.index, item: { ...item, content: [] } });
    events.push({ type: "response.content_part.added", item_id: item.id, output_index: m.index, content_index: 0, part: emptyPart() });
    return m;
  }

  private closeMessage(events: ResponseEvent[], status: "completed" | "incomplete", finalize: boolean) {
    const m = this.message!;
    this.message = null;
    const text = finalize && this.opts.finalizeText ? this.opts.finalizeText(m.text) : m.text;
    const annotations = this.opts.annotate?.(text) ?? [];
    const part: OutputTextPart = { ...emptyPart(), text, annotations };
    m.item.content = [part];
    m.item.status = status;
    const at = { item_id: m.item.id, output_index: m.index, content_index: 0 };
    annotations.forEach((annotation, annotation_index) => events.push({ type: "response.output_text.annotation.added", ...at, annotation_index, annotation }));
    events.push({ type: "response.output_text.done", ...at, text, logprobs: [] });
    events.push({ type: "response.content_part.done", ...at, part: { ...part } });
    events.push({ type: "response.output_item.done", output_index: m.index, item: copyJson(m.item) });
  }
}

/** How a finished answer ends: `length` is cut off, `content_filter` withheld. */
export function endStatus(finish: FinishReason | null): { status: "completed" | "incomplete"; reason: IncompleteReason | null } {
  if (finish === "length") return { status: "incomplete", reason: "max_output_tokens" };
  if (finish === "content_filter") return { status: "incomplete", reason: "content_filter" };
  return { status: "completed", reason: null };
}

/**
 * The events a stream of this response would have carried: the replay of a stored response
 * (GET ?stream=true) when its live events were not kept.
 */
export function replay(response: ResponseObject): ResponseEvent[] {
  const start: ResponseObject = {
    ...response,
    status: response.status === "queued" ? "queued" : "in_progress",
    output: [],
    usage: null,
    completed_at: null,
    error: null,
    incomplete_details: null,
  };
  const events: ResponseEvent[] = [
    { type: "response.created", response: start },
    { type: "response.in_progress", response: start },
  ];
  response.output.forEach((item, index) => {
    if (item.type === "message") {
      events.push({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", content: [] } });
      item.content.forEach((part, ci) => {
        const text = "text" in part ? part.text : "";
        const at = { item_id: item.id, output_index: index, content_index: ci };
        events.push({ type: "response.content_part.added", ...at, part: emptyPart() });
        if (text) events.push({ type: "response.output_text.delta", ...at, delta: text, logprobs: [] });
        const annotations = part.type === "output_text" ? part.annotations : [];
        annotations.forEach((annotation, annotation_index) =>
          events.push({ type: "response.output_text.annotation.added", ...at, annotation_index, annotation }),
        );
        events.push({ type: "response.output_text.done", ...at, text, logprobs: [] });
        events.push({ type: "response.content_part.done", ...at, part });
      });
    } else if (item.type === "function_call") {
      events.push({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", arguments: "" } });
      if (item.arguments) events.push({ type: "response.function_call_arguments.delta", item_id: item.id, output_index: index, delta: item.arguments });
      events.push({ type: "response.function_call_arguments.done", item_id: item.id, output_index: index, name: item.name, arguments: item.arguments });
    } else {
      events.push(...openingEvents(item, index), ...closingEvents(item, index));
      return;
    }
    events.push({ type: "response.output_item.done", output_index: index, item });
  });
  const terminal = TERMINAL_EVENT[response.status];
  if (terminal) events.push({ type: terminal, response });
  return events;
}

export const TERMINAL_EVENT: Partial<Record<ResponseObject["status"], TerminalEventType>> = {
  completed: "response.completed",
  failed: "response.failed",
  incomplete: "response.incomplete",
  cancelled: "response.failed",
};
