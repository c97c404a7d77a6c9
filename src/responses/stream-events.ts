// The Responses stream's events, one type per `type` (the openai client's ResponseStreamEvent, for
// the events Tessera sends, field for field: test/responses/stream-events.typecheck.ts holds them to
// it). Events carry no sequence_number here: the turn numbers them as it sends them.
import type { UrlCitation } from "./citations.ts";
import type { ImageSearchCallItem, OutputItem, OutputTextPart, RefusalPart, ResponseObject } from "./types.ts";

type At = { item_id: string; output_index: number };
/** One event type per name (a member of the union each, so that `type` narrows to one shape). */
type Each<T extends string, F> = T extends string ? { type: T } & F : never;
type AtPart = At & { content_index: number };

export type ResponseLifecycleEvent = Each<
  "response.created" | "response.queued" | "response.in_progress" | "response.completed" | "response.failed" | "response.incomplete",
  { response: ResponseObject }
>;
export type TerminalEventType = "response.completed" | "response.failed" | "response.incomplete";

/** An image search opens without its results (they come with its `.done`). */
type OpenedItem = OutputItem | Omit<ImageSearchCallItem, "results">;
export type OutputItemEvent =
  | { type: "response.output_item.added"; output_index: number; item: OpenedItem }
  | { type: "response.output_item.done"; output_index: number; item: OutputItem };

export type ContentPartEvent = Each<"response.content_part.added" | "response.content_part.done", AtPart & { part: OutputTextPart | RefusalPart }>;
export type OutputTextDeltaEvent = AtPart & { type: "response.output_text.delta"; delta: string; logprobs: [] };
export type OutputTextDoneEvent = AtPart & { type: "response.output_text.done"; text: string; logprobs: [] };
export type AnnotationAddedEvent = AtPart & { type: "response.output_text.annotation.added"; annotation_index: number; annotation: UrlCitation };

export type FunctionCallArgumentsDeltaEvent = At & { type: "response.function_call_arguments.delta"; delta: string };
export type FunctionCallArgumentsDoneEvent = At & { type: "response.function_call_arguments.done"; name: string; arguments: string };

export type McpCallArgumentsDeltaEvent = At & { type: "response.mcp_call_arguments.delta"; delta: string };
export type McpCallArgumentsDoneEvent = At & { type: "response.mcp_call_arguments.done"; arguments: string };
/** A hosted call's progress: only where the item is and what happened to it. */
export type HostedProgressEvent = Each<
  | "response.mcp_call.in_progress"
  | "response.mcp_call.completed"
  | "response.mcp_call.failed"
  | "response.mcp_list_tools.in_progress"
  | "response.mcp_list_tools.completed"
  | "response.mcp_list_tools.failed"
  | "response.web_search_call.in_progress"
  | "response.web_search_call.searching"
  | "response.web_search_call.completed"
  // Image search follows web search's pattern under its own name (an extension of the wire).
  | "response.image_search_call.in_progress"
  | "response.image_search_call.searching"
  | "response.image_search_call.completed",
  At
>;

/** A stream event before its sequence number is given. */
export type ResponseEvent =
  | ResponseLifecycleEvent
  | OutputItemEvent
  | ContentPartEvent
  | OutputTextDeltaEvent
  | OutputTextDoneEvent
  | AnnotationAddedEvent
  | FunctionCallArgumentsDeltaEvent
  | FunctionCallArgumentsDoneEvent
  | McpCallArgumentsDeltaEvent
  | McpCallArgumentsDoneEvent
  | HostedProgressEvent;

export type SequencedEvent = ResponseEvent & { sequence_number: number };
