// What the benches measure with: percentiles of their samples, and a rate of calls in flight.

/** The sample at p% of the sorted list (NaN for none). */
export const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

export const median = (xs: number[]): number => pct(xs, 50);

/** Calls per second of `call` run `total` times, `concurrency` at once. */
export async function throughput(call: () => Promise<unknown>, total: number, concurrency: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await call();
    }),
  );
  return total / ((performance.now() - t0) / 1000);
}
