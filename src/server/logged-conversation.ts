// What a request log keeps of a request's messages. An accepted request: the conversation, with
// its library config block replaced by the block's hash (the block itself is stored once per
// distinct text, in log_libraries). A rejected request (400/413/429): a bounded excerpt only, so a
// flood of refused 1 MB bodies cannot fill the disk.
import { createHash } from "node:crypto";
import { isConfigBlock } from "../client/config-block.ts";
import type { LoggedLibrary } from "../db/index.ts";

/**
 * Bytes (UTF-8) of a rejected request's messages kept in its log: enough to see what was sent.
 * Under 2 KB so that, with the row's other columns, four such logs share one 8 KB SQLite page
 * (2,048 fit three: 2.8 MB per 1,000 rejected requests instead of 2.1 MB, bench/db-growth.ts).
 */
export const REJECTED_EXCERPT_BYTES = 1800;

export interface LoggedConversation {
  conversation: string;
  library: LoggedLibrary | null;
}

type Message = { role?: unknown; content?: unknown };

function text(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  return content
    .map((p) =>
      p && typeof p === "object" && (p as { type?: unknown }).type === "text" && typeof (p as { text?: unknown }).text === "string"
        ? (p as { text: string }).text
        : "",
    )
    .join("");
}

/** The conversation of an accepted request: its first config block (a system or developer turn) by hash. */
export function acceptedConversation(messages: readonly unknown[]): LoggedConversation {
  const at = messages.findIndex((m) => {
    const role = (m as Message | null)?.role;
    return role === "system" || role === "developer";
  });
  const block = at < 0 ? null : text((messages[at] as Message).content);
  if (block === null || !isConfigBlock(block)) return { conversation: JSON.stringify(messages), library: null };
  const hash = createHash("sha256").update(block, "utf8").digest("hex");
  const out = messages.slice();
  out[at] = { role: (messages[at] as Message).role, library_hash: hash };
  return { conversation: JSON.stringify(out), library: { hash, config: block } };
}

/** At most REJECTED_EXCERPT_BYTES of the messages' JSON, marked as an excerpt when cut. */
export function rejectedExcerpt(messages: unknown): string {
  const whole = messages === undefined ? "null" : JSON.stringify(messages);
  if (whole.length <= REJECTED_EXCERPT_BYTES / 4 || Buffer.byteLength(whole, "utf8") <= REJECTED_EXCERPT_BYTES) return whole;
  const marker = `… [excerpt: ${whole.length} characters in all]`;
  const room = REJECTED_EXCERPT_BYTES - Buffer.byteLength(marker, "utf8");
  // Cut at a byte bound, then drop a character the cut split in two.
  const head = Buffer.from(whole, "utf8")
    .subarray(0, room)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return head + marker;
}
