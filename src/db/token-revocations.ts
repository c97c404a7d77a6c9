// What a frontend token needs from the database on each use: its organization (and whether it is
// suspended), whether the API key that minted it is revoked, and whether the operator revoked its
// user's tokens since it was minted. One query; a token whose key or organization is gone is dead.
import type { Db } from "./connect.ts";
import type { Organization } from "./schema.ts";

export interface TokenStanding {
  org: Organization;
  /** The minting key is revoked (or gone). */
  keyRevoked: boolean;
  /** Tokens of this user minted at or before this moment (ms) are dead; null when never revoked. */
  revokedBefore: number | null;
}

export async function tokenStanding(db: Db, orgId: number, keyId: number | null, userId: string): Promise<TokenStanding | undefined> {
  const row = await db
    .selectFrom("organizations")
    .selectAll("organizations")
    .select((eb) => [
      eb
        .selectFrom("api_keys")
        .select("revoked_at")
        .where("id", "=", keyId ?? -1)
        .where("organization_id", "=", orgId)
        .as("key_revoked_at"),
      eb
        .selectFrom("api_keys")
        .select("id")
        .where("id", "=", keyId ?? -1)
        .where("organization_id", "=", orgId)
        .as("key_id"),
      eb.selectFrom("token_revocations").select("revoked_before").where("organization_id", "=", orgId).where("user_id", "=", userId).as("revoked_before"),
    ])
    .where("id", "=", orgId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { key_revoked_at, key_id, revoked_before, ...org } = row;
  return {
    org,
    keyRevoked: keyId !== null && (key_id === null || key_revoked_at !== null),
    revokedBefore: revoked_before === null ? null : Number(revoked_before),
  };
}

/** Every token of `userId` in the organization minted up to now is dead; returns that moment (ms). */
export async function revokeUserTokens(db: Db, orgId: number, userId: string, now = Date.now()): Promise<number> {
  await db
    .insertInto("token_revocations")
    .values({ organization_id: orgId, user_id: userId, revoked_before: now })
    .onConflict((oc) => oc.columns(["organization_id", "user_id"]).doUpdateSet({ revoked_before: now }))
    .execute();
  return now;
}
