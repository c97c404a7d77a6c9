// The configuration is read once, at start: each setting from its variable, a bad value refused
// naming the variable, and nothing past start reads the environment.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { configFromEnv, ConfigError, SETTINGS, serverConfig } from "../../src/server/config.ts";

test("unset or empty, every setting takes its default", () => {
  const config = configFromEnv({});
  const blank = configFromEnv(Object.fromEntries(Object.values(SETTINGS).map((s) => [s.variable, ""])));
  for (const [field, s] of Object.entries(SETTINGS)) {
    expect([field, config[field as keyof typeof SETTINGS]]).toEqual([field, s.fallback]);
    expect([field, blank[field as keyof typeof SETTINGS]]).toEqual([field, s.fallback]);
  }
  expect(config.providers).toEqual({});
  expect(config.fixingModel).toBeNull();
});

test("values are read and typed", () => {
  const config = configFromEnv({
    PORT: "9000",
    TESSERA_DB_POOL: "0",
    TESSERA_CORS_ORIGINS: " https://a.example , https://b.example,",
    TESSERA_LEASE_SECONDS: "5",
    TESSERA_SHUTDOWN_GRACE_MS: "300",
    OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    OPENAI_API_KEY: "sk-x",
    UNRELATED: "ignored",
  });
  expect(config.port).toBe(9000);
  expect(config.dbPoolSize).toBe(1);
  expect(config.corsOrigins).toEqual(["https://a.example", "https://b.example"]);
  expect(config.leaseSeconds).toBe(5);
  expect(config.shutdownGraceMs).toBe(300);
  expect(config.providers).toEqual({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "sk-x" });
});

test("a bad value stops the start with a message naming the variable", () => {
  const bad: Record<string, string> = {
    PORT: "70000",
    TESSERA_DB_POOL: "ten",
    TESSERA_LOG_RETENTION_DAYS: "-1",
    TESSERA_LEASE_SECONDS: "1.5",
    TESSERA_SHUTDOWN_GRACE_MS: "soon",
    TESSERA_AUTOFIX_PRICE: "1e3",
    TESSERA_EMBED_PRICE: "0x10",
    TESSERA_RESPONSES_PRICE: "1000000000000001",
    OPENAI_BASE_URL: "not a url",
    ANTHROPIC_BASE_URL: "ftp://x.example",
    TESSERA_AUTOFIX_MODEL: "no-slash",
  };
  for (const [name, value] of Object.entries(bad)) {
    let error: unknown = null;
    try {
      configFromEnv({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect([name, error instanceof ConfigError]).toEqual([name, true]);
    expect((error as Error).message).toContain(name);
  }
  // The fixing model needs its provider's key: named too.
  expect(() => configFromEnv({ TESSERA_AUTOFIX_MODEL: "openai/gpt-4.1-mini" })).toThrow("OPENAI_API_KEY");
  expect(configFromEnv({ TESSERA_AUTOFIX_MODEL: "openai/gpt-4.1-mini", OPENAI_API_KEY: "sk" }).fixingModel).toMatchObject({
    provider: "openai",
    model: "gpt-4.1-mini",
  });
});

test("serverConfig fills what a test does not say with the defaults", () => {
  expect(serverConfig({ port: 0, embedPrice: 2 })).toEqual({ ...configFromEnv({}), port: 0, embedPrice: 2 });
});

test("past start, no server, provider or database module reads process.env", () => {
  const root = join(import.meta.dir, "../../src");
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith(".ts") ? [join(dir, f)] : []));
  const readers = ["server", "providers", "db", "responses"]
    .flatMap((d) => files(join(root, d)))
    .filter((f) => /process\.env\b/.test(readFileSync(f, "utf8").replace(/\/\/.*$/gm, "")))
    .map((f) => f.slice(root.length + 1));
  // main.ts reads it once, as the process starts, into the configuration.
  expect(readers).toEqual(["server/main.ts"]);
});
