// The advantage histogram's rules: an x domain symmetric around 0, and bars coloured by the sign
// of their bin (the app's diverging palette). Drawn by HistogramPlot.tsx.

import { css, mix, NEGATIVE, POSITIVE, WHITE } from '../views/colour';

export interface HistogramRun {
  id: string;
  label: string;
  color: string;
  counts: number[];
  /** Bin edges, edges.length = counts.length + 1. */
  edges: number[];
}

/** The bin that holds 0 (zero advantages: groups without spread) is neutral grey. */
export const ZERO_BIN_COLOR = '#9ca3af';
/** The palettes fade to white at 0; bars never get lighter than this share of the full colour. */
const MIN_TINT = 0.35;

/** [−m, m] with m the largest |edge| over the runs rounded up to 1, 2, 2.5 or 5 × 10^k (1 without data), so 0 sits in the middle. */
export function symmetricDomain(runs: readonly HistogramRun[]): [number, number] {
  let m = 0;
  for (const run of runs) for (const e of run.edges) if (Number.isFinite(e)) m = Math.max(m, Math.abs(e));
  if (!(m > 0)) return [-1, 1];
  const power = 10 ** Math.floor(Math.log10(m));
  const top = [1, 2, 2.5, 5, 10].map((k) => k * power).find((v) => v >= m * (1 - 1e-9))!;
  return [-top, top];
}

/** The bin a value of 0 falls in, with the binning's convention [lo, hi) (the last bin closed); −1 if none. */
export function zeroBinIndex(edges: readonly number[]): number {
  const bins = edges.length - 1;
  for (let i = 0; i < bins; i++) {
    if (edges[i] <= 0 && (0 < edges[i + 1] || (i === bins - 1 && 0 <= edges[i + 1]))) return i;
  }
  return -1;
}

/** Red below 0, blue above, stronger with |centre| / bound, never lighter than a readable tint. */
export function binColor(centre: number, bound: number, isZeroBin: boolean): string {
  if (isZeroBin || !(bound > 0) || !Number.isFinite(centre)) return ZERO_BIN_COLOR;
  const t = MIN_TINT + (1 - MIN_TINT) * Math.min(1, Math.abs(centre) / bound);
  return css(mix(WHITE, centre < 0 ? NEGATIVE : POSITIVE, t));
}
