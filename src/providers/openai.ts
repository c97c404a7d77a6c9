// openai/… → OpenAI Chat Completions, the wire the client already speaks.
import { openAICompatible } from "./openai-compatible.ts";

export const openai = openAICompatible({
  name: "openai",
  keyEnv: "OPENAI_API_KEY",
  baseUrlEnv: "OPENAI_BASE_URL",
  defaultBaseUrl: "https://api.openai.com/v1",
  legacyMaxTokens: false,
  alwaysStreamUsage: true,
});
