// The Embed Chat Completions body (spec 2.4), checked at the edge. Unknown fields are dropped;
// fields that cannot be honoured (n > 1, hosted tools) are refused with a message that says why.
import * as v from "valibot";

const loose = <T extends v.ObjectEntries>(entries: T) => v.looseObject(entries);

const TextPart = loose({ type: v.literal("text"), text: v.string() });
const ImagePart = loose({ type: v.literal("image_url"), image_url: loose({ url: v.string(), detail: v.optional(v.string()) }) });
// Kept for OpenAI-compatible targets; the other adapters refuse them by name.
const OtherPart = loose({ type: v.picklist(["input_audio", "file", "refusal"]) });
const Part = v.union([TextPart, ImagePart, OtherPart], "content parts must be text, image_url, input_audio or file");

const TextContent = v.union([v.string(), v.array(TextPart)], "content must be a string or an array of text parts");
const Content = v.union([v.string(), v.array(Part)], "content must be a string or an array of content parts");

const ToolCall = v.object({
  id: v.string(),
  type: v.literal("function"),
  function: v.object({ name: v.string(), arguments: v.string() }),
});

const Message = v.variant(
  "role",
  [
    v.object({ role: v.picklist(["system", "developer"]), content: TextContent, name: v.optional(v.string()) }),
    v.object({ role: v.literal("user"), content: Content, name: v.optional(v.string()) }),
    v.object({
      role: v.literal("assistant"),
      content: v.optional(v.nullable(Content)),
      name: v.optional(v.string()),
      tool_calls: v.optional(v.array(ToolCall)),
    }),
    v.object({ role: v.literal("tool"), content: TextContent, tool_call_id: v.string() }),
  ],
  "role must be system, developer, user, assistant or tool",
);

const FunctionTool = v.object({
  type: v.literal("function"),
  function: v.object({
    name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "function names are 1–64 letters, digits, _ or -")),
    description: v.optional(v.string()),
    parameters: v.optional(v.record(v.string(), v.unknown())),
    strict: v.optional(v.nullable(v.boolean())),
  }),
});

const Tool = v.pipe(
  loose({ type: v.string() }),
  v.check(
    (t) => t.type === "function",
    (issue) =>
      `tool type "${String((issue.input as { type: unknown }).type)}" is not available on chat completions: only function tools are; ` +
      "hosted tools (web_search, image_search, remote MCP, artifacts) live on the Responses API (/v1/embed/responses)",
  ),
  FunctionTool,
);

const ToolChoice = v.union(
  [v.picklist(["none", "auto", "required"]), v.object({ type: v.literal("function"), function: v.object({ name: v.string() }) })],
  'tool_choice must be "none", "auto", "required" or {type:"function",function:{name}}',
);

const ResponseFormat = v.variant(
  "type",
  [
    v.object({ type: v.literal("text") }),
    v.object({ type: v.literal("json_object") }),
    v.object({
      type: v.literal("json_schema"),
      json_schema: v.object({
        name: v.string(),
        description: v.optional(v.string()),
        schema: v.optional(v.record(v.string(), v.unknown())),
        strict: v.optional(v.nullable(v.boolean())),
      }),
    }),
  ],
  "response_format type must be text, json_object or json_schema",
);

const PositiveInt = v.pipe(v.number(), v.integer(), v.minValue(1));

export const EmbedBody = v.object({
  model: v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\/\S+$/, "model must look like {provider}/{model}, e.g. openai/gpt-4o")),
  messages: v.pipe(v.array(Message), v.minLength(1, "messages must not be empty")),
  stream: v.optional(v.nullable(v.boolean())),
  stream_options: v.optional(v.nullable(v.object({ include_usage: v.optional(v.boolean()) }))),
  tools: v.optional(v.array(Tool)),
  tool_choice: v.optional(ToolChoice),
  parallel_tool_calls: v.optional(v.boolean()),
  temperature: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(2)))),
  top_p: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(1)))),
  max_tokens: v.optional(v.nullable(PositiveInt)),
  max_completion_tokens: v.optional(v.nullable(PositiveInt)),
  stop: v.optional(v.nullable(v.union([v.string(), v.pipe(v.array(v.string()), v.maxLength(4))]))),
  response_format: v.optional(ResponseFormat),
  seed: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
  user: v.optional(v.string()),
  n: v.optional(v.nullable(v.literal(1, "n must be 1: one choice per request"))),
  byok: v.optional(v.object({ provider: v.pipe(v.string(), v.minLength(1)), encryptedApiKey: v.pipe(v.string(), v.minLength(1)) })),
});

export type EmbedBody = v.InferOutput<typeof EmbedBody>;
