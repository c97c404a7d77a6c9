// The one paid-call path, for every surface and transport (JSON, SSE, WebSocket, background work):
// the price is checked and held before the work (one atomic UPDATE, so concurrent calls never
// overspend; 429 with x-should-retry:false when the organization cannot pay, as retrying would not
// help), then the call ends exactly once: its hold settled (charged, or handed back) together with
// its request log and reliability event in one transaction (../db/billing.ts), or, refused before
// it was accepted, a log with a bounded excerpt of what was sent. app.ts runs every paid route
// through `paidWork`, so a handler only says how its call ended; whatever escapes it ends the call.
import {
  canAfford,
  chargeOutright,
  findOrganizationById,
  handBackLater,
  holdCredits,
  settle,
  writeRequestLog,
  type Organization,
  type Settlement,
} from "../db/index.ts";
import type { ServerConfig } from "./config.ts";
import type { AppDeps } from "./context.ts";
import { HttpError } from "./errors.ts";
import { acceptedConversation, rejectedExcerpt, type LoggedConversation } from "./logged-conversation.ts";

/** What a surface's paid routes have in common. */
export interface PaidSpec {
  /** Named in the 429 ("no credits left for …"). */
  surface: string;
  /** The ledger row's reason. */
  reason: string;
  /** Credits per call, from the configuration (read when the call starts). */
  price: (config: ServerConfig) => number;
  /** The model a log names until the request has named its own. */
  model?: string;
  /** What an accepted call's log keeps of its input: by default chat messages, the library block by hash. */
  logged?: (input: unknown) => LoggedConversation;
}

/** How a call ended. */
export interface CallEnd {
  /** The price is charged; else the hold goes back. */
  charged: boolean;
  status: number;
  outcome: string;
  tokens?: { input: number | null; output: number | null } | null;
  /** A managed-UI check's result, for reliability monitoring. */
  event?: { outcome: string; corrected: string[] } | null;
}

export function outOfCredits(org: Organization, surface: string): HttpError {
  return new HttpError(429, org.suspended ? "billing is suspended for this organization" : `this organization has no credits left for ${surface}`, {
    code: org.suspended ? "billing_suspended" : "insufficient_credits",
    headers: { "x-should-retry": "false" },
  });
}

export class PaidCall {
  /** The model the log names. */
  model: string;
  /** The request's input as sent (chat messages, Responses input items): what its log keeps. */
  input: unknown = undefined;
  /** Credits held for this call (0 before the hold, or when the price is 0). */
  held = 0;
  readonly price: number;
  private ended = false;
  /** Runs once if the call ends uncharged (a frontend token's budget gets its share back). */
  private uncharged: (() => Promise<void>) | null = null;

  constructor(
    readonly deps: AppDeps,
    readonly org: Organization,
    readonly spec: PaidSpec,
    /** The route's path, as logged. */
    readonly endpoint: string,
    readonly requestId: string,
    readonly startedAt: number,
  ) {
    this.model = spec.model ?? "unknown";
    this.price = spec.price(deps.config);
  }

  /** A call whose hold was taken by another request (a background job run by another process). */
  static resumed(deps: AppDeps, org: Organization, spec: PaidSpec, endpoint: string, requestId: string, held: number): PaidCall {
    const call = new PaidCall(deps, org, spec, endpoint, requestId, performance.now());
    call.held = held;
    return call;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** The 429 unless the organization can pay now: for work that comes before the hold (or without one). */
  checkAffordable(): void {
    if (!canAfford(this.org, this.price)) throw outOfCredits(this.org, this.spec.surface);
  }

  /** Holds the price for this call, or throws the 429. */
  async hold(): Promise<void> {
    this.checkAffordable();
    const { db } = this.deps;
    if (!(await holdCredits(db, this.org.id, this.price, this.requestId))) {
      throw outOfCredits((await findOrganizationById(db, this.org.id)) ?? this.org, this.spec.surface);
    }
    this.held = this.price;
  }

  /** `undo` runs once when the call ends without being charged. */
  onUncharged(undo: () => Promise<void>): void {
    this.uncharged = undo;
  }

  /**
   * The call's settlement, for a caller that writes it in its own transaction (a Responses turn
   * stores its end with it): the call counts as ended from here.
   */
  settlement(end: CallEnd): Settlement {
    this.ended = true;
    const undo = end.charged ? null : this.uncharged;
    this.uncharged = null;
    if (undo) void undo().catch((e) => this.deps.log(`${this.spec.surface} ${this.requestId}: could not give back: ${(e as Error).message}`));
    const { conversation, library } = (this.spec.logged ?? loggedChat)(this.input);
    return {
      orgId: this.org.id,
      requestId: this.requestId,
      held: this.held,
      charge: end.charged ? this.held : 0,
      reason: this.spec.reason,
      library,
      log: {
        endpoint: this.endpoint,
        model: this.model,
        status: end.status,
        conversation,
        outcome: end.outcome,
        duration_ms: Math.round(performance.now() - this.startedAt),
        input_tokens: end.tokens?.input ?? null,
        output_tokens: end.tokens?.output ?? null,
      },
      event: end.event
        ? { model: this.model, endpoint: this.endpoint, outcome: end.event.outcome, corrected_codes: JSON.stringify(end.event.corrected) }
        : undefined,
    };
  }

  /**
   * Ends the call: its hold settled with its log and event, in one transaction. A call without a
   * hold is charged outright (its work done first: nothing can be lost between check and charge):
   * false, with nothing written, when the organization cannot pay now.
   */
  async finish(end: CallEnd): Promise<boolean> {
    if (this.ended) return true;
    this.ended = true;
    let paid: boolean;
    try {
      paid = await this.write(end);
    } catch (e) {
      // Not recorded (the database is in trouble): the caller answers an error, and the hold goes
      // back, uncharged, once the database takes the write.
      if (this.held > 0) handBackLater(this.deps.db, this.requestId, this.deps.log);
      throw e;
    }
    if (!paid) this.ended = false;
    return paid;
  }

  private async write(end: CallEnd): Promise<boolean> {
    const s = this.settlement(end);
    if (this.held > 0) {
      await settle(this.deps.db, s);
      return true;
    }
    return chargeOutright(this.deps.db, { ...s, charge: end.charged ? this.price : 0 });
  }

  /** Ends the call after the response has gone out (gateway latency); a stopping server waits for it. */
  finishLater(end: CallEnd): void {
    if (this.ended) return;
    this.ended = true;
    this.deps.background.later(`${this.spec.surface} ${this.requestId}: record`, () => this.write(end));
  }

  /** Ends the call at a stream's end: tracked, so that a stopping server waits for it; a failure is logged. */
  finishTracked(end: CallEnd): Promise<unknown> {
    return this.deps.background.track(
      this.finish(end).catch((e) => this.deps.log(`${this.spec.surface} ${this.requestId}: could not record: ${(e as Error).message}`)),
    );
  }

  /** The 429 for a call the organization could not pay after all (fresh balance, or suspension). */
  async outOfCredits(): Promise<HttpError> {
    return outOfCredits((await findOrganizationById(this.deps.db, this.org.id)) ?? this.org, this.spec.surface);
  }

  /**
   * A call that ends by an error it did not handle: a hold is handed back with the call's log;
   * a call refused before its hold leaves a log with a bounded excerpt of what was sent, queued
   * (written after the answer has gone out, so that a flood of refusals costs no transaction each).
   */
  async fail(e: unknown): Promise<void> {
    if (this.ended) return;
    const status = e instanceof HttpError ? e.status : 500;
    const outcome = e instanceof HttpError ? "rejected" : "error";
    if (this.held > 0) {
      await this.finish({ charged: false, status, outcome }).catch((err) =>
        this.deps.log(`${this.spec.surface} ${this.requestId}: could not record: ${(err as Error).message}`),
      );
      return;
    }
    this.ended = true;
    writeRequestLog(this.deps.db, {
      request_id: this.requestId,
      organization_id: this.org.id,
      endpoint: this.endpoint,
      model: this.model,
      status,
      conversation: rejectedExcerpt(this.input),
      outcome,
      charge: 0,
      duration_ms: Math.round(performance.now() - this.startedAt),
    });
  }
}

function loggedChat(input: unknown): LoggedConversation {
  return acceptedConversation(Array.isArray(input) ? input : []);
}

/** Runs a paid call's work; whatever escapes it ends the call (see PaidCall.fail) on its way out. */
export async function paidWork<T>(call: PaidCall, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    await call.fail(e);
    throw e;
  }
}
