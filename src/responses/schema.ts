// The responses.create body (OpenAI's Responses API; docs/responses.md), checked at the edge with valibot.
// Unknown fields are dropped; what Tessera cannot honour (other hosted tools, file ids) is refused by name.
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
const Part = v.variant(
  "type",
  [InputText, OutputText, PlainText, Refusal, InputImage, InputFile],
  "content parts must be input_text, output_text, refusal, input_image or input_file",
);
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
  type: v.literal("function_call"),
  id: Id,
  call_id: v.pipe(v.string(), v.minLength(1)),
  name: v.string(),
  arguments: v.string(),
  status: Status,
});
const FunctionCallOutput = loose({
  type: v.literal("function_call_output"),
  id: Id,
  call_id: v.pipe(v.string(), v.minLength(1)),
  output: v.union([v.string(), v.array(Part)]),
  status: Status,
});
const Reasoning = loose({ type: v.literal("reasoning"), id: Id, summary: v.optional(v.array(v.unknown())) });
const Compaction = loose({ type: v.literal("compaction"), id: Id, encrypted_content: v.string() });
const McpApprovalResponse = loose({
  type: v.literal("mcp_approval_response"),
  id: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(128)))),
  approval_request_id: v.pipe(v.string(), v.minLength(1)),
  approve: v.boolean("approve must be true or false"),
  reason: v.optional(v.nullable(v.string())),
});
const McpApprovalRequest = loose({
  type: v.literal("mcp_approval_request"),
  id: v.pipe(v.string(), v.minLength(1)),
  server_label: v.string(),
  name: v.string(),
  arguments: v.string(),
});
const McpCall = loose({
  type: v.literal("mcp_call"),
  id: v.pipe(v.string(), v.minLength(1)),
  server_label: v.string(),
  name: v.string(),
  arguments: v.string(),
  output: v.optional(v.nullable(v.string())),
  error: v.optional(v.nullable(v.unknown())),
  approval_request_id: v.optional(v.nullable(v.string())),
});
const McpListTools = loose({
  type: v.literal("mcp_list_tools"),
  id: v.pipe(v.string(), v.minLength(1)),
  server_label: v.string(),
  tools: v.array(loose({ name: v.string() })),
});
const WebSearchCall = loose({ type: v.literal("web_search_call"), id: v.pipe(v.string(), v.minLength(1)), action: v.optional(loose({ type: v.string() })) });
const ImageSearchCall = loose({
  type: v.literal("image_search_call"),
  id: v.pipe(v.string(), v.minLength(1)),
  action: v.optional(loose({ type: v.string() })),
});
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
      addIssue({
        message: `input item type "${type}" is not supported: send message, function_call, function_call_output, reasoning, compaction, item_reference, mcp_approval_response or earlier hosted-tool items`,
      });
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
  message: Message,
  function_call: FunctionCall,
  function_call_output: FunctionCallOutput,
  reasoning: Reasoning,
  compaction: Compaction,
  item_reference: ItemReference,
  mcp_approval_response: McpApprovalResponse,
  mcp_approval_request: McpApprovalRequest,
  mcp_call: McpCall,
  mcp_list_tools: McpListTools,
  web_search_call: WebSearchCall,
  image_search_call: ImageSearchCall,
};

export type InputItemIn =
  | v.InferOutput<typeof Message>
  | v.InferOutput<typeof FunctionCall>
  | v.InferOutput<typeof FunctionCallOutput>
  | v.InferOutput<typeof Reasoning>
  | v.InferOutput<typeof Compaction>
  | v.InferOutput<typeof ItemReference>
  | v.InferOutput<typeof McpApprovalResponse>;

const FunctionTool = v.object({
  type: v.literal("function"),
  name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "function names are 1–64 letters, digits, _ or -")),
  description: v.optional(v.nullable(v.string())),
  parameters: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  strict: v.optional(v.nullable(v.boolean())),
});

const ToolFilter = v.object({ read_only: v.optional(v.nullable(v.boolean())), tool_names: v.optional(v.nullable(v.array(v.string()))) });
const Label = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "server_label is 1–64 letters, digits, _ or -"));

const McpTool = v.object({
  type: v.literal("mcp"),
  server_label: Label,
  server_url: v.pipe(v.string("server_url is required: connector_id and tunnel_id are not available here"), v.url("server_url must be an absolute URL")),
  server_description: v.optional(v.nullable(v.string())),
  authorization: v.optional(v.nullable(v.string())),
  headers: v.optional(v.nullable(v.record(v.string(), v.string("header values must be strings")))),
  allowed_tools: v.optional(v.nullable(v.union([v.array(v.string()), ToolFilter], "allowed_tools must be a list of tool names or {read_only, tool_names}"))),
  require_approval: v.optional(
    v.nullable(
      v.union(
        [v.picklist(["always", "never"]), v.object({ always: v.optional(v.nullable(ToolFilter)), never: v.optional(v.nullable(ToolFilter)) })],
        'require_approval must be "always", "never" or {always, never}',
      ),
    ),
  ),
});

const WEB_SEARCH_TYPES = ["web_search", "web_search_2025_08_26", "web_search_preview", "web_search_preview_2025_03_11"] as const;
const WebSearchTool = v.object({
  type: v.picklist(WEB_SEARCH_TYPES),
  filters: v.optional(
    v.nullable(v.object({ allowed_domains: v.optional(v.nullable(v.pipe(v.array(v.string()), v.maxLength(100, "at most 100 allowed_domains")))) })),
  ),
  search_context_size: v.optional(v.nullable(v.picklist(["low", "medium", "high"]))),
  user_location: v.optional(
    v.nullable(
      v.object({
        type: v.optional(v.literal("approximate")),
        city: v.optional(v.nullable(v.string())),
        country: v.optional(v.nullable(v.string())),
        region: v.optional(v.nullable(v.string())),
        timezone: v.optional(v.nullable(v.string())),
      }),
    ),
  ),
  external_web_access: v.optional(v.nullable(v.boolean())),
  search_content_types: v.optional(v.nullable(v.array(v.string()))),
});

const ImageSearchTool = v.object({
  type: v.literal("image_search"),
  filters: v.optional(v.nullable(v.object({ allowed_domains: v.optional(v.nullable(v.array(v.string()))) }))),
  search_context_size: v.optional(v.nullable(v.picklist(["low", "medium", "high"]))),
});

/** What @openuidev/thesys-server's artifactTool() writes; `artifacts` left out enables every kind. */
const ArtifactTool = v.object({
  type: v.literal("artifact"),
  artifacts: v.optional(
    v.nullable(
      v.array(
        v.object({
          artifact_type: v.picklist(["slides", "report"], 'artifact_type must be "slides" or "report"'),
          instruction: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(4000, "an artifact's instruction is at most 4000 characters")))),
          library_version: v.optional(v.nullable(v.string())),
        }),
      ),
    ),
  ),
});

const TOOL_SCHEMAS: Record<string, v.GenericSchema> = {
  function: FunctionTool,
  mcp: McpTool,
  image_search: ImageSearchTool,
  artifact: ArtifactTool,
  ...Object.fromEntries(WEB_SEARCH_TYPES.map((t) => [t, WebSearchTool])),
};

/** One tool: its schema is read off `type`; a type Tessera has no runner for is refused by name. */
const Tool = v.pipe(
  loose({ type: v.string() }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const schema = TOOL_SCHEMAS[dataset.value.type];
    if (!schema) {
      addIssue({
        message: `tool type "${dataset.value.type}" is not available: the tools are function, mcp, web_search (and its dated and preview aliases), image_search and artifact`,
      });
      return NEVER;
    }
    const r = v.safeParse(schema, dataset.value);
    if (!r.success) {
      for (const issue of r.issues) addIssue({ message: issue.message, path: issue.path as never });
      return NEVER;
    }
    return r.output as ToolIn;
  }),
);

export type FunctionToolIn = v.InferOutput<typeof FunctionTool>;
export type McpToolIn = v.InferOutput<typeof McpTool>;
export type WebSearchToolIn = v.InferOutput<typeof WebSearchTool>;
export type ImageSearchToolIn = v.InferOutput<typeof ImageSearchTool>;
export type ArtifactToolIn = v.InferOutput<typeof ArtifactTool>;
export type ToolIn = FunctionToolIn | McpToolIn | WebSearchToolIn | ImageSearchToolIn | ArtifactToolIn;

const ToolChoice = v.union(
  [
    v.picklist(["none", "auto", "required"]),
    v.object({ type: v.literal("function"), name: v.string() }),
    v.object({ type: v.literal("mcp"), server_label: v.string(), name: v.optional(v.nullable(v.string())) }),
    v.object({ type: v.picklist([...WEB_SEARCH_TYPES, "image_search"]) }),
    v.object({
      type: v.literal("allowed_tools"),
      mode: v.picklist(["auto", "required"]),
      tools: v.array(v.object({ type: v.literal("function"), name: v.string() })),
    }),
  ],
  'tool_choice must be "none", "auto", "required", {type:"function",name}, {type:"mcp",server_label,name?}, {type:"web_search"}, {type:"image_search"} or {type:"allowed_tools",mode,tools}',
);

export type ToolChoiceIn = v.InferOutput<typeof ToolChoice>;

const TextFormat = v.variant(
  "type",
  [
    v.object({ type: v.literal("text") }),
    v.object({ type: v.literal("json_object") }),
    v.object({
      type: v.literal("json_schema"),
      name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "text.format.name is 1–64 letters, digits, _ or -")),
      schema: v.record(v.string(), v.unknown()),
      description: v.optional(v.nullable(v.string())),
      strict: v.optional(v.nullable(v.boolean())),
    }),
  ],
  "text.format type must be text, json_object or json_schema",
);

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
  v.string(),
  v.minLength(1, "user must not be empty"),
  v.maxLength(256, "user is at most 256 characters"),
  v.regex(/^[^\p{Cc}]*$/u, "user must not hold control characters"),
);

const INCLUDABLE = [
  "file_search_call.results",
  "web_search_call.results",
  "web_search_call.action.sources",
  "message.input_image.image_url",
  "computer_call_output.output.image_url",
  "code_interpreter_call.outputs",
  "reasoning.encrypted_content",
  "message.output_text.logprobs",
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
  max_tool_calls: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1, "max_tool_calls must be at least 1")))),
  text: v.optional(v.nullable(loose({ format: v.optional(TextFormat), verbosity: v.optional(v.picklist(["low", "medium", "high"])) }))),
};

/**
 * Input items checked one by one, so that a refusal names the item and what is wrong with it (a
 * union of string and array would only say that neither matched).
 */
const withItems = <T extends v.GenericSchema<unknown, { input?: string | unknown[] }>>(schema: T) =>
  v.pipe(
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
