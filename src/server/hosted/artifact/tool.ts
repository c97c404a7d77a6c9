// The artifact tool of a Responses request ({"type": "artifact", "artifacts": [...]}, what
// @openuidev/thesys-server's artifactTool() writes): the model is offered thesys_generate_<kind> and
// thesys_edit_<kind> for each kind enabled, and the service runs each call itself as an artifact
// job (generation or edit, check, repair, a stored version; src/server/surfaces/artifacts/job.ts),
// paid as the artifact it is. Its items are what @openuidev/thesys's artifact renderers read: a
// function_call whose arguments, streamed as the program is written, are {artifact_id, type,
// artifact_type, instruction, artifact_content, name, version}, then a function_call_output
// `]]>openui:artifact {header}` + the stored program. A job that fails is an output saying why
// (nothing stored or charged); the model reads it and the turn goes on.
import * as v from "valibot";
import { findArtifact, type Owner } from "../../../db/index.ts";
import { ARTIFACT_KINDS, ARTIFACT_LIBRARY_VERSION, type ArtifactKind } from "../../../artifacts/kinds.ts";
import { ARTIFACT_ID } from "../../../artifacts/metadata.ts";
import type { ArtifactTask } from "../../../artifacts/produce.ts";
import { newId } from "../../../responses/ids.ts";
import type { ArtifactToolIn, ToolIn } from "../../../responses/schema.ts";
import type { FunctionCallItem, FunctionToolOut, Item } from "../../../responses/types.ts";
import { HttpError } from "../../errors.ts";
import { artifactModel, planEdit, runArtifactJob } from "../../surfaces/artifacts/job.ts";
import { ARTIFACT_TOOL_CALL } from "../../surfaces/artifacts/price.ts";
import { filled, readArguments } from "../arguments.ts";
import type { HostedToolsConfig } from "../config.ts";
import { callOutput, type CallOutcome, type HostedContext, type HostedRun, type HostedTool } from "../registry.ts";

/** The marker of an artifact result (OpenUI's `]]>openui:artifact` sentinel): a JSON header line, then the program. */
export const ARTIFACT_SENTINEL = "]]>openui:artifact ";

const WHAT: Record<ArtifactKind, { noun: string; unit: string }> = {
  slides: { noun: "slide deck", unit: "slides" },
  report: { noun: "report", unit: "pages" },
};

export const generateFunction = (kind: ArtifactKind) => `thesys_generate_${kind}`;
export const editFunction = (kind: ArtifactKind) => `thesys_edit_${kind}`;

interface Enabled {
  kind: ArtifactKind;
  instruction: string;
}

/** The kinds a tool entry enables (all when it names none), checked: a 400 names what is wrong. */
function enabledKinds(entry: ArtifactToolIn): Enabled[] {
  if (entry.artifacts == null) return ARTIFACT_KINDS.map((kind) => ({ kind, instruction: "" }));
  if (entry.artifacts.length === 0)
    throw new HttpError(400, "the artifact tool's artifacts list is empty: leave it out to enable every kind", { param: "tools" });
  const seen = new Set<string>();
  return entry.artifacts.map((a) => {
    if (seen.has(a.artifact_type)) throw new HttpError(400, `the artifact tool lists ${a.artifact_type} twice`, { param: "tools" });
    seen.add(a.artifact_type);
    if (a.library_version != null && a.library_version !== ARTIFACT_LIBRARY_VERSION) {
      throw new HttpError(
        400,
        `artifact library_version ${a.library_version} is not available: the ${a.artifact_type} library here is ${ARTIFACT_LIBRARY_VERSION}`,
        {
          param: "tools",
        },
      );
    }
    return { kind: a.artifact_type, instruction: a.instruction?.trim() ?? "" };
  });
}

function declarations(e: Enabled): FunctionToolOut[] {
  const { noun, unit } = WHAT[e.kind];
  const extra = e.instruction ? ` ${e.instruction}` : "";
  const instruction = { type: "string", description: `What the ${noun} should hold: its subject, audience, the ${unit} and the facts and figures to show` };
  return [
    {
      type: "function",
      name: generateFunction(e.kind),
      description: `Make a ${noun} the user sees beside the chat. It is stored; the result gives its artifact_id and program.${extra}`,
      parameters: { type: "object", properties: { instruction }, required: ["instruction"], additionalProperties: false },
      strict: true,
    },
    {
      type: "function",
      name: editFunction(e.kind),
      description: `Change a ${noun} made earlier (by its artifact_id): only what the instruction asks changes, and the result is its next version.${extra}`,
      parameters: {
        type: "object",
        properties: {
          artifact_id: { type: "string", description: `The artifact_id of the ${noun}, from the result that made it` },
          instruction: { type: "string", description: `What to change in the ${noun}` },
        },
        required: ["artifact_id", "instruction"],
        additionalProperties: false,
      },
      strict: true,
    },
  ];
}

/** The model's arguments: an instruction and, for an edit, the artifact's id (an empty one is none). */
export const ARTIFACT_ARGUMENTS = v.object({ instruction: filled, artifact_id: v.fallback(v.optional(filled), undefined) });

/** The program of the latest artifact result for `id` in the conversation (for an artifact not stored here). */
function programInContext(context: Item[], id: string): string {
  for (const item of [...context].reverse()) {
    if (item.type !== "function_call_output" || typeof item.output !== "string" || !item.output.startsWith(ARTIFACT_SENTINEL)) continue;
    const nl = item.output.indexOf("\n");
    try {
      const header = JSON.parse(item.output.slice(ARTIFACT_SENTINEL.length, nl < 0 ? undefined : nl)) as { artifact_id?: unknown };
      if (header.artifact_id === id && nl >= 0) return item.output.slice(nl + 1);
    } catch {
      // Not a header: not an artifact result.
    }
  }
  return "";
}

const newArtifactId = () => `art_${crypto.randomUUID().replaceAll("-", "")}`;

/** One call of the model's: the artifact job, its item's arguments written as the program comes. */
function artifactCall(e: Enabled, edit: boolean, item: FunctionCallItem, modelArguments: string, ctx: HostedContext): HostedRun {
  const { kind } = e;
  const { noun } = WHAT[kind];
  return {
    item,
    price: ARTIFACT_TOOL_CALL,
    async run(write = () => {}): Promise<CallOutcome> {
      const add = (text: string) => {
        item.arguments += text;
        write(text);
      };
      const failed = (why: string): CallOutcome => {
        item.status = "completed";
        return { ran: false, output: callOutput(item, `The ${noun} was not ${edit ? "changed" : "made"}: ${why}. Nothing was stored.`) };
      };
      const args = readArguments(ARTIFACT_ARGUMENTS, modelArguments);
      if (!args) {
        add(modelArguments || "{}");
        return failed(`call ${item.name} with ${edit ? '{"artifact_id": "…", "instruction": "…"}' : '{"instruction": "…"}'}`);
      }
      const id = edit ? args.artifact_id : newArtifactId();
      if (!id || !ARTIFACT_ID.test(id)) {
        add(modelArguments);
        return failed(id ? `${id} is no artifact id` : "the edit names no artifact_id");
      }
      // The arguments the front end reads: the header first (so that a partial read finds it), the program streamed into artifact_content.
      add(`${JSON.stringify({ artifact_id: id, type: kind, artifact_type: kind, instruction: args.instruction }).slice(0, -1)},"artifact_content":"`);
      const owner: Owner = { organizationId: ctx.org.id, userId: ctx.turn.userId };
      let task: ArtifactTask;
      let base: number | "latest" = "latest";
      try {
        if (edit) {
          // The latest stored version; an artifact not stored here, from the program the conversation holds.
          const stored = await findArtifact(ctx.deps.db, owner, id);
          if (stored && stored.kind !== kind)
            throw new HttpError(400, `${id} is a ${WHAT[stored.kind as ArtifactKind].noun}: edit it with ${editFunction(stored.kind as ArtifactKind)}`);
          const plan = await planEdit(ctx.deps.db, owner, {
            id,
            sent: stored ? "" : programInContext(ctx.context, id),
            baseVersion: null,
            fork: false,
            idParam: "artifact_id",
          });
          task = { kind: "edit", base: plan.program, instruction: args.instruction };
          base = plan.base;
        } else task = { kind: "generate", turns: [{ role: "user", content: args.instruction }] };
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        add('"}');
        return failed(err.message);
      }
      const outcome = await runArtifactJob(ctx.deps.db, {
        owner,
        id,
        kind,
        task,
        instructions: e.instruction,
        base,
        fork: false,
        userId: ctx.turn.userId,
        conversationId: ctx.turn.conversationId,
        complete: artifactModel(ctx.turn.provider, ctx.turn.model, {}, ctx.signal),
        fixer: ctx.deps.fixingModel,
        kindParam: null,
        onText: (text) => add(JSON.stringify(text).slice(1, -1)),
      });
      const usage = outcome.ok ? outcome.produced.usage : outcome.usage;
      const tokens = usage ? { input: usage.prompt_tokens, output: usage.completion_tokens } : undefined;
      if (!outcome.ok) {
        add('"}');
        return { ...failed(outcome.error.message.replace(/; nothing was stored or charged$/, "")), tokens };
      }
      const name = outcome.artifact.name;
      const version = String(outcome.version);
      add(`"${name ? `,"name":${JSON.stringify(name)}` : ""},"version":${JSON.stringify(version)}}`);
      item.status = "completed";
      const header = { artifact_id: id, type: kind, ...(name ? { name } : {}), version };
      return { ran: true, output: callOutput(item, `${ARTIFACT_SENTINEL}${JSON.stringify(header)}\n${outcome.produced.program}`), tokens };
    },
  };
}

export async function artifactTools(entries: ToolIn[], _config: HostedToolsConfig): Promise<HostedTool[]> {
  const list = entries.filter((t): t is ArtifactToolIn => t.type === "artifact");
  if (list.length === 0) return [];
  if (list.length > 1) throw new HttpError(400, "tools holds more than one artifact tool: list every kind in one entry's artifacts", { param: "tools" });
  const enabled = enabledKinds(list[0]!);
  const byName = new Map<string, { e: Enabled; edit: boolean }>();
  for (const e of enabled) {
    byName.set(generateFunction(e.kind), { e, edit: false });
    byName.set(editFunction(e.kind), { e, edit: true });
  }
  return [
    {
      kind: "artifact",
      declarations: () => enabled.flatMap(declarations),
      owns: (name) => byName.has(name),
      call(call, ctx): HostedRun {
        const { e, edit } = byName.get(call.name)!;
        const item: FunctionCallItem = {
          type: "function_call",
          id: newId("functionCall"),
          call_id: call.callId,
          name: call.name,
          arguments: "",
          status: "in_progress",
        };
        return artifactCall(e, edit, item, call.arguments, ctx);
      },
    },
  ];
}
