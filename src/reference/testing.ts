// Helpers shared by the reference tests (imported only from *.test.ts files).

import { expect } from 'vitest';
import { formatGradcheck, gradcheck, type GradcheckOptions, type GradcheckResult } from './gradcheck';
import { makeRng, type Rng } from '../core/random';

/** Tolerance on the max relative error (gradcheck.ts metric) for Float64 checks. */
export const GRADCHECK_TOL = 1e-6;

export function rng(seed: number): Rng {
  return makeRng(seed, 1000);
}

/** [n] standard normals times scale, Float64. */
export function randn(r: Rng, n: number, scale = 1): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = r.normal() * scale;
  return a;
}

/** [n] uniform in [lo, hi), Float64. */
export function uniform(r: Rng, n: number, lo: number, hi: number): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = lo + (hi - lo) * r.next();
  return a;
}

/** Σ_i a[i]·b[i]: turns a tensor output into a scalar loss with a fixed random cotangent. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** a − b, elementwise (to read a (+=) result back as the increment). */
export function sub(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] - b[i];
  return out;
}

/** Runs gradcheck, logs a one-line summary and asserts the max relative error. */
export function expectGrad(
  label: string,
  f: (x: Float64Array) => number,
  x: Float64Array,
  analytic: ArrayLike<number>,
  opts: GradcheckOptions & { tol?: number } = {},
): GradcheckResult {
  const r = gradcheck(f, x, analytic, opts);
  console.log(formatGradcheck(label, r));
  expect(
    r.maxRelError,
    `${label}: worst coord ${r.worstIndex} analytic ${r.worstAnalytic} numeric ${r.worstNumeric}`,
  ).toBeLessThan(opts.tol ?? GRADCHECK_TOL);
  // A check over an all-zero gradient would prove nothing.
  expect(r.maxAbsNumeric, `${label}: gradient is identically zero`).toBeGreaterThan(1e-4);
  return r;
}
