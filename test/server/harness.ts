// Test harness: the real server (startServer from src/server/main.ts) on a free loopback port with
// a fresh database (a SQLite file, or a PostgreSQL database when TESSERA_TEST_DB=postgres or the
// caller asks for one), plus organizations and keys made through the real db layer.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshDatabase, testDatabaseKind, type DatabaseKind } from "../support/postgres.ts";
import { createApiKey, createOrganization, findOrganizationByName } from "../../src/db/index.ts";
import { serverConfig, type ServerConfig } from "../../src/server/config.ts";
import { startServer, type RunningServer } from "../../src/server/main.ts";
import { writeConfigBlock } from "../../src/client/config-block.ts";
import { STACK_TEXT_LIBRARY } from "../support/stack-text-library.ts";

export interface Harness {
  server: RunningServer;
  base: string;
  dir: string;
  /** The database it runs on, and where (TESSERA_DB: a file path or a postgres:// URL). */
  database: DatabaseKind;
  target: string;
  /** Every line the server logged. */
  lines: string[];
  /** Creates an organization with a key; returns the key. */
  org(name: string, credits: number): Promise<string>;
  credits(name: string): Promise<number>;
  close(): Promise<void>;
}

export async function startHarness(overrides: Partial<ServerConfig> = {}, database: DatabaseKind = testDatabaseKind()): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), "tessera-test-"));
  const lines: string[] = [];
  const fresh = await freshDatabase(database, "harness");
  const server = await startServer(serverConfig({ port: 0, dbPath: fresh.target, dataDir: dir, ...overrides }), { log: (line) => lines.push(line) });
  return {
    server,
    base: server.url,
    dir,
    database,
    target: fresh.target,
    lines,
    async org(name, credits) {
      const org = await createOrganization(server.db, name, credits);
      return (await createApiKey(server.db, org.id)).key;
    },
    async credits(name) {
      return (await findOrganizationByName(server.db, name))!.credits;
    },
    async close() {
      await server.stop();
      await fresh.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small library: enough components to write valid and broken programs by hand. */
export const SMALL_LIBRARY = STACK_TEXT_LIBRARY;

export const CONFIG = writeConfigBlock({ chatLibrary: SMALL_LIBRARY });
export const VALID = `root = Stack([greeting])\ngreeting = Text("Hello", "large")`;
/** `TEXT` is a misspelt `Text` (an unknown component): the sanitizer maps it back. */
export const BROKEN = `root = Stack([greeting])\ngreeting = TEXT("Hello", "large")`;
export const FIXED = VALID;
/** Nothing the sanitizer can keep: no component of the library at all. */
export const HOPELESS = `root = Zqxwv([Plmok("a")])`;

export function autofixBody(generation: string, extra: Record<string, unknown> = {}, context: unknown[] = []) {
  return {
    model: "anything/ignored",
    messages: [{ role: "system", content: CONFIG }, ...context, { role: "assistant", content: generation }],
    ...extra,
  };
}

export async function post(base: string, path: string, key: string | null, body: unknown, headers: Record<string, string> = {}) {
  return fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
