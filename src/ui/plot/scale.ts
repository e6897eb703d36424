// Scales, ticks and domains for the SVG plots: pure functions, no DOM.
//
// The charts used to auto-scale every axis to the data, which magnified noise (a constant
// entropy drawn as a zig-zag) and produced odd ticks (1.25 on a level axis, 1/76/151 on a
// step axis). These helpers pick fixed, round domains and ticks instead.

/** An affine map from domain to range; a degenerate domain maps everything to the range's middle. */
export function linear(domain: [number, number], range: [number, number]): (v: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  if (d1 === d0 || !Number.isFinite(d1 - d0)) {
    const middle = (r0 + r1) / 2;
    return () => middle;
  }
  const k = (r1 - r0) / (d1 - d0);
  return (v: number) => r0 + (v - d0) * k;
}

/** Round steps for real-valued axes: 1, 2, 2.5, 5 × 10^k. */
const NICE_MANTISSAS = [1, 2, 2.5, 5] as const;

/** The smallest round step ≥ raw (raw > 0). */
export function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of NICE_MANTISSAS) if (m * power >= raw * (1 - 1e-9)) return m * power;
  return 10 * power;
}

/** Decimals needed to write multiples of `step` exactly (0.25 → 2, 5 → 0). */
export function decimalsFor(step: number): number {
  const s = Math.abs(step);
  if (!(s > 0) || !Number.isFinite(s)) return 0;
  for (let d = 0; d <= 12; d++) {
    const scaled = s * 10 ** d;
    if (Math.round(scaled) >= 1 && Math.abs(scaled - Math.round(scaled)) < 1e-9 * scaled) return d;
  }
  return 12;
}

/** How many multiples of `step` lie inside [min, max] (with a little slack for float noise). */
function countMultiples(min: number, max: number, step: number): number {
  return Math.floor(max / step + 1e-9) - Math.ceil(min / step - 1e-9) + 1;
}

/** Multiples of `step` inside [min, max], rounded so that they print cleanly. */
function multiplesInside(min: number, max: number, step: number): number[] {
  const decimals = decimalsFor(step);
  const first = Math.ceil(min / step - 1e-9);
  const last = Math.floor(max / step + 1e-9);
  const out: number[] = [];
  for (let i = first; i <= last; i++) out.push(Number((i * step).toFixed(decimals)) + 0); // + 0 turns −0 into 0
  return out;
}

/** Round steps 1, 2, 2.5, 5 × 10^k in increasing order, from the largest power of 10 ≤ from. */
function* niceSteps(from: number): Generator<number> {
  for (let power = 10 ** Math.floor(Math.log10(from)); ; power *= 10) for (const m of NICE_MANTISSAS) yield m * power;
}

/**
 * At most maxCount (≥ 2) round ticks (steps 1, 2, 2.5, 5 × 10^k) inside [min, max], the ends
 * included when round: the smallest round step whose multiples fit. Consecutive steps differ
 * by at most 2×, so the first step that fits still has a multiple inside the range.
 */
export function niceTicks(min: number, max: number, maxCount = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) return [];
  if (max === min) return [min];
  const most = Math.max(2, maxCount);
  for (const step of niceSteps((max - min) / (2 * most))) {
    const count = countMultiples(min, max, step);
    if (count <= most && count >= 1) return multiplesInside(min, max, step);
    if (count < 1) break; // float noise at extreme magnitudes
  }
  return [min, max];
}

/** Integer steps 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, … in increasing order. */
function* integerSteps(): Generator<number> {
  yield 1;
  yield 2;
  yield 5;
  for (let power = 10; ; power *= 10) for (const m of NICE_MANTISSAS) yield m * power;
}

/** At most maxCount integer ticks (steps 1, 2, 5, 10, 20, 25, 50, …) inside [min, max]: 0..150 gives 0, 50, 100, 150. */
export function integerTicks(min: number, max: number, maxCount = 6): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) return [];
  for (const step of integerSteps()) {
    if (countMultiples(min, max, step) <= Math.max(1, maxCount)) return multiplesInside(min, max, step);
  }
  return [];
}

/**
 * The y axis of counts: [0, top] with top the smallest multiple of an integer step ≥ max that
 * keeps ≤ maxCount ticks, and those ticks (0, step, …, top), so the top carries a tick.
 */
export function countAxis(max: number, maxCount = 5): { domain: [number, number]; ticks: number[] } {
  const m = Number.isFinite(max) && max > 1 ? max : 1;
  for (const step of integerSteps()) {
    const top = Math.ceil(m / step - 1e-9) * step;
    if (top / step + 1 <= Math.max(2, maxCount)) return { domain: [0, top], ticks: multiplesInside(0, top, step) };
  }
  return { domain: [0, m], ticks: [0, m] };
}

/** A tick label with no more decimals than the step needs (0, 0.25, 0.5, 1); 100k / 2.5M style beyond 99,999. */
export function formatTick(v: number, step: number): string {
  if (!Number.isFinite(v)) return v > 0 ? '∞' : v < 0 ? '-∞' : '–';
  const a = Math.abs(v);
  // Abbreviate only whole-number steps: a fine step on a big value needs all its digits.
  if (a >= 1e6 && step >= 1e3) return `${withDecimals(v / 1e6, step / 1e6)}M`;
  if (a >= 1e5 && step >= 1) return `${withDecimals(v / 1e3, step / 1e3)}k`;
  return withDecimals(v, step);
}

/** Rounded to the step's decimals, trailing zeros dropped ("0.5", "1"); never "-0". */
function withDecimals(v: number, step: number): string {
  return String(Number(v.toFixed(decimalsFor(step || v))) + 0);
}

/** Round ends for a step axis that grows with the run: 10, 20, 50, 100, 200, 500, … */
function roundUp125(v: number): number {
  for (let power = 10; ; power *= 10) for (const m of [1, 2, 5]) if (m * power >= v) return m * power;
}

/**
 * The x domain of a step axis: [0, budget] when the step budget is known (and not yet
 * exceeded), else [0, a round number ≥ lastStep], so the axis only rescales at 10, 20, 50, …
 */
export function stepDomain(lastStep: number, budget: number): [number, number] {
  const last = Number.isFinite(lastStep) ? Math.max(0, lastStep) : 0;
  if (budget > 0 && last <= budget) return [0, Math.max(1, budget)];
  return [0, roundUp125(Math.max(10, last))];
}

export interface PaddedDomainOptions {
  /** The quantity's natural lower bound: the domain starts there (e.g. 0 for a norm). */
  floor?: number;
  /** The quantity's natural upper bound: the domain never goes past it (e.g. 1 for a fraction). */
  ceil?: number;
  /** The smallest span drawn, so that a near-constant series is a flat line, not magnified noise. */
  minSpan: number;
}

/** A round domain for a quantity without a fixed range (gradient norm, KL, length). */
export function paddedDomain(values: readonly number[], opts: PaddedDomainOptions): [number, number] {
  const { floor, ceil } = opts;
  const minSpan = opts.minSpan > 0 ? opts.minSpan : 1;
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) if (Number.isFinite(v)) (lo = Math.min(lo, v)), (hi = Math.max(hi, v));
  if (lo > hi) lo = hi = floor ?? 0; // no data
  if (floor !== undefined) lo = floor;
  if (hi - lo < minSpan) {
    // Widen around the data's middle, then push back inside the natural bounds.
    const middle = (lo + hi) / 2;
    const start = floor !== undefined ? floor : Math.min(lo, middle - minSpan / 2); // min: float rounding must not drop the data
    hi = Math.max(hi, start + minSpan);
    lo = start;
  }
  if (ceil !== undefined && hi > ceil) {
    hi = ceil;
    if (floor === undefined) lo = Math.min(lo, ceil - minSpan);
    if (hi <= lo) hi = lo + minSpan; // floor ≥ ceil: nothing sensible left, keep a non-empty domain
  }
  // Round the ends outward to the tick step, so both ends carry a tick and small changes do not rescale.
  const step = niceStep((hi - lo) / 4);
  let roundLo = Math.floor(lo / step + 1e-9) * step;
  let roundHi = Math.ceil(hi / step - 1e-9) * step;
  if (floor !== undefined && roundLo < floor) roundLo = floor;
  if (ceil !== undefined && roundHi > ceil) roundHi = ceil;
  const decimals = decimalsFor(step);
  return [Number(roundLo.toFixed(decimals)) + 0, Number(roundHi.toFixed(decimals)) + 0];
}

/** Index of the x in sortedXs nearest to x (ties: the earlier one); −1 when empty. */
export function nearestIndex(sortedXs: readonly number[], x: number): number {
  const n = sortedXs.length;
  if (n === 0) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sortedXs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  // lo: the first index with xs[lo] ≥ x (or n − 1); the nearest is lo or lo − 1.
  if (lo > 0 && x - sortedXs[lo - 1] <= sortedXs[lo] - x) return lo - 1;
  return lo;
}
