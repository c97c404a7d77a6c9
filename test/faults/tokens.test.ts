// Revocation is immediate on every replica: a frontend token minted through one replica dies on
// both the moment its key is revoked or its organization suspended (through the CLI, another
// process), and the operator can end one user's tokens by user id (API and CLI).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createOrganization, openDatabase, type Db } from "../../src/db/index.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
let fresh: TestDatabase;
let db: Db;
let dir: string;
let replicas: ServerProcess[] = [];

beforeAll(async () => {
  fresh = await freshDatabase(undefined, "tokens");
  db = await openDatabase(fresh.target);
  dir = mkdtempSync(join(tmpdir(), "tessera-tokens-"));
  const env = { TESSERA_DB: fresh.target, TESSERA_MASTER_KEY: randomBytes(32).toString("base64"), TESSERA_DATA_DIR: dir };
  replicas = [await startServerProcess(env), await startServerProcess(env)];
});
afterAll(async () => {
  for (const r of replicas) await r.stop("SIGKILL");
  await db?.destroy();
  await fresh?.drop();
  rmSync(dir, { recursive: true, force: true });
});

function cli(...args: string[]) {
  const r = Bun.spawnSync([process.execPath, "src/cli/main.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, TESSERA_DB: fresh.target },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`tessera ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

async function mint(base: string, key: string, user: string): Promise<string> {
  const res = await fetch(`${base}/v1/frontend-tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ user }),
  });
  expect(res.status).toBe(200);
  return (await res.json()).token;
}

/** What each replica answers a token on a Conversations route. */
async function use(token: string): Promise<{ status: number; code: string | null }[]> {
  return Promise.all(
    replicas.map(async (r) => {
      const res = await fetch(`${r.base}/v1/conversations`, { headers: { authorization: `Bearer ${token}` } });
      const body = await res.json();
      return { status: res.status, code: body.error?.code ?? null };
    }),
  );
}

const live = [
  { status: 200, code: null },
  { status: 200, code: null },
];
const dead = [
  { status: 401, code: "token_revoked" },
  { status: 401, code: "token_revoked" },
];

test("a token dies on every replica when the key that minted it is revoked; one minted by another key lives", async () => {
  const org = await createOrganization(db, "keyrev", 0);
  const a = await createApiKey(db, org.id);
  const b = await createApiKey(db, org.id);
  const fromA = await mint(replicas[0]!.base, a.key, "u1");
  const fromB = await mint(replicas[1]!.base, b.key, "u1");
  expect(await use(fromA)).toEqual(live);
  cli("key", "revoke", a.prefix);
  expect(await use(fromA)).toEqual(dead);
  expect(await use(fromB)).toEqual(live);
});

test("a token dies while its organization is suspended, and works again once it is resumed", async () => {
  const org = await createOrganization(db, "suspended", 0);
  const { key } = await createApiKey(db, org.id);
  const token = await mint(replicas[0]!.base, key, "u1");
  expect(await use(token)).toEqual(live);
  cli("org", "suspend", "suspended");
  expect(await use(token)).toEqual(dead);
  cli("org", "resume", "suspended");
  expect(await use(token)).toEqual(live);
});

test("an operator ends one user's tokens by user id (API, then CLI): others' tokens and newer ones live", async () => {
  const org = await createOrganization(db, "userrev", 0);
  const { key } = await createApiKey(db, org.id);
  const [alice, bob] = [await mint(replicas[0]!.base, key, "alice"), await mint(replicas[0]!.base, key, "bob")];
  const res = await fetch(`${replicas[1]!.base}/v1/frontend-tokens/revoke`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ user: "alice" }),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ object: "frontend_tokens.revoked", user: "alice" });
  expect(await use(alice)).toEqual(dead);
  expect(await use(bob)).toEqual(live);
  const aliceAgain = await mint(replicas[0]!.base, key, "alice");
  expect(await use(aliceAgain)).toEqual(live);

  expect(cli("token", "revoke", "--org", "userrev", "bob")).toContain("revoked every frontend token");
  expect(await use(bob)).toEqual(dead);
  expect(await use(aliceAgain)).toEqual(live);
  // A token cannot revoke: it is the API key's to do.
  const byToken = await fetch(`${replicas[0]!.base}/v1/frontend-tokens/revoke`, {
    method: "POST",
    headers: { authorization: `Bearer ${aliceAgain}`, "content-type": "application/json" },
    body: JSON.stringify({ user: "alice" }),
  });
  expect(byToken.status).toBe(403);
});
