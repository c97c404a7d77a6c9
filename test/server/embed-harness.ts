// The real server plus one stand-in per provider wire, its configuration pointing Tessera at them.
import { afterAll, beforeAll, beforeEach } from "bun:test";
import OpenAI from "openai";
import { loadLanguage } from "../../src/lang/index.ts";
import { startFakeAnthropic, startFakeGemini, startFakeOpenAI, type FakeProvider } from "../support/fake-providers.ts";
import type { ServerConfig } from "../../src/server/config.ts";
import { startHarness, type Harness } from "./harness.ts";

export interface EmbedHarness {
  h: Harness;
  openai: FakeProvider;
  anthropic: FakeProvider;
  gemini: FakeProvider;
  aggregator: FakeProvider;
  local: FakeProvider;
  client(key: string): OpenAI;
  reset(): void;
  close(): Promise<void>;
}

export const KEYS = { openai: "sk-server-openai", anthropic: "sk-ant-server", gemini: "gem-server", openrouter: "or-server" };

export async function startEmbedHarness(overrides: Partial<ServerConfig> = {}): Promise<EmbedHarness> {
  const fakes = {
    openai: startFakeOpenAI(),
    anthropic: startFakeAnthropic(),
    gemini: startFakeGemini(),
    aggregator: startFakeOpenAI(),
    local: startFakeOpenAI(),
  };
  const h = await startHarness({
    providers: {
      OPENAI_BASE_URL: fakes.openai.url,
      OPENAI_API_KEY: KEYS.openai,
      ANTHROPIC_BASE_URL: fakes.anthropic.url,
      ANTHROPIC_API_KEY: KEYS.anthropic,
      GEMINI_BASE_URL: fakes.gemini.url,
      GEMINI_API_KEY: KEYS.gemini,
      OPENROUTER_BASE_URL: fakes.aggregator.url,
      OPENROUTER_API_KEY: KEYS.openrouter,
      LOCAL_BASE_URL: fakes.local.url,
    },
    ...overrides,
  });
  return {
    h,
    ...fakes,
    client: (key) => new OpenAI({ baseURL: `${h.base}/v1/embed`, apiKey: key, maxRetries: 0 }),
    reset() {
      for (const f of Object.values(fakes)) {
        f.calls.length = 0;
        f.queue.length = 0;
        f.requireKey = null;
        f.contextLimit = null;
      }
      h.server.config.embedPrice = 0;
    },
    async close() {
      for (const f of Object.values(fakes)) f.stop();
      await h.close();
    },
  };
}

/** A test file's embed harness: started before its tests with one org of `credits`, reset before each test, closed after. */
export interface EmbedSuite {
  E: EmbedHarness;
  key: string;
  client: OpenAI;
}

export function embedSuite(org: string, credits: number, overrides: Partial<ServerConfig> = {}): EmbedSuite {
  const suite = {} as EmbedSuite;
  beforeAll(async () => {
    await loadLanguage();
    suite.E = await startEmbedHarness(overrides);
    suite.key = await suite.E.h.org(org, credits);
    suite.client = suite.E.client(suite.key);
  });
  afterAll(() => suite.E?.close());
  beforeEach(() => suite.E.reset());
  return suite;
}
