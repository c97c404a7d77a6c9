// local/… → an OpenAI-compatible server the operator runs (vLLM, llama.cpp, Ollama…).
// No key needed; LOCAL_API_KEY is sent when set. Many such servers know only `max_tokens` and
// may not support stream_options, so usage is asked for only when the client asked.
import { openAICompatible } from "./openai-compatible.ts";

export const local = openAICompatible({
  name: "local",
  keyEnv: null,
  baseUrlEnv: "LOCAL_BASE_URL",
  defaultBaseUrl: null,
  legacyMaxTokens: true,
  alwaysStreamUsage: false,
});
