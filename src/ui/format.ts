// Number formatting for labels and tables.

/** Up to 4 significant digits, no trailing zeros; exponent form for very small or large values. */
export function formatNumber(v: number | undefined): string {
  if (v === undefined || Number.isNaN(v)) return '–';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}
