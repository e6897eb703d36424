// Fixed domains of the charts' axes: pure functions, no DOM. The charts once auto-scaled every
// axis to the data, which magnified noise (a constant entropy drawn as a zig-zag) and moved the
// axes every step; these pick fixed, round domains instead. The ticks inside a domain are
// recharts' own (Plot.tsx).

/** Round steps for real-valued axes: 1, 2, 2.5, 5 × 10^k. */
const NICE_MANTISSAS = [1, 2, 2.5, 5] as const;

/** The smallest round step ≥ raw (raw > 0). */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of NICE_MANTISSAS) if (m * power >= raw * (1 - 1e-9)) return m * power;
  return 10 * power;
}

/** Decimals needed to write multiples of `step` exactly (0.25 → 2, 5 → 0). */
function decimalsFor(step: number): number {
  const s = Math.abs(step);
  if (!(s > 0) || !Number.isFinite(s)) return 0;
  for (let d = 0; d <= 12; d++) {
    const scaled = s * 10 ** d;
    if (Math.round(scaled) >= 1 && Math.abs(scaled - Math.round(scaled)) < 1e-9 * scaled) return d;
  }
  return 12;
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
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
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
