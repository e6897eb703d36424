// What a line chart draws, as data (pure, tested in Node): the series a chart model produces,
// their rows in the one table recharts reads, the step a click picks, and how many ticks an
// axis asks recharts for. Drawn by Plot.tsx.

import { nearestIndex } from './domain';

export interface PlotPoint {
  x: number;
  y: number;
}

export interface PlotSeries {
  id: string;
  label: string;
  color: string;
  /** Sorted by x (the caller has downsampled them). */
  points: PlotPoint[];
  /** stroke-dasharray */
  dash?: string;
  /** Stroke width, default 2. */
  width?: number;
  /** E.g. 0.3 for a faint recorded run; below 0.5 a series is "faint" and never picked. */
  opacity?: number;
  /** 'step': a staircase (a value that holds until the next point); 'points': markers only. */
  kind?: 'line' | 'step' | 'points';
  /** Marker of kind 'points'. */
  marker?: 'circle' | 'triangle';
  /** A shaded band (mean ± interval), drawn under the line. */
  band?: { x: number; lo: number; hi: number }[];
  hideInTooltip?: boolean;
}

/** A row of the chart's table: x, and the value of series i under `v${i}` (its band under `b${i}`). */
export type PlotRow = { x: number } & Record<string, number | [number, number] | undefined>;

export const valueKey = (i: number): string => `v${i}`;
export const bandKey = (i: number): string => `b${i}`;

/** All series in one table sorted by x: one row per distinct x, a series absent where it has no point. */
export function plotRows(series: readonly PlotSeries[]): PlotRow[] {
  const rows = new Map<number, PlotRow>();
  const row = (x: number): PlotRow => {
    let r = rows.get(x);
    if (!r) rows.set(x, (r = { x }));
    return r;
  };
  series.forEach((s, i) => {
    for (const p of s.points) if (Number.isFinite(p.x) && Number.isFinite(p.y)) row(p.x)[valueKey(i)] = p.y;
    for (const b of s.band ?? []) if ([b.x, b.lo, b.hi].every(Number.isFinite)) row(b.x)[bandKey(i)] = [b.lo, b.hi];
  });
  return [...rows.values()].sort((a, b) => a.x - b.x);
}

export function isFaint(s: PlotSeries): boolean {
  return (s.opacity ?? 1) < 0.5;
}

/** The nearest data x of the first non-faint series with points (else of any series); null without data. */
export function pickX(series: readonly PlotSeries[], x: number): number | null {
  const target = series.find((s) => !isFaint(s) && s.points.length > 0) ?? series.find((s) => s.points.length > 0);
  if (!target) return null;
  const xs = target.points.map((p) => p.x);
  return xs[nearestIndex(xs, x)];
}

/**
 * How many ticks to ask recharts for along `lengthPx`: one per `spacingEm` em of text, 2 to
 * `most`. Recharts rounds them (1, 2, 2.5, 5 × 10^k) and its tick interval still drops any
 * label that would touch its neighbour.
 */
export function tickCount(lengthPx: number, fontSize: number, spacingEm: number, most: number): number {
  return Math.max(2, Math.min(most, Math.floor(lengthPx / (spacingEm * fontSize)) + 1));
}

/** A step of 1, 2, 2.5 or 5 × 10^k. */
function isRoundStep(step: number): boolean {
  if (!(step > 0) || !Number.isFinite(step)) return false;
  const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-12);
  return [1, 2, 2.5, 5, 10].some((m) => Math.abs(mantissa - m) < 1e-9);
}

/**
 * The largest tick count ≤ most that cuts a fixed domain of this span into equal round steps
 * (whole ones on a step axis): recharts always ends the ticks on the domain's end, so a step
 * that does not divide the span leaves a crowded last gap (0, 3, 6, 9, 10). 2 (the ends) else.
 */
export function evenTickCount(span: number, most: number, integer: boolean): number {
  for (let n = most; n > 2; n--) {
    const step = span / (n - 1);
    if (isRoundStep(step) && (!integer || Number.isInteger(step))) return n;
  }
  return 2;
}

/** Average glyph width of the UI font in em: SVG labels recharts does not measure itself are fitted with it. */
const EM_PER_CHAR = 0.6;

export function textWidth(text: string, fontSize: number): number {
  return text.length * EM_PER_CHAR * fontSize;
}

/**
 * The text fitted to maxWidth px (an axis title longer than its axis): first without its bracketed
 * tail ("reward (0–1)" → "reward", whose ticks show the range), then cut with "…".
 */
export function fitText(text: string, maxWidth: number, fontSize: number): string {
  if (textWidth(text, fontSize) <= maxWidth) return text;
  const bare = text.replace(/\s*\([^()]*\)$/, '');
  if (bare !== text && bare !== '') return fitText(bare, maxWidth, fontSize);
  const chars = Math.max(0, Math.floor(maxWidth / (EM_PER_CHAR * fontSize)) - 1);
  return `${text.slice(0, chars).trimEnd()}…`;
}

/**
 * The y axis' width for tick labels this long and a rotated title: fixed before recharts lays
 * the chart out (its width="auto" measures the labels after a first render and renders again,
 * twice the work for every live update).
 */
export function yAxisWidth(labels: readonly string[], fontSize: number): number {
  const widest = labels.reduce((w, label) => Math.max(w, textWidth(label, fontSize)), 0);
  return Math.ceil(2 * fontSize + widest + 12);
}

/** Which marker labels to show, left to right, so that none overlaps the previous shown one. */
export function spacedLabels(pxs: readonly number[], widths: readonly number[], gap = 4): boolean[] {
  let end = -Infinity;
  return pxs.map((px, i) => {
    const start = px - widths[i] / 2;
    if (start < end + gap) return false;
    end = px + widths[i] / 2;
    return true;
  });
}

/**
 * Where a chart's empty-state line goes, as its top in px from the plot area's top: the middle of
 * the plot, or the first of a few other heights clear of the reference lines' labels (`labels`:
 * the [top, bottom] each takes, from the plot's top), and always inside the plot, so never on the
 * tick labels around it.
 */
export function emptyStateTop(
  plotHeight: number,
  labels: readonly (readonly [number, number])[],
  fontSize: number,
): number {
  const h = 1.4 * fontSize; // the line's height
  const room = Math.max(0, plotHeight - h);
  const tops = [0.5, 0.3, 0.7, 0.15, 0.85, 0, 1].map((f) => Math.min(room, Math.max(0, f * plotHeight - h / 2)));
  const gap = (top: number) => Math.min(Infinity, ...labels.map(([a, b]) => Math.max(a - (top + h), top - b)));
  return tops.find((t) => gap(t) >= 2) ?? tops.reduce((a, b) => (gap(b) > gap(a) ? b : a));
}

/** Width of a digit of the page's sans-serif fonts (DejaVu Sans, tabular figures: 0.636 em), rounded up. */
const DIGIT_EM = 0.65;

/**
 * The right margin of a chart: the last x tick label is centred on the axis' end and must stay
 * inside the chart with room to spare (recharts would push it in, flush with the edge, where it
 * reads as cut).
 */
export function rightMargin(lastTick: string, fontSize: number): number {
  return Math.max(fontSize, Math.ceil((lastTick.length * DIGIT_EM * fontSize) / 2) + 4);
}
