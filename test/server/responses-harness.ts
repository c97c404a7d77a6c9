// The real server with a stand-in per provider wire, each answering as an agent model would
// (agentResponder), and the official openai client configured twice, as the contract says:
// `<base>/v1/embed` for Responses, `<base>/v1` for Conversations.
import OpenAI from "openai";
import { eventually } from "../support/eventually.ts";
import { agentResponder, type FakeProvider } from "../support/fake-providers.ts";
import type { ServerConfig } from "../../src/server/config.ts";
import { startEmbedHarness, type EmbedHarness } from "./embed-harness.ts";

export interface ResponsesHarness {
  E: EmbedHarness;
  key: string;
  base: string;
  /** baseURL `<base>/v1/embed`: responses.* */
  responses: OpenAI;
  /** baseURL `<base>/v1`: conversations.* */
  conversations: OpenAI;
  /** The stand-in behind a model id. */
  fakeFor(model: string): FakeProvider;
  close(): Promise<void>;
}

/** One model id per provider route: direct ones, the aggregator, and a local server. */
export const PROVIDER_MODELS = ["openai/gpt-stand-in", "anthropic/claude-stand-in", "google/gemini-stand-in", "meta/llama-stand-in", "local/qwen-stand-in"];

export const WEATHER_TOOL = {
  type: "function" as const,
  name: "get_weather",
  description: "The weather now at a place",
  parameters: { type: "object", properties: { location: { type: "string", description: "A city" } }, required: ["location"], additionalProperties: false },
  strict: true,
};

export async function startResponsesHarness(orgName = "clients", overrides: Partial<ServerConfig> = {}): Promise<ResponsesHarness> {
  const E = await startEmbedHarness(overrides);
  for (const f of [E.openai, E.anthropic, E.gemini, E.aggregator, E.local]) f.responder = agentResponder;
  const key = await E.h.org(orgName, 1_000_000);
  const base = E.h.base;
  return {
    E,
    key,
    base,
    responses: new OpenAI({ baseURL: `${base}/v1/embed`, apiKey: key, maxRetries: 0 }),
    conversations: new OpenAI({ baseURL: `${base}/v1`, apiKey: key, maxRetries: 0 }),
    fakeFor(model) {
      const provider = model.split("/")[0];
      return provider === "openai"
        ? E.openai
        : provider === "anthropic"
          ? E.anthropic
          : provider === "google"
            ? E.gemini
            : provider === "local"
              ? E.local
              : E.aggregator;
    },
    close: () => E.close(),
  };
}

/** Polls until `check` holds (or throws after `ms`): test/support/eventually.ts. */
export const until = <T>(get: () => Promise<T>, check: (v: T) => boolean, ms = 10_000): Promise<T> => eventually(get, check, { ms });
