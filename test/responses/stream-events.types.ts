// A type-level test, run by the type check of `npm test` (tsc): the events Tessera streams are the
// openai client's ResponseStreamEvent, field for field, so a change on either side that breaks a
// client fails the check. The Response and the items inside events are held to the client's types
// apart, with the wire's deliberate differences named (and only those left out).
import type {
  Response as ClientResponse,
  ResponseFormatTextJSONSchemaConfig,
  ResponseOutputItem,
  ResponseStreamEvent,
} from "openai/resources/responses/responses";
import type { SequencedEvent } from "../../src/responses/stream-events.ts";
import type { FunctionToolOut, ImageSearchCallItem, McpCallItem, OutputItem, ResponseObject, ResponseUsage, TextFormat } from "../../src/responses/types.ts";

/** Compiles only when T is assignable to U. */
type Assignable<T extends U, U> = T;

// Differences the wire has on purpose:
// - image search (its item and its events) is an extension the client does not know;
// - an mcp_call's `error` is an object ({type, code, message} or {type, content}), the client types a string;
// - a json_schema text format echoes `description: null` when none was given (the client types it optional);
// - usage has no input_tokens_details.cache_write_tokens (a field newer than the Open Responses schema);
// - hosted tools are echoed as the request gave them, without credentials (typed loosely: only function tools are
//   checked), and so is tool_choice (which may name image_search);
// - the Response has every field (the Open Responses schema requires them): null where the client types one optional.
type ImageSearchEvent = Extract<SequencedEvent, { type: `response.image_search_call.${string}` }>;

/** An event with the Response or item it carries taken as the client's (those are checked below). */
type Envelope<E> = E extends { response: ResponseObject }
  ? Omit<E, "response"> & { response: ClientResponse }
  : E extends { item: unknown }
    ? Omit<E, "item"> & { item: ResponseOutputItem }
    : E;

export type Events = Assignable<Envelope<Exclude<SequencedEvent, ImageSearchEvent>>, ResponseStreamEvent>;

export type Items = Assignable<Exclude<OutputItem, ImageSearchCallItem | McpCallItem>, ResponseOutputItem>;
export type McpCallItems = Assignable<Omit<McpCallItem, "error">, Omit<Extract<ResponseOutputItem, { type: "mcp_call" }>, "error">>;

/** The client's object as the wire sends it: a field the client types as optional is sent as null. */
type Sent<C> = { [K in keyof C]: C[K] | (undefined extends C[K] ? null : never) };

export type Responses = Assignable<
  Omit<ResponseObject, "output" | "text" | "usage" | "tools" | "tool_choice">,
  Omit<Sent<ClientResponse>, "output" | "text" | "output_text" | "usage" | "tools" | "tool_choice">
>;
export type FunctionTools = Assignable<FunctionToolOut, Extract<ClientResponse["tools"][number], { type: "function" }>>;
type ClientUsage = NonNullable<ClientResponse["usage"]>;
export type Usages = Assignable<Omit<ResponseUsage, "input_tokens_details">, Omit<ClientUsage, "input_tokens_details">>;
export type InputTokensDetails = Assignable<ResponseUsage["input_tokens_details"], Omit<ClientUsage["input_tokens_details"], "cache_write_tokens">>;
export type TextFormats = Assignable<
  Exclude<TextFormat, { type: "json_schema" }> | Omit<Extract<TextFormat, { type: "json_schema" }>, "description">,
  NonNullable<NonNullable<ClientResponse["text"]>["format"]>
>;
export type JsonSchemaFormats = Assignable<
  Omit<Extract<TextFormat, { type: "json_schema" }>, "description">,
  Omit<ResponseFormatTextJSONSchemaConfig, "description">
>;
