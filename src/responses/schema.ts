// The responses.create body (OpenAI's Responses API; docs/responses.md), checked at the edge with valibot.
// Unknown fields are dropped; what Tessera cannot honour (hosted tools, file ids) is refused by name.
import * as v from "valibot";

const loose = <T extends v.ObjectEntries>(entries: T) => v.looseObject(entries);

const InputText = loose({ type: v.literal("input_text"), text: v.string() });
const OutputText = loose({ type: v.literal("output_text"), text: v.string() });
const PlainText = loose({ type: v.literal("text"), text: v.string() });
const Refusal = loose({ type: v.literal("refusal"), refusal: v.string() });
const InputImage = loose({
  type: v.literal("input_image"),
  image_url: v.optional(v.nullable(v.string())),
  file_id: v.optional(v.nullable(v.string())),
  detail: v.optional(v.picklist(["low", "high", "auto"])),
});
const InputFile = loose({
  type: v.literal("input_file"),
  file_data: v.optional(v.string()),
  file_url: v.optional(v.string()),
  file_id: v.optional(v.nullable(v.string())),
  filename: v.optional(v.string()),
});
const Part = v.variant("type", [InputText, OutputText, PlainText, Refusal, InputImage, InputFile],
  "content parts must be input_text, output_text, refusal, input_image or input_file");
const Content = v.union([v.string(), v.array(Part)], "content must be a string or an array of content parts");

const Status = v.optional(v.picklist(["in_progress", "completed", "incomplete"]));
const Id = v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(128)));

const Message = loose({
  type: v.optional(v.literal("message")),
  id: Id,
  role: v.picklist(["user", "assistant", "system", "developer"], "role must be user, assistant, system or developer"),
  content: Content,
  status: Status,
  phase: v.optional(v.nullable(v.picklist(["commentary", "final_answer"]))),
});
const FunctionCall = loose({
  type: v.literal("function_call"), id: Id, call_id: v.pipe(v.string(), v.minLength(1)), name: v.string(), arguments: v.string(), status: Status,
});
const FunctionCallOutput = loose({
  type: v.literal("function_call_output"), id: Id, call_id: v.pipe(v.string(), v.minLength(1)),
  output: v.union([v.string(), v.array(Part)]), status: Status,
});
const Reasoning = loose({ type: v.literal("reasoning"), id: Id, summary: v.optional(v.array(v.unknown())) });
const Compaction = loose({ type: v.literal("compaction"), id: Id, encrypted_content: v.string() });
const ItemReference = v.object({ type: v.optional(v.literal("item_reference")), id: v.pipe(v.string(), v.minLength(1)) });

/** One input item: which schema applies is read off `type` (a message may leave it out). */
export const InputItem = v.pipe(
  v.record(v.string(), v.unknown(), "input items must be objects"),
  v.check((o) => o.type === undefined || typeof o.type === "string", "an input item's type must be a string"),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const o = dataset.value;
    const type = (o.type as string | undefined) ?? (o.role !== undefined ? "message" : "item_reference");
    const schema = ITEM_SCHEMAS[type];
    if (!schema) {
      addIssue({ message: `input item type "${type}" is not supported: send message, function_call, function_call_output, reasoning, compaction or item_reference items` });
      return NEVER;
    }
    const r = v.safeParse(schema, o);
    if (!r.success) {
      for (const issue of r.issues) addIssue({ message: issue.message, path: issue.path as never });
      return NEVER;
    }
    return r.output as InputItemIn;
  }),
);

const ITEM_SCHEMAS: Record<string, v.GenericSchema> = {
  message: Message, function_call: FunctionCall, function_call_output: FunctionCallOutput,
  reasoning: Reasoning, compaction: Compaction, item_reference: ItemReference,
};

export type InputItemIn =
  | (v.InferOutput<typeof Message>)
  | v.InferOutput<typeof FunctionCall>
  | v.InferOutput<typeof FunctionCallOutput>
  | v.InferOutput<typeof Reasoning>
  | v.InferOutput<typeof Compaction>
  | v.InferOutput<typeof ItemReference>;

const FunctionTool = v.object({
  type: v.literal("function"),
  name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "function names are 1–64 letters, digits, _ or -")),
  description: v.optional(v.nullable(v.string())),
  parameters: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  strict: v.optional(v.nullable(v.boolean())),
});

const Tool = v.pipe(
  loose({ type: v.string() }),
  v.check(
    (t) => t.type === "function",
    (issue) => `tool type "${String((issue.input as { type: unknown }).type)}" is not available yet: only function tools are (hosted tools such as web_search and remote MCP are planned)`,
  ),
  FunctionTool,
);

const ToolChoice = v.union([
  v.picklist(["none", "auto", "required"]),
  v.object({ type: v.literal("function"), name: v.string() }),
  v.object({
    type: v.literal("allowed_tools"),
    mode: v.picklist(["auto", "required"]),
    tools: v.array(v.object({ type: v.literal("function"), name: v.string() })),
  }),
], 'tool_choice must be "none", "auto", "required", {type:"function",name} or {type:"allowed_tools",mode,tools}');

const TextFormat = v.variant("type", [
  v.object({ type: v.literal("text") }),
  v.object({ type: v.literal("json_object") }),
  v.object({
    type: v.literal("json_schema"),
    name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "text.format.name is 1–64 letters, digits, _ or -")),
    schema: v.record(v.string(), v.unknown()),
    description: v.optional(v.nullable(v.string())),
    strict: v.optional(v.nullable(v.boolean())),
  }),
], "text.format type must be text, json_object or json_schema");

export const Metadata = v.pipe(
  // valibot's record takes an array for an object (its indexes as keys): refused first.
  v.custom<Record<string, unknown>>((m) => typeof m === "object" && m !== null && !Array.isArray(m), "metadata must be an object of strings, not an array"),
  v.record(
    v.pipe(v.string(), v.maxLength(64, "metadata keys are at most 64 characters")),
    v.pipe(v.string("metadata values must be strings"), v.maxLength(512, "metadata values are at most 512 characters")),
  ),
  v.check((m) => Object.keys(m).length <= 16, "metadata holds at most 16 pairs"),
);

/** An end user's id: printable text (a NUL or a line break would reach logs and stored rows). */
export const UserId = v.pipe(
  v.string(), v.minLength(1, "user must not be empty"), v.maxLength(256, "user is at most 256 characters"),
  v.regex(/^[^\p{Cc}]*$/u, "user must not hold control characters"),
);

const INCLUDABLE = [
  "file_search_call.results", "web_search_call.results", "web_search_call.action.sources", "message.input_image.image_url",
  "computer_call_output.output.image_url", "code_interpreter_call.outputs", "reasoning.encrypted_content", "message.output_text.logprobs",
] as const;

const ConversationRef = v.union([v.string(), v.object({ id: v.string() })], "conversation must be an id or {id}");

/** Fields shared by responses.create, input_tokens and compact. */
const Common = {
  model: v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\/\S+$/, "model must look like {provider}/{model}, e.g. openai/gpt-4o")),
  input: v.optional(v.union([v.string(), v.array(v.unknown())], "input must be a string or an array of input items")),
  instructions: v.optional(v.nullable(v.string())),
  previous_response_id: v.optional(v.nullable(v.string())),
  conversation: v.optional(v.nullable(ConversationRef)),
  tools: v.optional(v.nullable(v.array(Tool))),
  tool_choice: v.optional(v.nullable(ToolChoice)),
  parallel_tool_calls: v.optional(v.nullable(v.boolean())),
  text: v.optional(v.nullable(loose({ format: v.optional(TextFormat), verbosity: v.optional(v.picklist(["low", "medium", "high"])) }))),
};

/**
 * Input items checked one by one, so that a refusal names the item and what is wrong with it (a
 * union of string and array would only say that neither matched).
 */
const withItems = <T extends v.GenericSchema<unknown, { input?: string | unknown[] }>>(schema: T) => v.pipe(
  schema,
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const body = dataset.value;
    if (!Array.isArray(body.input)) return body as typeof body & { input?: string | InputItemIn[] };
    const items: InputItemIn[] = [];
    for (const [i, raw] of body.input.entries()) {
      const r = v.safeParse(InputItem, raw);
      if (!r.success) {
        const where = v.getDotPath(r.issues[0]);
        addIssue({ message: `input[${i}]${where ? `.${where}` : ""}: ${r.issues[0].message}` });
        return NEVER;
      }
      items.push(r.output);
    }
    return { ...body, input: items };
  }),
);

const CreateFields = v.object({
  ...Common,
  stream: v.optional(v.nullable(v.boolean())),
  background: v.optional(v.nullable(v.boolean())),
  store: v.optional(v.nullable(v.boolean())),
  temperature: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(2)))),
  top_p: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(1)))),
  max_output_tokens: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(16, "max_output_tokens must be at least 16")))),
  metadata: v.optional(v.nullable(Metadata)),
  include: v.optional(v.nullable(v.array(v.picklist(INCLUDABLE, `include entries must be one of ${INCLUDABLE.join(", ")}`)))),
  truncation: v.optional(v.nullable(v.picklist(["auto", "disabled"]))),
  user: v.optional(v.nullable(UserId)),
  safety_identifier: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64)))),
  prompt_cache_key: v.optional(v.nullable(v.string())),
  service_tier: v.optional(v.nullable(v.string())),
  byok: v.optional(v.object({ provider: v.pipe(v.string(), v.minLength(1)), encryptedApiKey: v.pipe(v.string(), v.minLength(1)) })),
});
/** The create fields without the item check, for frames that add fields of their own (WebSocket). */
export const CreateEntries = CreateFields.entries;
export const CreateBody = withItems(CreateFields);
export type CreateBody = v.InferOutput<typeof CreateBody>;
export { withItems };

/** input_tokens takes the same fields; model may be left out there (the estimate needs none). */
export const InputTokensBody = withItems(v.object({ ...Common, model: v.optional(Common.model) }));
export type InputTokensBody = v.InferOutput<typeof InputTokensBody>;

export const CompactBody = withItems(v.object({ ...Common, prompt_cache_key: v.optional(v.nullable(v.string())) }));
export type CompactBody = v.InferOutput<typeof CompactBody>;
