// Shared by every authenticated route: Bearer key → organization, or 401 authentication_error.
import { findOrganizationById, verifyApiKey, type Db, type Organization } from "../db/index.ts";
import { HttpError } from "./errors.ts";

export async function authenticate(db: Db, req: Request): Promise<Organization> {
  const header = req.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new HttpError(401, "missing API key: send Authorization: Bearer <key>", { code: "missing_api_key" });
  const key = await verifyApiKey(db, match[1]);
  const org = key && (await findOrganizationById(db, key.organization_id));
  if (!org) throw new HttpError(401, "invalid or revoked API key", { code: "invalid_api_key" });
  return org;
}
