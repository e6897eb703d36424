// Finite-difference gradient checking: the CPU reference proves itself (docs/architecture.md, "Conventions").
//
// Numeric gradient: the five-point central difference in Float64,
//     n_i = (8·(f(x + h·e_i) − f(x − h·e_i)) − (f(x + 2h·e_i) − f(x − 2h·e_i))) / 12h,
// whose truncation error is O(h⁴) instead of the O(h²) of the two-point formula. With
// h = 1e-3 the truncation error (~1e-12) and the round-off error (~ε·|f|/h ≈ 1e-13 for O(1)
// losses) are both far below what a two-point difference can reach (~1e-10 at best), so the
// check can be strict. Callers must keep inputs 2h away from kinks (e.g. clip bounds).
//
// Error metric, per checked coordinate i, with a the analytic gradient:
//     rel_i = |a_i − n_i| / max(floor, |a_i| + |n_i|)
// The sum in the denominator keeps rel_i ≤ 1 and symmetric. The floor (default 1e-5) keeps a
// coordinate whose true gradient is 0 (e.g. the attention key bias, which the softmax
// ignores) from reporting round-off noise as a large relative error: there the check asks for
// |a_i − n_i| < tol·floor instead. The check reports the maximum over coordinates, with the
// coordinate and both values, so a failure is easy to locate.

/** Default finite-difference step. */
export const DEFAULT_H = 1e-3;

export interface GradcheckOptions {
  /** Coordinates to check (default: all). */
  indices?: ArrayLike<number>;
  /** Finite-difference step (default DEFAULT_H). */
  h?: number;
  /** Denominator floor of the relative error (default 1e-5). */
  floor?: number;
}

export interface GradcheckResult {
  /** max_i rel_i over the checked coordinates. */
  maxRelError: number;
  /** max_i |a_i − n_i|. */
  maxAbsError: number;
  /** Coordinate of maxRelError, and the two gradients there. */
  worstIndex: number;
  worstAnalytic: number;
  worstNumeric: number;
  /** Largest |n_i|, to judge the scale of the gradient. */
  maxAbsNumeric: number;
  /** Number of coordinates checked. */
  checked: number;
}

/**
 * Central-difference gradient of f at x for the given coordinates (others are left 0).
 * x is perturbed in place and restored exactly.
 */
export function numericGradient(
  f: (x: Float64Array) => number,
  x: Float64Array,
  indices?: ArrayLike<number>,
  h = DEFAULT_H,
): Float64Array {
  const grad = new Float64Array(x.length);
  const idx = indices ?? allIndices(x.length);
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k];
    const x0 = x[i];
    const at = (d: number): number => {
      x[i] = x0 + d;
      return f(x);
    };
    // five-point central stencil: the h² error terms of the two differences cancel
    const d1 = at(h) - at(-h);
    const d2 = at(2 * h) - at(-2 * h);
    x[i] = x0;
    grad[i] = (8 * d1 - d2) / (12 * h);
  }
  return grad;
}

/** Compares an analytic gradient of the scalar function f at x with central differences. */
export function gradcheck(
  f: (x: Float64Array) => number,
  x: Float64Array,
  analytic: ArrayLike<number>,
  opts: GradcheckOptions = {},
): GradcheckResult {
  const h = opts.h ?? DEFAULT_H;
  const floor = opts.floor ?? 1e-5;
  const idx = opts.indices ?? allIndices(x.length);
  const numeric = numericGradient(f, x, idx, h);
  return compareGradients(analytic, numeric, idx, floor);
}

/** The error metric above, over the given coordinates. */
export function compareGradients(
  analytic: ArrayLike<number>,
  numeric: ArrayLike<number>,
  indices: ArrayLike<number> = allIndices(analytic.length),
  floor = 1e-5,
): GradcheckResult {
  const res: GradcheckResult = {
    maxRelError: 0,
    maxAbsError: 0,
    worstIndex: -1,
    worstAnalytic: 0,
    worstNumeric: 0,
    maxAbsNumeric: 0,
    checked: indices.length,
  };
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k];
    const a = analytic[i];
    const n = numeric[i];
    // A NaN anywhere must fail the check: count it as an infinite error.
    const abs = nanToInf(Math.abs(a - n));
    const rel = nanToInf(abs / Math.max(floor, Math.abs(a) + Math.abs(n)));
    if (res.worstIndex < 0 || rel > res.maxRelError) {
      res.maxRelError = rel;
      res.worstIndex = i;
      res.worstAnalytic = a;
      res.worstNumeric = n;
    }
    res.maxAbsError = Math.max(res.maxAbsError, abs);
    res.maxAbsNumeric = Math.max(res.maxAbsNumeric, Math.abs(n));
  }
  return res;
}

/** One-line summary for test logs. */
export function formatGradcheck(label: string, r: GradcheckResult): string {
  return (
    `gradcheck ${label}: max rel ${r.maxRelError.toExponential(2)}, max abs ${r.maxAbsError.toExponential(2)}` +
    ` (|grad| ≤ ${r.maxAbsNumeric.toExponential(2)}, ${r.checked} coords)`
  );
}

function nanToInf(x: number): number {
  return Number.isNaN(x) ? Infinity : x;
}

function allIndices(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
