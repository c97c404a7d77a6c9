// The hosted-tool loop of one Responses turn: before the first model call, each hosted tool starts
// (an MCP server's tools listed, or a list an earlier turn made reused) and calls approved in the
// request's input run; after each model call, the hosted calls it made are run by the service
// (their items and events in the one stream), their results fed back, and the model called again,
// until it answers, calls an application tool, or a call waits for approval. max_tool_calls bounds
// the calls, TESSERA_MAX_TOOL_ROUNDS the model calls (the last one is told to answer).
import { citationsIn, type UrlCitation } from "../../../responses/citations.ts";
import type { EventBridge, HostedCall } from "../../../responses/events.ts";
import { argumentsDelta, closingEvents, openingEvents } from "../../../responses/hosted-events.ts";
import type { ChatRequest } from "../../../providers/types.ts";
import type { ResponseEvent } from "../../../responses/stream-events.ts";
import type { FunctionToolOut } from "../../../responses/types.ts";
import type { AppDeps } from "../../context.ts";
import { HttpError } from "../../errors.ts";
import { PaidCall } from "../../paid.ts";
import { callOutput, type CallOutcome, type HostedContext, type HostedRun, type HostedTool } from "../../hosted/registry.ts";
import type { PreparedTurn } from "./prepare.ts";
import { TOOL_CALL } from "./price.ts";

const NOT_RUN_LIMIT = "Not run: this response reached its limit of hosted tool calls (max_tool_calls). Answer with what you have.";

export class ToolLoop {
  private readonly ctx: HostedContext;
  private readonly tools: HostedTool[];
  /** What the model was told of each hosted call of this turn, by item id. */
  private readonly told = new Map<string, string>();
  private readonly sources: { url: string; title: string }[] = [];
  private started: HostedRun["item"][] = [];
  private resumed: HostedRun[] = [];
  /** Hosted calls made (max_tool_calls counts them) and model calls opened. */
  private calls = 0;
  private rounds = 0;
  private billed = 0;

  constructor(
    private readonly deps: AppDeps,
    private readonly t: PreparedTurn,
    private readonly billing: { requestId: string },
    signal: AbortSignal,
  ) {
    this.tools = t.hosted!.tools;
    this.ctx = {
      deps,
      org: t.org,
      context: t.context,
      store: t.settings.store,
      include: t.body.include ?? [],
      signal,
      turn: { provider: t.provider!, model: t.settings.model, userId: t.userId, conversationId: t.conversationId },
    };
  }

  /** Lists tools (HttpError 424 when a server cannot list them) and finds the approved calls to run. */
  async start(): Promise<void> {
    // Several servers list their tools at the same time; their items keep the order of `tools`.
    this.started = (await Promise.all(this.tools.map((x) => x.start?.(this.ctx) ?? []))).flat();
    const fnNames = new Set(this.t.body.tools?.filter((x) => x.type === "function").map((x) => (x as { name: string }).name));
    const seen = new Set<string>();
    for (const d of this.tools.flatMap((x) => x.declarations())) {
      if (fnNames.has(d.name) || seen.has(d.name))
        throw new HttpError(400, `two tools are offered to the model as ${d.name}: rename the function tool or change a server_label`, { param: "tools" });
      seen.add(d.name);
    }
    this.resumed = this.tools.flatMap((x) => x.resumed?.(this.ctx) ?? []);
  }

  /** Whether approved calls run before the first model call (which then opens after them). */
  get hasResumed(): boolean {
    return this.resumed.length > 0;
  }

  isHosted = (name: string): boolean => this.tools.some((x) => x.owns(name));

  annotate = (text: string): UrlCitation[] => citationsIn(text, this.sources);

  private get budget(): number {
    return (this.t.body.max_tool_calls ?? Infinity) - this.calls;
  }

  /** Whether the last allowed model call has been made. */
  get lastRound(): boolean {
    return this.rounds >= this.t.hosted!.config.maxToolRounds;
  }

  /**
   * The chat request of the next model call. The first keeps the request's tool_choice; later
   * ones are "auto", and "none" once the calls or rounds are spent (the model must answer).
   */
  async nextChat(output: PreparedTurn["context"]): Promise<ChatRequest> {
    this.rounds++;
    const spent = this.budget <= 0 || this.lastRound;
    const toolChoice = spent ? "none" : this.rounds === 1 ? (this.t.body.tool_choice ?? undefined) : "auto";
    const hosted: FunctionToolOut[] = this.tools.flatMap((x) => x.declarations());
    return this.t.chatFor({ output, hosted, toolChoice, resultText: (id) => this.told.get(id) });
  }

  /** The start's items (tool lists), finished, with their events. */
  *startEvents(bridge: EventBridge): Generator<ResponseEvent> {
    for (const item of this.started) {
      const index = bridge.add(item);
      yield* openingEvents(item, index);
      yield* closingEvents(item, index);
    }
    this.started = [];
  }

  takeResumed(): HostedRun[] {
    const r = this.resumed;
    this.resumed = [];
    return r;
  }

  /** The runs of a model call's hosted calls; past the budget, runs that only say so. */
  runsFor(calls: HostedCall[]): HostedRun[] {
    return calls.map((c) => {
      const run = this.tools.find((x) => x.owns(c.name))!.call(c, this.ctx);
      if (run.item.type === "mcp_approval_request") return run;
      if (this.budget <= 0) return this.refused(run, NOT_RUN_LIMIT);
      this.calls++;
      return run;
    });
  }

  /** A run that does not reach its tool: its item failed, the model told why. */
  private refused(run: HostedRun, why: string): HostedRun {
    return {
      item: run.item,
      run: async () => {
        const item = run.item;
        if (item.type === "mcp_call") {
          item.error = { type: "mcp_protocol_error", code: -32000, message: why };
          item.status = "failed";
        } else if (item.type === "web_search_call" || item.type === "image_search_call") item.status = "failed";
        else if (item.type === "function_call") {
          item.arguments ||= "{}";
          item.status = "completed";
          return { ran: false, output: callOutput(item, why) };
        }
        return { ran: false, modelText: why };
      },
    };
  }

  /**
   * Runs calls: their items open in order, run (at the same time when parallel_tool_calls allows)
   * and close in order; a function_call's arguments stream while it runs, its output item follows
   * it. Returns whether the turn stops here (a call awaits approval).
   */
  async *run(bridge: EventBridge, runs: HostedRun[]): AsyncGenerator<ResponseEvent, { pause: boolean }> {
    const parallel = this.t.body.parallel_tool_calls !== false;
    let pause = false;
    const at = runs.map((r) => bridge.add(r.item));
    // Events of runs under way (arguments written as they run), sent while waiting for a run to end.
    const live: ResponseEvent[] = [];
    let wake: (() => void) | null = null;
    const writer = (i: number) => (delta: string) => {
      live.push(argumentsDelta(runs[i]!.item, at[i]!, delta));
      wake?.();
    };
    const finish = async (r: HostedRun, i: number) => {
      const outcome = await this.paid(r, writer(i));
      if (outcome.modelText !== undefined) this.told.set(r.item.id, outcome.modelText);
      if (outcome.sources) this.sources.push(...outcome.sources);
      pause ||= outcome.pause === true;
      return outcome;
    };
    // A run's closing events, in the runs' order: its item's, then its output item's (added here, so
    // that output indexes follow the order the events are sent in).
    const closing = (r: HostedRun, i: number, outcome: CallOutcome) => {
      const events = closingEvents(r.item, at[i]!);
      if (outcome.output) {
        const index = bridge.add(outcome.output);
        events.push(...openingEvents(outcome.output, index), ...closingEvents(outcome.output, index));
      }
      return events;
    };
    // Waits for a run to end, sending the live events meanwhile.
    async function* ended(p: Promise<CallOutcome>): AsyncGenerator<ResponseEvent, CallOutcome> {
      let result: { ok: true; outcome: CallOutcome } | { ok: false; error: unknown } | null = null;
      p.then(
        (outcome) => (result = { ok: true, outcome }),
        (error) => (result = { ok: false, error }),
      ).finally(() => wake?.());
      for (;;) {
        while (live.length) yield live.shift()!;
        if (result) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      const r = result as { ok: true; outcome: CallOutcome } | { ok: false; error: unknown };
      if (!r.ok) throw r.error;
      return r.outcome;
    }
    if (parallel) {
      for (const [i, r] of runs.entries()) yield* openingEvents(r.item, at[i]!);
      const done = runs.map((r, i) => finish(r, i));
      // A run's failure is thrown where it is awaited; the others' must not be left unhandled.
      for (const d of done) d.catch(() => {});
      for (const [i, d] of done.entries()) yield* closing(runs[i]!, i, yield* ended(d));
    } else {
      for (const [i, r] of runs.entries()) {
        yield* openingEvents(r.item, at[i]!);
        yield* closing(r, i, yield* ended(finish(r, i)));
      }
    }
    return { pause };
  }

  /** One run on the paid-call path: its price (TESSERA_TOOL_PRICE, or the tool's own) held first, charged only when it ran. */
  private async paid(r: HostedRun, write: (delta: string) => void): Promise<CallOutcome> {
    const spec = r.price ?? TOOL_CALL;
    if (r.item.type === "mcp_approval_request" || spec.price(this.deps.config) <= 0) return r.run(write);
    const call = new PaidCall(this.deps, this.t.org, spec, "/v1/embed/responses", `${this.billing.requestId}:tool:${++this.billed}`, performance.now());
    call.model = this.t.settings.model;
    try {
      await call.hold();
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      return this.refused(r, `Not run: ${e.message}.`).run();
    }
    let outcome: CallOutcome = { ran: false };
    try {
      outcome = await r.run(write);
      return outcome;
    } finally {
      const what = r.item.type === "function_call" ? r.item.name : r.item.type;
      await call.finish({
        charged: outcome.ran,
        status: outcome.ran ? 200 : 502,
        outcome: `tool:${what}:${outcome.ran ? "ran" : "not_run"}`,
        tokens: outcome.tokens ?? null,
      });
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.tools.map((x) => x.close?.().catch(() => {})));
  }
}
