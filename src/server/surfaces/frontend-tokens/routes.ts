// POST /v1/frontend-tokens (API key only): a short-lived, scoped token for one of the
// application's users, for the browser to reach that user's conversations (spec 5.3).
// POST /v1/frontend-tokens/revoke (API key only): every token of one user minted so far is dead.
// A token also dies with the key that minted it and while its organization is suspended (auth.ts).
import * as v from "valibot";
import { revokeUserTokens } from "../../../db/index.ts";
import { UserId } from "../../../responses/schema.ts";
import { readBody } from "../../body.ts";
import type { AuthedContext } from "../../context.ts";
import { mintToken, SCOPES } from "../../crypto/frontend-tokens.ts";

const TTL = { min: 60, max: 3600, default: 900 } as const;

const Body = v.object({
  user: UserId,
  ttl_seconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(TTL.min, `ttl_seconds must be at least ${TTL.min}`), v.maxValue(TTL.max, `ttl_seconds must be at most ${TTL.max}`))),
  scopes: v.optional(v.pipe(v.array(v.picklist(SCOPES, `scopes are ${SCOPES.join(" and ")}`)), v.minLength(1, "scopes must not be empty"))),
});

export async function mintFrontendToken(ctx: AuthedContext<string, "key">): Promise<Response> {
  const { org, principal } = ctx;
  const body = await readBody(ctx.req, Body);
  const expiresAt = Math.floor(Date.now() / 1000) + (body.ttl_seconds ?? TTL.default);
  const scopes = [...new Set(body.scopes ?? SCOPES)];
  const token = await mintToken(ctx.deps.keys, { organizationId: org.id, userId: body.user, scopes, expiresAt, keyId: principal.keyId, issuedAt: Date.now() });
  return Response.json({ token, expires_at: expiresAt, user: body.user, scopes });
}

const RevokeBody = v.object({ user: UserId });

export async function revokeFrontendTokens(ctx: AuthedContext<string, "key">): Promise<Response> {
  const body = await readBody(ctx.req, RevokeBody);
  const at = await revokeUserTokens(ctx.deps.db, ctx.org.id, body.user);
  return Response.json({ object: "frontend_tokens.revoked", user: body.user, revoked_before: Math.floor(at / 1000) });
}
