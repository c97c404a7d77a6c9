// Percentiles of the benches' samples: the sample at p% of the sorted list (NaN for none).
export const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

export const median = (xs: number[]): number => pct(xs, 50);
