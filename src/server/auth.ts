// Shared by every authenticated route. An API key (server side) reaches everything of its
// organization; a frontend token (browser side) reaches only what its scopes name (its user's
// conversations; model turns on Responses and Embed, within its models and budget): anywhere else
// it is a 403, never a 401 (it is a valid credential). A token comes as `Authorization: Bearer`
// or, as OpenUI's cloud storage sends it, as `x-thesys-frontend-token`.
import { findKeyOwner, findOrganizationById, type Db, type Organization } from "../db/index.ts";
import { HttpError } from "./errors.ts";
import { TOKEN_PREFIX, verifyToken, type Scope } from "./crypto/frontend-tokens.ts";

export type Principal =
  | { kind: "key"; org: Organization }
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
export async function authenticate(db: Db, req: Request): Promise<Organization> {
  const principal = await authenticatePrincipal(db, req);
  if (principal.kind === "token") {
    throw new HttpError(403, "a frontend token reaches only the Conversations routes and, with the scopes for them, model turns; this route needs the API key (server side)", { code: "token_not_allowed" });
  }
  return principal.org;
}

/** An API key or a frontend token. */
export async function authenticatePrincipal(db: Db, req: Request): Promise<Principal> {
  const secret = bearer(req);
  if (secret.startsWith(TOKEN_PREFIX)) {
    const check = await verifyToken(secret);
    if (!check.ok) {
      throw new HttpError(401, check.reason === "expired" ? "the frontend token has expired: mint a new one" : "invalid frontend token", { code: check.reason === "expired" ? "token_expired" : "invalid_token" });
    }
    const org = await findOrganizationById(db, check.claims.organizationId);
    if (!org) throw new HttpError(401, "invalid frontend token", { code: "invalid_token" });
    const c = check.claims;
    return { kind: "token", org, userId: c.userId, scopes: c.scopes, tokenId: c.id ?? "", models: c.models ?? null, maxCredits: c.maxCredits ?? null };
  }
  const org = (await findKeyOwner(db, secret))?.org;
  if (!org) throw new HttpError(401, "invalid or revoked API key", { code: "invalid_api_key" });
  return { kind: "key", org };
}

/** A token needs the scope; an API key has every scope. */
export function requireScope(p: Principal, scope: Scope): void {
  if (p.kind === "token" && !p.scopes.includes(scope)) {
    throw new HttpError(403, `this frontend token lacks the ${scope} scope`, { code: "insufficient_scope" });
  }
}

/** An API key, or a frontend token with `scope` (a model turn: its models and budget are checked once the request is read). */
export async function authenticateFor(db: Db, req: Request, scope: Scope): Promise<Principal> {
  const principal = await authenticatePrincipal(db, req);
  requireScope(principal, scope);
  return principal;
}

/** A token limited to some models may call only those. */
export function requireModel(p: Principal, model: string): void {
  if (p.kind === "token" && p.models !== null && !p.models.includes(model)) {
    throw new HttpError(403, `this frontend token may not call ${model}: it is limited to ${p.models.join(", ")}`, { code: "model_not_allowed", param: "model" });
  }
}
