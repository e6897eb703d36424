// Statistics for a handful of seeds: Student t intervals, exact permutation tests, Holm's
// correction, a seeded bootstrap. Pure functions on plain numbers (no Node or DOM APIs), so the
// page and the CLI compute exactly the same figures.
//
// Why these: an ablation has 2–8 seeds per cell. With so few values a bootstrap percentile
// interval of a mean is too narrow (3 values have only 10 distinct resamples, and the interval
// never leaves [min, max]); the t interval is the standard small-sample answer and is honestly
// wide at n = 2 (t = 12.7). For a difference, a permutation test needs no distributional
// assumption and is exact at these sizes: every split of the pooled seeds is enumerated.
// Random draws (bootstrap, Monte Carlo splits) come from the one RNG of src/core/random.ts.

import { makeRng, STREAM } from '../core/random';

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: ~15 significant digits). */
export function lnGamma(x: number): number {
  const g = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  x -= 1;
  let a = g[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += g[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/** The regularised incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast for x < (a + 1)/(a + b + 2); use the symmetry otherwise.
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The p-quantile of Student's t with `df` degrees of freedom (e.g. p 0.975, df 3 → 3.182). */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentTQuantile: p must be in (0, 1), got ${p}`);
  if (!(df > 0)) throw new RangeError(`studentTQuantile: df must be positive, got ${df}`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  // Bisection on t ≥ 0: the CDF is monotone, and 1e7 covers p up to 1 − 1e-7 at df = 1.
  let lo = 0;
  let hi = 1e7;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, lo); i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Sample standard deviation (n − 1); 0 for fewer than 2 values. */
export function sampleSd(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) ** 2;
  return Math.sqrt(s / (xs.length - 1));
}

export interface MeanInterval {
  n: number;
  mean: number;
  sd: number;
  /** Bounds of the t interval; null with fewer than 2 values (one value has no spread to measure). */
  lo: number | null;
  hi: number | null;
}

/** Mean and its two-sided t interval (`confidence` 0.95 → mean ± t(0.975, n−1)·sd/√n). */
export function meanInterval(xs: readonly number[], confidence = 0.95): MeanInterval {
  const n = xs.length;
  if (n === 0) return { n, mean: NaN, sd: 0, lo: null, hi: null };
  const m = mean(xs);
  const sd = sampleSd(xs);
  if (n < 2) return { n, mean: m, sd, lo: null, hi: null };
  // Values near the float range (1e200) overflow the spread: no interval rather than ±Infinity.
  if (!Number.isFinite(sd) || !Number.isFinite(m)) return { n, mean: m, sd, lo: null, hi: null };
  const half = studentTQuantile(0.5 + confidence / 2, n - 1) * (sd / Math.sqrt(n));
  return { n, mean: m, sd, lo: m - half, hi: m + half };
}

/**
 * Welch's t interval for mean(a) − mean(b) (unequal variances); null bounds when either side
 * has fewer than 2 values or the spread overflows; the difference itself when neither has any spread.
 */
export function welchInterval(
  a: readonly number[],
  b: readonly number[],
  confidence = 0.95,
): { difference: number; lo: number | null; hi: number | null } {
  const difference = mean(a) - mean(b);
  if (a.length < 2 || b.length < 2) return { difference, lo: null, hi: null };
  const va = sampleSd(a) ** 2 / a.length;
  const vb = sampleSd(b) ** 2 / b.length;
  const se = Math.sqrt(va + vb);
  if (se === 0) return { difference, lo: difference, hi: difference };
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  // Variances past the float range (values near 1e200) give no degrees of freedom to read a t from.
  if (!Number.isFinite(se) || !(df > 0)) return { difference, lo: null, hi: null };
  const half = studentTQuantile(0.5 + confidence / 2, df) * se;
  return { difference, lo: difference - half, hi: difference + half };
}

/** n choose k, as a float (exact below 2^53). */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  k = Math.min(k, n - k);
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return Math.round(c);
}

export interface PermutationResult {
  /** Two-sided p: the share of splits whose |statistic| is at least the observed one. */
  p: number;
  /** The smallest p any data could give at these group sizes: ≥ α means no test can succeed. */
  minP: number;
  /** Every split enumerated (true) or a seeded Monte Carlo sample of them (false). */
  exact: boolean;
  observed: number;
}

/** Splits to enumerate before switching to a seeded random sample. */
const EXACT_LIMIT = 200_000;
const MONTE_CARLO_DRAWS = 20_000;
/** The fixed seed of the Monte Carlo splits: the same data give the same p. */
const PERMUTATION_SEED = 20250101;

/**
 * A two-sided permutation test: `statistic(a, b)` on the observed groups against every way of
 * splitting the pooled items into groups of the same sizes (or `MONTE_CARLO_DRAWS` random
 * splits when there are more than `EXACT_LIMIT`, from a fixed seed).
 */
export function permutationTest<T>(
  a: readonly T[],
  b: readonly T[],
  statistic: (a: readonly T[], b: readonly T[]) => number,
  options: { seed?: number } = {},
): PermutationResult {
  const pooled = [...a, ...b];
  const n = pooled.length;
  const k = a.length;
  const observed = statistic(a, b);
  const total = choose(n, k);
  // The most extreme split is unique, or has a mirror image with the same |statistic| when the
  // groups are the same size; that is the floor of p.
  const minP = total === 0 ? 1 : Math.min(1, (k === n - k ? 2 : 1) / total);
  if (k === 0 || k === n) return { p: 1, minP: 1, exact: true, observed };
  // A relative tolerance, so float noise in sums of the same numbers in another order ties.
  const tol = 1e-9 * Math.max(1, Math.abs(observed));
  const extreme = (s: number) => Math.abs(s) >= Math.abs(observed) - tol;
  const split = (inA: readonly boolean[]) => {
    const ga: T[] = [];
    const gb: T[] = [];
    pooled.forEach((x, i) => (inA[i] ? ga : gb).push(x));
    return statistic(ga, gb);
  };
  if (total <= EXACT_LIMIT) {
    let hits = 0;
    let count = 0;
    const inA = new Array<boolean>(n).fill(false);
    const visit = (start: number, left: number) => {
      if (left === 0) {
        count++;
        if (extreme(split(inA))) hits++;
        return;
      }
      for (let i = start; i <= n - left; i++) {
        inA[i] = true;
        visit(i + 1, left - 1);
        inA[i] = false;
      }
    };
    visit(0, k);
    return { p: hits / count, minP, exact: true, observed };
  }
  const rng = makeRng(options.seed ?? PERMUTATION_SEED, STREAM.statistics);
  let hits = 0;
  const idx = pooled.map((_, i) => i);
  for (let d = 0; d < MONTE_CARLO_DRAWS; d++) {
    // Partial Fisher–Yates: the first k positions are a uniform random subset.
    for (let i = 0; i < k; i++) {
      const j = i + rng.int(n - i);
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    const inA = new Array<boolean>(n).fill(false);
    for (let i = 0; i < k; i++) inA[idx[i]] = true;
    if (extreme(split(inA))) hits++;
  }
  // +1 on both sides: the observed split is one of the possible ones (never p = 0).
  return { p: (hits + 1) / (MONTE_CARLO_DRAWS + 1), minP, exact: false, observed };
}

/** Holm's step-down adjustment of p-values (controls the family-wise error rate), in input order. */
export function holmAdjust(ps: readonly number[]): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, p * (m - rank)));
    out[i] = running;
  });
  return out;
}

/** The q-quantile of sorted values by linear interpolation (type 7, R's default); Infinity passes through. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  if (lo === hi || sorted[lo] === sorted[hi]) return sorted[lo];
  if (!Number.isFinite(sorted[hi])) return sorted[hi];
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
