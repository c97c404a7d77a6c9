// Frontend tokens (spec 5.3): what a browser holds instead of the API key. A token names the
// organization, the application's user, its scopes and its expiry, signed with HMAC-SHA-256
// under a key derived from the master key (so every replica with the same master key accepts it).
// `tft_<base64url(JSON payload)>.<base64url(signature)>`; the signature is compared in constant time.
import { timingSafeEqual } from "node:crypto";
import type { Keyring } from "./keyring.ts";

export const TOKEN_PREFIX = "tft_";
export const SCOPES = ["conversations:read", "conversations:write", "responses:create", "chat:create", "artifacts:read", "artifacts:write"] as const;
export type Scope = (typeof SCOPES)[number];
/** What a token minted without `scopes` may do: its user's conversations (no model turns). */
export const DEFAULT_SCOPES: Scope[] = ["conversations:read", "conversations:write"];

export interface TokenClaims {
  organizationId: number;
  userId: string;
  scopes: Scope[];
  /** Unix seconds. */
  expiresAt: number;
  /** The token's own id (its spending is kept under it). */
  id?: string;
  /** `{provider}/{model}` ids it may call; null: any the organization may. */
  models?: string[] | null;
  /** What it may spend in its life; null: no limit of its own. */
  maxCredits?: number | null;
  /** The API key that minted it: revoking the key ends the token. Absent in tokens minted before it was recorded. */
  keyId?: number;
  /** When it was minted (ms): revoking the user's tokens ends those minted until then. */
  issuedAt?: number;
}

async function sign(keys: Keyring, payload: string): Promise<Buffer> {
  const key = await keys.hmacKey("frontend-token/v1");
  return Buffer.from(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(payload)));
}

export async function mintToken(keys: Keyring, c: TokenClaims): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify({
      v: 1,
      o: c.organizationId,
      u: c.userId,
      s: c.scopes,
      e: c.expiresAt,
      k: c.keyId,
      i: c.issuedAt,
      j: c.id ?? crypto.randomUUID(),
      m: c.models ?? null,
      c: c.maxCredits ?? null,
    }),
  ).toString("base64url");
  return `${TOKEN_PREFIX}${payload}.${(await sign(keys, payload)).toString("base64url")}`;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: "malformed" | "signature" | "expired" };

export async function verifyToken(keys: Keyring, token: string, now = Date.now() / 1000): Promise<TokenCheck> {
  const body = token.slice(TOKEN_PREFIX.length);
  const dot = body.indexOf(".");
  if (!token.startsWith(TOKEN_PREFIX) || dot < 1 || body.length > 4096) return { ok: false, reason: "malformed" };
  const payload = body.slice(0, dot);
  const given = Buffer.from(body.slice(dot + 1), "base64url");
  const expected = await sign(keys, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "signature" };
  let p: { v?: number; o?: unknown; u?: unknown; s?: unknown; e?: unknown; k?: unknown; i?: unknown; j?: unknown; m?: unknown; c?: unknown };
  try {
    p = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (p.v !== 1 || typeof p.o !== "number" || typeof p.u !== "string" || !Array.isArray(p.s) || typeof p.e !== "number") {
    return { ok: false, reason: "malformed" };
  }
  if (p.e <= now) return { ok: false, reason: "expired" };
  const keyId = typeof p.k === "number" ? p.k : undefined;
  const issuedAt = typeof p.i === "number" ? p.i : undefined;
  const models = Array.isArray(p.m) ? p.m.filter((m): m is string => typeof m === "string") : null;
  const claims = { organizationId: p.o, userId: p.u, scopes: p.s.filter((s): s is Scope => SCOPES.includes(s)), expiresAt: p.e, keyId, issuedAt };
  return { ok: true, claims: { ...claims, id: typeof p.j === "string" ? p.j : "", models, maxCredits: typeof p.c === "number" ? p.c : null } };
}
