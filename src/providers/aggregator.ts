// Any provider without its own adapter → the aggregator's OpenAI-compatible API (OpenRouter
// and the like), which takes the full `{provider}/{model}` id as the model.
import { openAICompatible } from "./openai-compatible.ts";

export const aggregator = openAICompatible({
  name: "aggregator",
  keyEnv: "OPENROUTER_API_KEY",
  baseUrlEnv: "OPENROUTER_BASE_URL",
  defaultBaseUrl: "https://openrouter.ai/api/v1",
  legacyMaxTokens: true,
  alwaysStreamUsage: true,
});
