// POST /v1/frontend-tokens (API key only): a short-lived, scoped token for one of the
// application's users, for the browser: that user's conversations (spec 5.3), and, with the
// scopes for it, model turns (Responses, Embed) limited to some models and a lifetime budget.
// POST /v1/frontend-tokens/revoke (API key only): every token of one user minted so far is dead.
// A token also dies with the key that minted it and while its organization is suspended (auth.ts).
import * as v from "valibot";
import { MAX_CREDITS, recordTokenBudget, revokeUserTokens } from "../../../db/index.ts";
import { UserId } from "../../../responses/schema.ts";
import { readBody } from "../../body.ts";
import type { AuthedContext } from "../../context.ts";
import { DEFAULT_SCOPES, mintToken, SCOPES } from "../../crypto/frontend-tokens.ts";
import { HttpError } from "../../errors.ts";

const TTL = { min: 60, max: 3600, default: 900 } as const;

const Body = v.object({
  // Both spellings: OpenUI's documentation mints with `user_id`.
  user: v.optional(UserId),
  user_id: v.optional(UserId),
  ttl_seconds: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(TTL.min, `ttl_seconds must be at least ${TTL.min}`),
      v.maxValue(TTL.max, `ttl_seconds must be at most ${TTL.max}`),
    ),
  ),
  scopes: v.optional(v.pipe(v.array(v.picklist(SCOPES, `scopes are ${SCOPES.join(", ")}`)), v.minLength(1, "scopes must not be empty"))),
  models: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.regex(/^[^/\s]+\/\S+$/, "models are {provider}/{model} ids"), v.maxLength(256, "a model id is at most 256 characters"))),
      v.minLength(1, "models must not be empty (leave it out to allow every model)"),
      v.maxLength(100, "at most 100 models"),
    ),
  ),
  max_credits: v.optional(
    v.pipe(
      v.number(),
      v.integer("max_credits must be a whole number of credits"),
      v.minValue(0, "max_credits must be at least 0"),
      v.maxValue(MAX_CREDITS, `max_credits must be at most ${MAX_CREDITS}`),
    ),
  ),
});

export async function mintFrontendToken(ctx: AuthedContext<string, "key">): Promise<Response> {
  const { org, principal } = ctx;
  const body = await readBody(ctx.req, Body);
  if (body.user !== undefined && body.user_id !== undefined && body.user !== body.user_id) {
    throw new HttpError(400, "user and user_id name the same thing: send one of them", { param: "user_id" });
  }
  const user = body.user ?? body.user_id;
  if (user === undefined) throw new HttpError(400, "user_id (or user) is required: the application's user the token acts for", { param: "user_id" });
  const expiresAt = Math.floor(Date.now() / 1000) + (body.ttl_seconds ?? TTL.default);
  const scopes = [...new Set(body.scopes ?? DEFAULT_SCOPES)];
  const models = body.models ? [...new Set(body.models)] : null;
  const id = crypto.randomUUID();
  const maxCredits = body.max_credits ?? null;
  if (maxCredits !== null) await recordTokenBudget(ctx.deps.db, { tokenId: id, organizationId: org.id, maxCredits, expiresAt });
  const token = await mintToken(ctx.deps.keys, {
    organizationId: org.id,
    userId: user,
    scopes,
    expiresAt,
    keyId: principal.keyId,
    issuedAt: Date.now(),
    id,
    models,
    maxCredits,
  });
  return Response.json({
    token,
    expires_at: expiresAt,
    user,
    user_id: user,
    scopes,
    ...(models ? { models } : {}),
    ...(maxCredits !== null ? { max_credits: maxCredits } : {}),
  });
}

const RevokeBody = v.object({ user: UserId });

export async function revokeFrontendTokens(ctx: AuthedContext<string, "key">): Promise<Response> {
  const body = await readBody(ctx.req, RevokeBody);
  const at = await revokeUserTokens(ctx.deps.db, ctx.org.id, body.user);
  return Response.json({ object: "frontend_tokens.revoked", user: body.user, revoked_before: Math.floor(at / 1000) });
}
