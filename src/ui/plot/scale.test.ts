import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  countAxis, decimalsFor, formatTick, integerTicks, linear, nearestIndex, niceTicks, paddedDomain, stepDomain,
} from './scale';

const labels = (ticks: number[]): string[] => ticks.map((t) => formatTick(t, ticks.length > 1 ? ticks[1] - ticks[0] : 1));

describe('linear', () => {
  it('maps the domain onto the range, reversed ranges too', () => {
    const f = linear([0, 10], [0, 100]);
    expect(f(0)).toBe(0);
    expect(f(5)).toBe(50);
    expect(f(12)).toBe(120);
    expect(linear([0, 1], [200, 0])(0.25)).toBe(150);
  });
  it('maps a degenerate domain to the middle of the range', () => {
    expect(linear([3, 3], [0, 100])(3)).toBe(50);
    expect(linear([3, 3], [0, 100])(-7)).toBe(50);
  });
});

describe('niceTicks', () => {
  it('gives round steps and includes round ends', () => {
    expect(niceTicks(0, 1)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(0, 1, 3)).toEqual([0, 0.5, 1]);
    expect(niceTicks(0, 4)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(2.6, 3.4)).toEqual([2.6, 2.8, 3, 3.2, 3.4]);
    expect(niceTicks(-1.7, 1.7)).toEqual([-1, 0, 1]);
    expect(niceTicks(0, 0.1)).toEqual([0, 0.025, 0.05, 0.075, 0.1]);
  });
  it('does not repeat labels on a nearly constant range (the entropy 2.985 case)', () => {
    const ticks = niceTicks(2.9851, 2.9859);
    expect(new Set(labels(ticks)).size).toBe(ticks.length);
  });
  it('handles a single value and bad input', () => {
    expect(niceTicks(2, 2)).toEqual([2]);
    expect(niceTicks(3, 1)).toEqual([]);
    expect(niceTicks(0, NaN)).toEqual([]);
  });
  it('property: inside the range, at most maxCount, increasing, distinct labels', () => {
    fc.assert(fc.property(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: 1e-6, max: 1e6, noNaN: true }), fc.integer({ min: 2, max: 8 }),
      (lo, span, count) => {
        const ticks = niceTicks(lo, lo + span, count);
        expect(ticks.length).toBeLessThanOrEqual(count);
        expect(ticks.length).toBeGreaterThan(0);
        const slack = 1e-6 * span + 1e-12 * Math.abs(lo + span); // float noise: relative to the range, at least an ulp or so
        for (const t of ticks) expect(t >= lo - slack && t <= lo + span + slack).toBe(true);
        for (let i = 1; i < ticks.length; i++) expect(ticks[i]).toBeGreaterThan(ticks[i - 1]);
        expect(new Set(labels(ticks)).size).toBe(ticks.length);
      },
    ));
  });
});

describe('integerTicks', () => {
  it('reads a step axis in round steps, never 1/76/151', () => {
    expect(integerTicks(0, 150)).toEqual([0, 50, 100, 150]);
    expect(integerTicks(0, 300)).toEqual([0, 100, 200, 300]);
    expect(integerTicks(0, 100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(integerTicks(0, 10)).toEqual([0, 2, 4, 6, 8, 10]);
  });
  it('reads a level axis in whole levels', () => {
    expect(integerTicks(1, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(integerTicks(1, 2)).toEqual([1, 2]);
    expect(integerTicks(1, 10)).toEqual([2, 4, 6, 8, 10]);
  });
  it('uses 25 steps when they fit', () => {
    expect(integerTicks(0, 125)).toEqual([0, 25, 50, 75, 100, 125]);
  });
  it('property: integers only, at most maxCount, inside the range', () => {
    fc.assert(fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 100000 }), fc.integer({ min: 2, max: 8 }), (lo, span, count) => {
      const ticks = integerTicks(lo, lo + span, count);
      expect(ticks.length).toBeGreaterThan(0);
      expect(ticks.length).toBeLessThanOrEqual(count);
      for (const t of ticks) {
        expect(Number.isInteger(t)).toBe(true);
        expect(t >= lo && t <= lo + span).toBe(true);
      }
    }));
  });
});

describe('countAxis', () => {
  it('ends on a tick at or above the largest count', () => {
    expect(countAxis(7, 5)).toEqual({ domain: [0, 8], ticks: [0, 2, 4, 6, 8] });
    expect(countAxis(130, 5)).toEqual({ domain: [0, 150], ticks: [0, 50, 100, 150] });
    expect(countAxis(101, 6)).toEqual({ domain: [0, 125], ticks: [0, 25, 50, 75, 100, 125] });
    expect(countAxis(0, 5)).toEqual({ domain: [0, 1], ticks: [0, 1] });
  });
  it('property: top ≥ max and the last tick is the top', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 2, max: 8 }), (max, count) => {
      const { domain, ticks } = countAxis(max, count);
      expect(domain[1]).toBeGreaterThanOrEqual(max);
      expect(ticks[ticks.length - 1]).toBe(domain[1]);
      expect(ticks.length).toBeLessThanOrEqual(count);
    }));
  });
});

describe('formatTick', () => {
  it('uses no more decimals than the step needs', () => {
    expect([0, 0.25, 0.5, 0.75, 1].map((v) => formatTick(v, 0.25))).toEqual(['0', '0.25', '0.5', '0.75', '1']);
    expect(formatTick(2.8000000000000003, 0.2)).toBe('2.8');
    expect(formatTick(3, 0.2)).toBe('3');
    expect(formatTick(0.30000000000000004, 0.1)).toBe('0.3');
  });
  it('writes big numbers plainly up to 99,999, then in k and M', () => {
    expect(formatTick(1000, 500)).toBe('1000');
    expect(formatTick(99999, 1)).toBe('99999');
    expect(formatTick(100000, 50000)).toBe('100k');
    expect(formatTick(125000, 25000)).toBe('125k');
    expect(formatTick(2500000, 500000)).toBe('2.5M');
  });
  it('never writes -0', () => {
    expect(formatTick(-1e-12, 0.5)).toBe('0');
  });
  it('decimalsFor', () => {
    expect(decimalsFor(0.25)).toBe(2);
    expect(decimalsFor(5)).toBe(0);
    expect(decimalsFor(0.1 + 0.2)).toBe(1);
  });
});

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
    fc.assert(fc.property(
      fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 20 }), fc.double({ min: 1e-3, max: 100, noNaN: true }),
      (values, minSpan) => {
        const [lo, hi] = paddedDomain(values, { minSpan });
        expect(hi - lo).toBeGreaterThanOrEqual(minSpan * (1 - 1e-9));
        const slack = 1e-6 * (hi - lo); // float noise, relative to the span
        expect(lo).toBeLessThanOrEqual(Math.min(...values) + slack);
        expect(hi).toBeGreaterThanOrEqual(Math.max(...values) - slack);
      },
    ));
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
