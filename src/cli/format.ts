// Human-readable FixError lines for validate and fix.
import type { FixError } from "../lang/types.ts";

export function formatError(e: FixError): string {
  const where = [e.statementId && `statement ${e.statementId}`, e.component && `component ${e.component}`, e.path && `at ${e.path}`].filter(Boolean).join(", ");
  return `${e.code}${where ? ` (${where})` : ""}: ${e.message}`;
}
