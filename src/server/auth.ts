// Shared by every authenticated route. An API key (server side) reaches everything of its
// organization; a frontend token (browser side) reaches only what its scopes name (its user's
// conversations; model turns on Responses and Embed, within its models and budget): anywhere else
// it is a 403, never a 401 (it is a valid credential). A token comes as `Authorization: Bearer`
// or, as OpenUI's cloud storage sends it, as `x-thesys-frontend-token`.
import { findKeyOwner, tokenStanding, type Db, type Organization } from "../db/index.ts";
import type { Keyring } from "./crypto/keyring.ts";
import { HttpError } from "./errors.ts";
import { TOKEN_PREFIX, verifyToken, type Scope } from "./crypto/frontend-tokens.ts";

export type Principal =
  | { kind: "key"; org: Organization; keyId: number }
  | { kind: "token"; org: Organization; userId: string; scopes: Scope[]; tokenId: string; models: string[] | null; maxCredits: number | null };

export const TOKEN_HEADER = "x-thesys-frontend-token";

function bearer(req: Request): string {
  const header = req.headers.get("authorization") ?? "";
  const token = req.headers.get(TOKEN_HEADER)?.trim();
  if (!header && token) return token.startsWith(TOKEN_PREFIX) ? token : `${TOKEN_PREFIX}?`;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new HttpError(401, "missing API key: send Authorization: Bearer <key>", { code: "missing_api_key" });
  return match[1]!;
}

/** API key only: the routes a browser must never reach. */
export async function authenticate(db: Db, keys: Keyring, req: Request): Promise<Organization> {
  return (await authenticateKey(db, keys, req)).org;
}

/** API key only, with the key's id (a minted token names it). */
export async function authenticateKey(db: Db, keys: Keyring, req: Request): Promise<{ org: Organization; keyId: number }> {
  const principal = await authenticatePrincipal(db, keys, req);
  if (principal.kind === "token") {
    throw new HttpError(403, "a frontend token reaches only the Conversations routes and, with the scopes for them, model turns; this route needs the API key (server side)", { code: "token_not_allowed" });
  }
  return principal;
}

/** An API key or a frontend token. */
export async function authenticatePrincipal(db: Db, keys: Keyring, req: Request): Promise<Principal> {
  const secret = bearer(req);
  if (secret.startsWith(TOKEN_PREFIX)) {
    const check = await verifyToken(keys, secret);
    if (!check.ok) {
      throw new HttpError(401, check.reason === "expired" ? "the frontend token has expired: mint a new one" : "invalid frontend token", { code: check.reason === "expired" ? "token_expired" : "invalid_token" });
    }
    // Checked on every use, so that revocation is immediate on every replica.
    const { claims } = check;
    const standing = await tokenStanding(db, claims.organizationId, claims.keyId ?? null, claims.userId);
    if (!standing) throw new HttpError(401, "invalid frontend token", { code: "invalid_token" });
    const revoked = standing.keyRevoked
      ? "the API key that minted it was revoked"
      : standing.org.suspended
        ? "its organization is suspended"
        : standing.revokedBefore !== null && (claims.issuedAt ?? 0) <= standing.revokedBefore
          ? "its user's tokens were revoked"
          : null;
    if (revoked) throw new HttpError(401, `the frontend token is no longer valid: ${revoked}`, { code: "token_revoked" });
    return { kind: "token", org: standing.org, userId: claims.userId, scopes: claims.scopes, tokenId: claims.id ?? "", models: claims.models ?? null, maxCredits: claims.maxCredits ?? null };
  }
  const owner = await findKeyOwner(db, secret);
  if (!owner) throw new HttpError(401, "invalid or revoked API key", { code: "invalid_api_key" });
  return { kind: "key", org: owner.org, keyId: owner.key.id };
}

/** A token needs the scope; an API key has every scope. */
export function requireScope(p: Principal, scope: Scope): void {
  if (p.kind === "token" && !p.scopes.includes(scope)) {
    throw new HttpError(403, `this frontend token lacks the ${scope} scope`, { code: "insufficient_scope" });
  }
}

/** A token limited to some models may call only those. */
export function requireModel(p: Principal, model: string): void {
  if (p.kind === "token" && p.models !== null && !p.models.includes(model)) {
    throw new HttpError(403, `this frontend token may not call ${model}: it is limited to ${p.models.join(", ")}`, { code: "model_not_allowed", param: "model" });
  }
}
