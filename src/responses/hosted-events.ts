// The stream events of a hosted tool's item (pure), in two parts: what opens it (sent before the
// service runs the call) and what closes it (sent once it has run). A live run sends the two parts
// around the call; a replay of a stored response sends them back to back. A call the service runs
// as a function (the artifact tool) is a function_call item, its arguments streamed as they are
// written, and a function_call_output item, finished when it is added: OpenUI's front end reads
// a function_call_output only from its output_item.added.
import type { ResponseEvent } from "./stream-events.ts";
import { copyJson } from "./json.ts";
import type { OutputItem } from "./types.ts";

type HostedOutput = Exclude<OutputItem, { type: "message" }>;

/** Image search follows web search's pattern under its own name (an extension of the wire). */
const SEARCH_EVENTS = { web_search_call: "response.web_search_call", image_search_call: "response.image_search_call" } as const;

export function openingEvents(item: HostedOutput, index: number): ResponseEvent[] {
  const at = { item_id: item.id, output_index: index };
  switch (item.type) {
    case "function_call":
      return [{ type: "response.output_item.added", output_index: index, item: { ...item, arguments: "", status: "in_progress" } }];
    case "function_call_output":
      return [{ type: "response.output_item.added", output_index: index, item: copyJson(item) }];
    case "mcp_call":
      return [
        { type: "response.output_item.added", output_index: index, item: { ...item, arguments: "", output: null, error: null, status: "in_progress" } },
        ...(item.arguments ? [{ type: "response.mcp_call_arguments.delta" as const, ...at, delta: item.arguments }] : []),
        { type: "response.mcp_call_arguments.done", ...at, arguments: item.arguments },
        { type: "response.mcp_call.in_progress", ...at },
      ];
    case "mcp_list_tools":
      return [
        { type: "response.output_item.added", output_index: index, item: { ...item, tools: [], error: null } },
        { type: "response.mcp_list_tools.in_progress", ...at },
      ];
    case "mcp_approval_request":
      return [{ type: "response.output_item.added", output_index: index, item: { ...item } }];
    case "web_search_call":
    case "image_search_call": {
      const name = SEARCH_EVENTS[item.type];
      const { results: _r, ...rest } = item;
      return [
        {
          type: "response.output_item.added",
          output_index: index,
          item: { ...rest, status: "in_progress", action: { type: "search", query: item.action.query } },
        },
        { type: `${name}.in_progress` as const, ...at },
        { type: `${name}.searching` as const, ...at },
      ];
    }
  }
}

export function closingEvents(item: HostedOutput, index: number): ResponseEvent[] {
  const at = { item_id: item.id, output_index: index };
  const done: ResponseEvent = { type: "response.output_item.done", output_index: index, item: copyJson(item) };
  switch (item.type) {
    case "function_call":
      return [{ type: "response.function_call_arguments.done", ...at, name: item.name, arguments: item.arguments }, done];
    case "function_call_output":
      return [done];
    case "mcp_call":
      return [{ type: item.status === "failed" ? ("response.mcp_call.failed" as const) : ("response.mcp_call.completed" as const), ...at }, done];
    case "mcp_list_tools":
      return [{ type: item.error ? ("response.mcp_list_tools.failed" as const) : ("response.mcp_list_tools.completed" as const), ...at }, done];
    case "mcp_approval_request":
      return [done];
    case "web_search_call":
    case "image_search_call":
      // The wire has no `.failed` search event: a failed search shows in its item's status.
      return item.status === "failed" ? [done] : [{ type: `${SEARCH_EVENTS[item.type]}.completed` as const, ...at }, done];
  }
}

/** A delta of a function_call item's arguments, as the service writes them. */
export function argumentsDelta(item: { id: string }, index: number, delta: string): ResponseEvent {
  return { type: "response.function_call_arguments.delta", item_id: item.id, output_index: index, delta };
}
