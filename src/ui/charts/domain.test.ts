import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nearestIndex, paddedDomain, stepDomain } from './domain';

describe('stepDomain', () => {
  it('uses the step budget when it is known', () => {
    expect(stepDomain(0, 300)).toEqual([0, 300]);
    expect(stepDomain(120, 300)).toEqual([0, 300]);
  });
  it('grows in round jumps without a budget, at least to 10', () => {
    expect(stepDomain(0, 0)).toEqual([0, 10]);
    expect(stepDomain(10, 0)).toEqual([0, 10]);
    expect(stepDomain(11, 0)).toEqual([0, 20]);
    expect(stepDomain(21, 0)).toEqual([0, 50]);
    expect(stepDomain(99, 0)).toEqual([0, 100]);
    expect(stepDomain(101, 0)).toEqual([0, 200]);
    expect(stepDomain(480, 0)).toEqual([0, 500]);
  });
  it('does not cut off a run that went past its budget', () => {
    expect(stepDomain(350, 300)).toEqual([0, 500]);
  });
});

describe('paddedDomain', () => {
  it('draws a near-constant series over at least minSpan (flat, not a magnified zig-zag)', () => {
    const [lo, hi] = paddedDomain([2.985, 2.9855, 2.986], { minSpan: 0.5 });
    expect(hi - lo).toBeGreaterThanOrEqual(0.5);
    expect(lo).toBeLessThanOrEqual(2.985);
    expect(hi).toBeGreaterThanOrEqual(2.986);
    expect([lo, hi]).toEqual([2.6, 3.4]);
  });
  it('starts at the floor and rounds the top up', () => {
    expect(paddedDomain([0.3, 3.7, 1.2], { floor: 0, minSpan: 0.1 })).toEqual([0, 4]);
    expect(paddedDomain([0.01, 0.02], { floor: 0, minSpan: 0.1 })).toEqual([0, 0.1]);
  });
  it('stays inside the ceiling', () => {
    expect(paddedDomain([0.2, 0.93], { floor: 0, ceil: 1, minSpan: 0.1 })).toEqual([0, 1]);
    const [lo, hi] = paddedDomain([0.99, 1], { ceil: 1, minSpan: 0.2 });
    expect(hi).toBe(1);
    expect(hi - lo).toBeGreaterThanOrEqual(0.2 - 1e-12);
  });
  it('ignores non-finite values and has a domain without data', () => {
    expect(paddedDomain([NaN, Infinity], { floor: 0, minSpan: 1 })).toEqual([0, 1]);
    expect(paddedDomain([], { minSpan: 2 })).toEqual([-1, 1]);
  });
  it('property: contains the data (within the bounds), spans at least minSpan', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.double({ min: 1e-3, max: 100, noNaN: true }),
        (values, minSpan) => {
          const [lo, hi] = paddedDomain(values, { minSpan });
          expect(hi - lo).toBeGreaterThanOrEqual(minSpan * (1 - 1e-9));
          const slack = 1e-6 * (hi - lo); // float noise, relative to the span
          expect(lo).toBeLessThanOrEqual(Math.min(...values) + slack);
          expect(hi).toBeGreaterThanOrEqual(Math.max(...values) - slack);
        },
      ),
    );
  });
});

describe('nearestIndex', () => {
  it('finds the nearest x, ties to the earlier one', () => {
    const xs = [0, 10, 20, 30];
    expect(nearestIndex(xs, -5)).toBe(0);
    expect(nearestIndex(xs, 4)).toBe(0);
    expect(nearestIndex(xs, 5)).toBe(0);
    expect(nearestIndex(xs, 6)).toBe(1);
    expect(nearestIndex(xs, 20)).toBe(2);
    expect(nearestIndex(xs, 99)).toBe(3);
    expect(nearestIndex([], 1)).toBe(-1);
    expect(nearestIndex([7], 1)).toBe(0);
  });
});
