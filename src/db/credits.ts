// What a credit amount may be. SQLite stores an INTEGER column's value past 2^63 as a REAL
// (`org credit acme 99999999999999999999` stored 1e20, and the next debit wiped the balance), and
// a JavaScript number is exact only up to 2^53 - 1. Amounts are whole numbers of at most 10^15
// credits, so a balance plus anything held or refunded stays far inside the exact range.

/** The largest balance, credit or price: 10^15 credits. */
export const MAX_CREDITS = 1_000_000_000_000_000;

/** Null when `n` is a whole number within ±MAX_CREDITS, else what is wrong with it. */
export function creditAmountProblem(n: number): string | null {
  if (!Number.isInteger(n)) return "must be a whole number of credits";
  if (Math.abs(n) > MAX_CREDITS) return `must be at most ${MAX_CREDITS} (10^15) credits`;
  return null;
}

/** Throws a RangeError naming `what` unless `n` is a valid amount; for callers past an edge. */
export function assertCreditAmount(n: number, what: string): void {
  const problem = creditAmountProblem(n);
  if (problem) throw new RangeError(`${what} ${problem}, got ${n}`);
}
