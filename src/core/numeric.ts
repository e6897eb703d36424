// Small numeric helpers shared by every layer (benchmarks, the divergence guard, ablation
// statistics).

/** The median: the middle value, or the mean of the two middle values for an even count; NaN for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}
