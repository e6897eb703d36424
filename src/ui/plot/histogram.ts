// Geometry of the advantage histogram: a domain symmetric around 0, bars coloured by the sign
// of their bin (the app's diverging palette), and step outlines for comparing several runs.

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

/** [−m, m] with m the largest |edge| over the runs (1 without data), so 0 sits in the middle. */
export function symmetricDomain(runs: readonly HistogramRun[]): [number, number] {
  let m = 0;
  for (const run of runs) for (const e of run.edges) if (Number.isFinite(e)) m = Math.max(m, Math.abs(e));
  return m > 0 ? [-m, m] : [-1, 1];
}

/** The largest count over the runs (0 without data). */
export function maxCount(runs: readonly HistogramRun[]): number {
  let m = 0;
  for (const run of runs) for (const c of run.counts) if (Number.isFinite(c)) m = Math.max(m, c);
  return m;
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

export interface BarRect {
  x: number;
  y: number;
  width: number;
  height: number;
  fill: string;
  lo: number;
  hi: number;
  count: number;
}

/** One rectangle per bin, in plot-area pixels, with a 1 px gap between bars when they are wide enough. */
export function barRects(run: HistogramRun, x: (v: number) => number, y: (v: number) => number, bound: number): BarRect[] {
  const zero = zeroBinIndex(run.edges);
  return run.counts.map((count, i) => {
    const lo = run.edges[i];
    const hi = run.edges[i + 1];
    const left = x(lo);
    const full = x(hi) - left;
    const gap = full > 4 ? 1 : 0;
    const top = y(count);
    return {
      x: left + gap / 2,
      y: top,
      width: Math.max(0, full - gap),
      height: Math.max(0, y(0) - top),
      fill: binColor((lo + hi) / 2, bound, i === zero),
      lo,
      hi,
      count,
    };
  });
}

/** The histogram's outline as one path: up and across each bin, back down to 0 at the end. */
export function stepOutlinePath(run: HistogramRun, x: (v: number) => number, y: (v: number) => number): string {
  if (run.counts.length === 0 || run.edges.length !== run.counts.length + 1) return '';
  const r = (v: number): number => Math.round(v * 10) / 10;
  let d = `M${r(x(run.edges[0]))} ${r(y(0))}`;
  run.counts.forEach((c, i) => {
    d += `V${r(y(c))}H${r(x(run.edges[i + 1]))}`;
  });
  return `${d}V${r(y(0))}`;
}
