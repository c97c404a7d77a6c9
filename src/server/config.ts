// Environment → server settings, read once at start. Secrets stay here and are never logged.
export interface FixingModelConfig {
  provider: "openai";
  model: string;
  baseUrl: string;
  apiKey: string;
}

export interface ServerConfig {
  port: number;
  dbPath: string;
  retentionDays: number;
  autofixPrice: number;
  fixingModel: FixingModelConfig | null;
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number >= 0, got ${JSON.stringify(value)}`);
  return n;
}

export function fixingModelFromEnv(env: Record<string, string | undefined>): FixingModelConfig | null {
  const spec = env.TESSERA_AUTOFIX_MODEL;
  if (!spec) return null;
  const slash = spec.indexOf("/");
  const provider = spec.slice(0, slash);
  const model = spec.slice(slash + 1);
  if (slash < 1 || !model) throw new Error(`TESSERA_AUTOFIX_MODEL must look like openai/<model>, got ${JSON.stringify(spec)}`);
  if (provider !== "openai") {
    throw new Error(`TESSERA_AUTOFIX_MODEL: only the openai provider is supported for the fixing model so far, got ${provider}`);
  }
  return {
    provider,
    model,
    baseUrl: (env.OPENAI_BASE_URL || "https://api.openai.com/v1").replace(/\/+$/, ""),
    apiKey: env.OPENAI_API_KEY ?? "",
  };
}

export function configFromEnv(env: Record<string, string | undefined> = process.env): ServerConfig {
  return {
    port: intFrom(env.PORT, 8787, "PORT"),
    dbPath: env.TESSERA_DB || "./data/tessera.db",
    retentionDays: intFrom(env.TESSERA_LOG_RETENTION_DAYS, 30, "TESSERA_LOG_RETENTION_DAYS"),
    autofixPrice: intFrom(env.TESSERA_AUTOFIX_PRICE, 1, "TESSERA_AUTOFIX_PRICE"),
    fixingModel: fixingModelFromEnv(env),
  };
}
