// Database errors that are the database's state, not a bug: it cannot be reached (a restart, a
// failover, the network), it is busy (locked, a deadlock, out of connections), its disk is full,
// or it is read-only. Each is named here once, for both databases, so that a route answers 503
// with Retry-After (app.ts), /health reports it, and a transaction cut by it may run again.
import { isSqliteBusy } from "./sqlite-busy.ts";

export type Trouble = "unreachable" | "busy" | "disk_full" | "read_only" | "io_error";

/** What an operator reads in the log and a client in the 503's message. */
export const TROUBLE_TEXT: Record<Trouble, string> = {
  unreachable: "the database cannot be reached",
  busy: "the database is busy (locked)",
  disk_full: "the database's disk is full",
  read_only: "the database is read-only",
  io_error: "the database cannot read or write its files",
};

/** Seconds a client should wait before it tries again: a restart or a lock passes soon, a full disk does not. */
export const RETRY_AFTER_SECONDS: Record<Trouble, number> = { unreachable: 2, busy: 1, disk_full: 30, read_only: 30, io_error: 30 };

// Node's socket errors, as pg passes them on.
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "ECONNABORTED"]);
// pg's own words when a connection goes, or none can be had.
const PG_GONE =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable|Connection ended unexpectedly|server closed the connection/i;

/** The database trouble `e` is, or null for any other error. */
export function troubleOf(e: unknown): Trouble | null {
  if (!(e instanceof Error)) return null;
  if (isSqliteBusy(e)) return "busy"; // on either runtime's SQLite
  const code = String((e as { code?: unknown }).code ?? "");
  // SQLite (bun:sqlite): SQLITE_BUSY, SQLITE_LOCKED, SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR and their extended forms.
  if (code.startsWith("SQLITE_")) {
    if (/^SQLITE_(BUSY|LOCKED)/.test(code)) return "busy";
    if (code.startsWith("SQLITE_FULL")) return "disk_full";
    if (code.startsWith("SQLITE_READONLY")) return "read_only";
    if (code.startsWith("SQLITE_IOERR") || code.startsWith("SQLITE_CANTOPEN")) return "io_error";
    return null;
  }
  if (SOCKET_CODES.has(code)) return "unreachable";
  // PostgreSQL's SQLSTATE: class 08 connection exception; 57P01-03 the server shutting down or starting.
  if (/^08/.test(code) || code === "57P01" || code === "57P02" || code === "57P03") return "unreachable";
  // 40001 serialization failure, 40P01 deadlock, 55P03 lock not available, 53300 too many connections, 57014 cancelled by a timeout.
  if (code === "40001" || code === "40P01" || code === "55P03" || code === "53300" || code === "57014") return "busy";
  if (code === "53100") return "disk_full";
  if (code === "25006") return "read_only";
  if (code === "58030") return "io_error";
  if (PG_GONE.test(e.message)) return "unreachable";
  return null;
}

/**
 * Whether a transaction that failed this way may simply run again: the database came back, or the
 * lock it lost on passes. A full disk or a read-only database does not pass by waiting a moment,
 * and SQLite's busy error comes after the dialect has waited for the lock already (sqlite-busy.ts).
 */
export function isRetriable(e: unknown): boolean {
  const t = troubleOf(e);
  if (t === "unreachable") return true;
  return t === "busy" && !isSqliteBusy(e);
}
