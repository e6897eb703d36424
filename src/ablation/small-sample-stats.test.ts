import { describe, expect, it } from 'vitest';
import {
  choose,
  holmAdjust,
  incompleteBeta,
  lnGamma,
  meanInterval,
  permutationTest,
  quantileSorted,
  studentTCdf,
  studentTQuantile,
  welchInterval,
} from './small-sample-stats';
import { median } from '../core/numeric';

describe('small-sample statistics', () => {
  it('lnGamma and the incomplete beta match known values', () => {
    expect(lnGamma(1)).toBeCloseTo(0, 12);
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(incompleteBeta(0.5, 2, 2)).toBeCloseTo(0.5, 12);
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
  });

  it('Student t quantiles match the tables', () => {
    const table: [number, number, number][] = [
      [0.975, 1, 12.7062],
      [0.975, 2, 4.3027],
      [0.975, 3, 3.1824],
      [0.975, 4, 2.7764],
      [0.975, 7, 2.3646],
      [0.975, 10, 2.2281],
      [0.975, 30, 2.0423],
      [0.995, 5, 4.0321],
      [0.95, 12, 1.7823],
      [0.975, 1e6, 1.96],
    ];
    for (const [p, df, t] of table) expect(studentTQuantile(p, df), `p ${p} df ${df}`).toBeCloseTo(t, 3);
    expect(studentTQuantile(0.025, 3)).toBeCloseTo(-3.1824, 3);
    expect(studentTCdf(0, 5)).toBeCloseTo(0.5, 12);
    expect(studentTQuantile(0.5, 3)).toBe(0);
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError);
  });

  it('the t interval of a mean is wide at small n and absent at n = 1', () => {
    const m = meanInterval([1, 2, 3]);
    expect(m.mean).toBe(2);
    expect(m.sd).toBeCloseTo(1, 12);
    expect(m.hi! - m.mean).toBeCloseTo(4.3027 / Math.sqrt(3), 3);
    expect(meanInterval([5])).toMatchObject({ n: 1, mean: 5, lo: null, hi: null });
    const two = meanInterval([0, 1]);
    expect(two.hi! - two.lo!).toBeCloseTo(2 * 12.7062 * (Math.SQRT1_2 / Math.SQRT2), 2);
    expect(median([3, 1, 2, 10])).toBe(2.5);
  });

  it("Welch's interval of a difference covers it symmetrically", () => {
    const w = welchInterval([1, 2, 3, 4], [0, 0.5, 1, 1.5]);
    expect(w.difference).toBeCloseTo(1.75, 12);
    expect(w.lo).toBeLessThan(1.75);
    expect(w.hi! - 1.75).toBeCloseTo(1.75 - w.lo!, 9);
    expect(welchInterval([1], [2, 3])).toMatchObject({ lo: null, hi: null });
  });

  it('values near the float range (a metric of 1e200 in a damaged file) give no interval instead of a RangeError', () => {
    // Their variances overflow to Infinity: Welch's degrees of freedom were NaN and threw.
    expect(welchInterval([1e200, -1e200], [3e200, 1e200])).toMatchObject({ lo: null, hi: null });
    expect(meanInterval([1e200, -1e200, 3e200])).toMatchObject({ n: 3, lo: null, hi: null });
    expect(meanInterval([1, 2, 3]).lo).not.toBeNull();
  });

  it('an exact permutation test: its floor at small n, full separation at 4 vs 4, ties give p = 1', () => {
    const diff = (a: readonly number[], b: readonly number[]) =>
      a.reduce((s, x) => s + x, 0) / a.length - b.reduce((s, x) => s + x, 0) / b.length;
    const two = permutationTest([1, 2], [3, 4], diff);
    expect(two).toMatchObject({ exact: true });
    expect(two.minP).toBeCloseTo(1 / 3, 12);
    expect(two.p).toBeCloseTo(1 / 3, 12);
    const four = permutationTest([10, 11, 12, 13], [1, 2, 3, 4], diff);
    expect(four.p).toBeCloseTo(2 / 70, 12);
    expect(four.minP).toBeCloseTo(2 / 70, 12);
    expect(permutationTest([1, 1, 1], [1, 1, 1], diff).p).toBe(1);
    expect(choose(8, 4)).toBe(70);
    expect(choose(30, 15)).toBe(155117520);
  });

  it('a large permutation test samples splits from a fixed seed (same p every time)', () => {
    const a = Array.from({ length: 15 }, (_, i) => i + 5);
    const b = Array.from({ length: 15 }, (_, i) => i);
    const diff = (x: readonly number[], y: readonly number[]) =>
      x.reduce((s, v) => s + v, 0) / x.length - y.reduce((s, v) => s + v, 0) / y.length;
    const r1 = permutationTest(a, b, diff);
    const r2 = permutationTest(a, b, diff);
    expect(r1.exact).toBe(false);
    expect(r1.p).toBe(r2.p);
    expect(r1.p).toBeLessThan(0.05);
    // The draws come from the seed given (the core RNG's statistics stream): another seed, other splits.
    expect(permutationTest(a, b, diff, { seed: 1 }).p).not.toBe(r1.p);
  });

  it("Holm's adjustment is step-down and monotone", () => {
    expect(holmAdjust([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holmAdjust([0.5])).toEqual([0.5]);
    expect(holmAdjust([0.6, 0.6])).toEqual([1, 1]);
  });

  it('quantiles interpolate and pass Infinity through', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, Infinity], 0.99)).toBe(Infinity);
  });
});
