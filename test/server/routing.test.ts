// Health, unknown routes, wrong methods, authentication and the shape of every error body.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { revokeApiKeys } from "../../src/db/index.ts";
import { autofixBody, post, startHarness, VALID, type Harness } from "./harness.ts";

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  key = await h.org("acme", 5);
});
afterAll(() => h.close());

test("GET /health answers without a key", async () => {
  const res = await fetch(h.base + "/health");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: "ok" });
});

test("unknown route is 404 not_found_error in the wire-format body", async () => {
  const res = await fetch(h.base + "/v1/nothing-here");
  expect(res.status).toBe(404);
  const body = await res.json();
  expect(body).toEqual({ error: { message: expect.any(String), type: "not_found_error", param: null, code: null } });
});

test("wrong method on a known route is 405 with Allow", async () => {
  const res = await fetch(h.base + "/v1/autofix");
  expect(res.status).toBe(405);
  expect(res.headers.get("allow")).toBe("POST");
  expect((await res.json()).error.type).toBe("invalid_request_error");
});

test("missing key is 401 authentication_error", async () => {
  const res = await post(h.base, "/v1/autofix", null, autofixBody(VALID));
  expect(res.status).toBe(401);
  expect((await res.json()).error.type).toBe("authentication_error");
});

test("unknown key and malformed header are 401", async () => {
  for (const auth of [`Bearer tsk_${"x".repeat(43)}`, "Bearer", "Basic abc", `Bearer ${key}x`]) {
    const res = await fetch(h.base + "/v1/autofix", { method: "POST", headers: { authorization: auth }, body: "{}" });
    expect(res.status).toBe(401);
    expect((await res.json()).error.type).toBe("authentication_error");
  }
});

test("revoked key is 401; a fresh key of the same org still works", async () => {
  const doomed = await h.org("revokes", 5);
  expect((await post(h.base, "/v1/autofix", doomed, autofixBody(VALID))).status).toBe(200);
  expect(await revokeApiKeys(h.server.db, doomed.slice(0, 12))).toBe(1);
  const res = await post(h.base, "/v1/autofix", doomed, autofixBody(VALID));
  expect(res.status).toBe(401);
  expect((await res.json()).error.type).toBe("authentication_error");
});

test("keys are stored only as SHA-256 hashes", async () => {
  const rows = await h.server.db.selectFrom("api_keys").selectAll().execute();
  for (const row of rows) {
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.includes(row.key_hash)).toBe(false);
  }
  expect(key.length).toBeGreaterThanOrEqual(4 + 43); // tsk_ + base64url of 32 bytes
});

test("monitoring needs a key", async () => {
  expect((await fetch(h.base + "/v1/monitoring/reliability")).status).toBe(401);
  const res = await fetch(h.base + "/v1/monitoring/reliability", { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
});
