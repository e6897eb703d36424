// Geometry of the SVG line plot: margins from the font size, ticks and their pixel positions,
// path strings, and the hover tooltip. Pure functions, so LinePlot.tsx stays a thin renderer.

import { formatTick, integerTicks, linear, nearestIndex, niceTicks } from './scale';

export interface PlotPoint {
  x: number;
  y: number;
}

export interface PlotSeries {
  id: string;
  label: string;
  color: string;
  /** Sorted by x (the caller has downsampled them, ≤ 300). */
  points: PlotPoint[];
  /** stroke-dasharray */
  dash?: string;
  /** Stroke width, default 2. */
  width?: number;
  /** E.g. 0.25 for a faint reference curve; below 0.5 a series is "faint" and never picked. */
  opacity?: number;
  /** 'step': a staircase (a value that holds until the next point); 'points': markers only. */
  kind?: 'line' | 'step' | 'points';
  /** Marker of kind 'points'. */
  marker?: 'circle' | 'triangle';
  /** A shaded band (mean ± interval), drawn under the line. */
  band?: { x: number; lo: number; hi: number }[];
  hideInTooltip?: boolean;
}

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface Tick {
  value: number;
  label: string;
  /** Pixel position along the axis, in plot-area coordinates. */
  px: number;
}

export const TICK_LENGTH = 5;
/** Average glyph width of the UI sans-serif in em (digits ≈ 0.55, letters up to ≈ 0.65). */
const EM_PER_CHAR = 0.6;

/** Estimated width of a text in px (SVG text is not measured: layout stays pure and synchronous). */
export function textWidth(text: string, fontSize: number): number {
  return text.length * EM_PER_CHAR * fontSize;
}

/** The text, cut with "…" so that it fits in maxWidth px. */
export function fitText(text: string, maxWidth: number, fontSize: number): string {
  if (textWidth(text, fontSize) <= maxWidth) return text;
  const chars = Math.max(0, Math.floor(maxWidth / (EM_PER_CHAR * fontSize)) - 1);
  return `${text.slice(0, chars).trimEnd()}…`;
}

/** Baselines of the x tick labels and the x title, below the plot area's bottom edge. */
export function xLabelBaselines(fontSize: number): { ticks: number; title: number } {
  const ticks = TICK_LENGTH + 3 + 0.8 * fontSize;
  return { ticks, title: ticks + 0.2 * fontSize + 6 + 0.8 * fontSize };
}

/** Baseline of the rotated y title, from the SVG's left edge. */
export function yTitleBaseline(fontSize: number): number {
  return 0.9 * fontSize;
}

/**
 * Where the rotated y title goes (its centre, from the SVG's top) and its text: centred on the
 * plot area when it fits there, else centred on the whole height (the corners beside the axes
 * are free), cut with "…" only when even that is too short.
 */
export function yTitlePlacement(text: string, margin: Margins, innerHeight: number, fontSize: number): { centre: number; text: string } {
  if (textWidth(text, fontSize) <= innerHeight) return { centre: margin.top + innerHeight / 2, text };
  const height = margin.top + innerHeight + margin.bottom;
  return { centre: height / 2, text: fitText(text, height - 4, fontSize) };
}

/** Vertical margins: they depend on the font size only (so tick counts can follow from the height). */
export function verticalMargins(fontSize: number, labelsOnTop: boolean): { top: number; bottom: number } {
  const top = labelsOnTop ? fontSize + 6 : Math.ceil(fontSize / 2) + 4; // vLine labels, or half of the top y tick label
  return { top, bottom: Math.ceil(xLabelBaselines(fontSize).title + 0.25 * fontSize + 2) };
}

/** Horizontal margins: room for the y title and the widest y tick label, and half of the last x tick label. */
export function horizontalMargins(fontSize: number, yTickLabels: readonly string[], lastXTickLabel: string): { left: number; right: number } {
  const widest = yTickLabels.reduce((w, label) => Math.max(w, textWidth(label, fontSize)), 0);
  const left = Math.ceil(yTitleBaseline(fontSize) + 0.3 * fontSize + 6 + widest + 4 + TICK_LENGTH);
  const right = Math.ceil(Math.max(8, textWidth(lastXTickLabel, fontSize) / 2 + 4));
  return { left, right };
}

/** Steps between consecutive ticks (the smallest gap), for label decimals. */
function tickStep(values: readonly number[]): number {
  let step = Infinity;
  for (let i = 1; i < values.length; i++) step = Math.min(step, values[i] - values[i - 1]);
  return Number.isFinite(step) ? step : Math.abs(values[0] ?? 1) || 1;
}

export function labelTicks(values: readonly number[]): string[] {
  const step = tickStep(values);
  return values.map((v) => formatTick(v, step));
}

function clampInt(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, Math.floor(v)));
}

/** How many y ticks fit in a plot of this height (one per ≈ 1.8 lines of text, 2 to 6). */
export function maxYTicks(height: number, fontSize: number, labelsOnTop = false): number {
  const { top, bottom } = verticalMargins(fontSize, labelsOnTop);
  return clampInt((height - top - bottom) / (1.8 * fontSize) + 1, 2, 6);
}

/** Real-valued axes read best with ≤ 5 ticks (steps of 0.25 on [0, 1]); integer axes take 6 (levels 1..6). */
const MAX_REAL_TICKS = 5;

export interface LayoutInput {
  width: number;
  height: number;
  xDomain: [number, number];
  yDomain: [number, number];
  xInteger: boolean;
  yInteger: boolean;
  yTicks?: readonly number[];
  fontSize: number;
  labelsOnTop: boolean;
}

export interface PlotLayout {
  margin: Margins;
  innerWidth: number;
  innerHeight: number;
  /** Data → plot-area pixels. */
  x: (v: number) => number;
  y: (v: number) => number;
  /** Plot-area pixels → data x (for the pointer). */
  xAt: (px: number) => number;
  xTicks: Tick[];
  yTicks: Tick[];
}

/** Margins, scales and ticks of a plot: tick counts follow from the space each axis has. */
export function plotLayout(input: LayoutInput): PlotLayout {
  const { width, height, xDomain, yDomain, fontSize: fs } = input;
  const { top, bottom } = verticalMargins(fs, input.labelsOnTop);
  const innerHeight = Math.max(10, height - top - bottom);
  const yCount = maxYTicks(height, fs, input.labelsOnTop);
  const yValues = input.yTicks
    ? input.yTicks.filter((v) => v >= yDomain[0] && v <= yDomain[1])
    : input.yInteger ? integerTicks(yDomain[0], yDomain[1], yCount) : niceTicks(yDomain[0], yDomain[1], Math.min(MAX_REAL_TICKS, yCount));
  const yLabels = labelTicks(yValues);

  // The x tick count needs the plot width, which needs the right margin: estimate the widest x label first.
  const xLabelGuess = formatTick(xDomain[1], input.xInteger ? 1 : (xDomain[1] - xDomain[0]) / 4);
  const { left, right } = horizontalMargins(fs, yLabels, xLabelGuess);
  const innerWidth = Math.max(10, width - left - right);
  const maxXTicks = clampInt(innerWidth / (textWidth(xLabelGuess, fs) + 2 * fs) + 1, 2, 6);
  const xValues = input.xInteger ? integerTicks(xDomain[0], xDomain[1], maxXTicks) : niceTicks(xDomain[0], xDomain[1], Math.min(MAX_REAL_TICKS, maxXTicks));

  const x = linear(xDomain, [0, innerWidth]);
  const y = linear(yDomain, [innerHeight, 0]);
  const xAt = linear([0, innerWidth], xDomain);
  const xLabels = labelTicks(xValues);
  return {
    margin: { top, right, bottom, left },
    innerWidth,
    innerHeight,
    x,
    y,
    xAt,
    xTicks: xValues.map((value, i) => ({ value, label: xLabels[i], px: x(value) })),
    yTicks: yValues.map((value, i) => ({ value, label: yLabels[i], px: y(value) })),
  };
}

/** A pixel coordinate with one decimal: short path strings, sub-pixel accurate enough. */
function r(v: number): string {
  return String(Math.round(v * 10) / 10);
}

/**
 * A path through the points, each segment drawn by `segment` (from the previous point); a
 * non-finite value lifts the pen.
 */
function penPath(points: readonly PlotPoint[], segment: (px: string, py: string) => string, x: (v: number) => number, y: (v: number) => number): string {
  let d = '';
  let pen = false;
  for (const p of points) {
    if (!Number.isFinite(p.y) || !Number.isFinite(p.x)) {
      pen = false;
      continue;
    }
    const px = r(x(p.x));
    const py = r(y(p.y));
    d += pen ? segment(px, py) : `M${px} ${py}`;
    pen = true;
  }
  return d;
}

/** Polyline through the points; a non-finite y breaks the line. */
export function linePath(points: readonly PlotPoint[], x: (v: number) => number, y: (v: number) => number): string {
  return penPath(points, (px, py) => `L${px} ${py}`, x, y);
}

/** Staircase: each value holds until the next point's x, then jumps. */
export function stepPath(points: readonly PlotPoint[], x: (v: number) => number, y: (v: number) => number): string {
  return penPath(points, (px, py) => `H${px}V${py}`, x, y);
}

/** Closed polygon of a band: along the upper edge, back along the lower edge. */
export function bandPath(band: readonly { x: number; lo: number; hi: number }[], x: (v: number) => number, y: (v: number) => number): string {
  const ok = band.filter((b) => Number.isFinite(b.x) && Number.isFinite(b.lo) && Number.isFinite(b.hi));
  if (ok.length === 0) return '';
  const upper = ok.map((b, i) => `${i === 0 ? 'M' : 'L'}${r(x(b.x))} ${r(y(b.hi))}`).join('');
  const lower = ok.slice().reverse().map((b) => `L${r(x(b.x))} ${r(y(b.lo))}`).join('');
  return `${upper}${lower}Z`;
}

/** An upward triangle centred on (cx, cy) with circumradius `size`. */
export function trianglePath(cx: number, cy: number, size: number): string {
  const h = size * 0.866; // cos 30°
  return `M${r(cx)} ${r(cy - size)}L${r(cx + h)} ${r(cy + size / 2)}L${r(cx - h)} ${r(cy + size / 2)}Z`;
}

/** Points inside the x domain (markers outside are not drawn at all; lines are clipped instead). */
export function pointsInside(points: readonly PlotPoint[], xDomain: [number, number], yDomain: [number, number]): PlotPoint[] {
  return points.filter((p) => p.x >= xDomain[0] && p.x <= xDomain[1] && p.y >= yDomain[0] && p.y <= yDomain[1]);
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

export interface TooltipRow {
  label: string;
  color: string;
  value: number;
  faint: boolean;
}

/**
 * The value of each series at x. Lines: the nearest point, when x lies within the series' x
 * range (± tolerance: a shorter run says nothing past its end). Steps: the last point at or
 * before x. Markers: only a point within tolerance of x.
 */
export function tooltipRows(series: readonly PlotSeries[], x: number, tolerance: number): TooltipRow[] {
  const rows: TooltipRow[] = [];
  for (const s of series) {
    if (s.hideInTooltip || s.points.length === 0) continue;
    const p = valueAt(s, x, tolerance);
    if (p !== undefined && Number.isFinite(p.y)) rows.push({ label: s.label, color: s.color, value: p.y, faint: isFaint(s) });
  }
  return rows;
}

function valueAt(s: PlotSeries, x: number, tolerance: number): PlotPoint | undefined {
  const pts = s.points;
  const xs = pts.map((p) => p.x);
  const nearest = pts[nearestIndex(xs, x)];
  if (s.kind === 'points') return Math.abs(nearest.x - x) <= tolerance ? nearest : undefined;
  if (x < pts[0].x - tolerance || x > pts[pts.length - 1].x + tolerance) return undefined;
  if (s.kind === 'step') {
    let last = pts[0];
    for (const p of pts) if (p.x <= x + 1e-9) last = p;
    return last;
  }
  return nearest;
}

export interface TooltipBox {
  x: number;
  y: number;
  width: number;
  height: number;
  lineHeight: number;
  padding: number;
  swatch: number;
}

/** The tooltip box in plot-area coordinates: beside the hover rule, on whichever side has room. */
export function tooltipBox(lines: readonly string[], hoverPx: number, innerWidth: number, fontSize: number): TooltipBox {
  const padding = Math.round(fontSize / 2);
  const swatch = Math.round(fontSize * 0.8);
  const lineHeight = Math.round(fontSize * 1.3);
  const width = Math.ceil(lines.reduce((w, t) => Math.max(w, textWidth(t, fontSize)), 0) + swatch + 6 + 2 * padding);
  const height = lines.length * lineHeight + 2 * padding - Math.round(0.3 * fontSize);
  const gap = 8;
  const right = hoverPx + gap;
  const x = right + width <= innerWidth ? right : Math.max(0, hoverPx - gap - width);
  return { x, y: 4, width, height, lineHeight, padding, swatch };
}

/** Which labels to show, left to right, so that none overlaps the previous shown one. */
export function spacedLabels(pxs: readonly number[], widths: readonly number[], gap = 4): boolean[] {
  let end = -Infinity;
  return pxs.map((px, i) => {
    const start = px - widths[i] / 2;
    if (start < end + gap) return false;
    end = px + widths[i] / 2;
    return true;
  });
}
