// The answer while the database is in trouble (../db/trouble.ts): 503 service_unavailable with
// Retry-After, never a 500, and one log line that names the trouble.
import { RETRY_AFTER_SECONDS, TROUBLE_TEXT, type Trouble } from "../db/trouble.ts";
import { HttpError } from "./errors.ts";

export function unavailable(trouble: Trouble): HttpError {
  const wait = RETRY_AFTER_SECONDS[trouble];
  return new HttpError(503, `${TROUBLE_TEXT[trouble]}: try again in ${wait} s`, {
    code: "service_unavailable",
    headers: { "retry-after": String(wait) },
  });
}

/** The log line: the trouble by name, then the database's own words (never a secret: no URL, no values). */
export function troubleLine(trouble: Trouble, where: string, e: unknown): string {
  return `database trouble (${trouble}) in ${where}: ${TROUBLE_TEXT[trouble]}: ${e instanceof Error ? e.message : String(e)}`;
}
