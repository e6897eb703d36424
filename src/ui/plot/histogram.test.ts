import { describe, expect, it } from 'vitest';
import { barRects, binColor, maxCount, stepOutlinePath, symmetricDomain, ZERO_BIN_COLOR, zeroBinIndex, type HistogramRun } from './histogram';

const identity = (v: number): number => v;
const flipY = (v: number): number => 100 - v;

function run(counts: number[], edges: number[]): HistogramRun {
  return { id: 'a', label: 'a', color: '#000', counts, edges };
}

/** Red, green, blue channels of an "rgb(r, g, b)" string. */
function channels(color: string): number[] {
  return (color.match(/\d+/g) ?? []).map(Number);
}

describe('symmetricDomain', () => {
  it('is ± the largest |edge| over the runs', () => {
    expect(symmetricDomain([run([1, 2], [-0.5, 0, 1.2]), run([3], [-2, 0.1])])).toEqual([-2, 2]);
    expect(symmetricDomain([])).toEqual([-1, 1]);
    expect(symmetricDomain([run([], [0])])).toEqual([-1, 1]);
  });
});

describe('maxCount', () => {
  it('is the largest count over the runs', () => {
    expect(maxCount([run([1, 7], [0, 1, 2]), run([3], [0, 1])])).toBe(7);
    expect(maxCount([])).toBe(0);
  });
});

describe('zeroBinIndex', () => {
  it('finds the middle bin of an odd symmetric binning', () => {
    expect(zeroBinIndex([-1.5, -0.5, 0.5, 1.5])).toBe(1);
  });
  it('follows the [lo, hi) convention when 0 is an edge', () => {
    expect(zeroBinIndex([-1, 0, 1])).toBe(1);
    expect(zeroBinIndex([-1, -0.5, 0])).toBe(1); // last bin is closed
  });
  it('is −1 when 0 is outside', () => {
    expect(zeroBinIndex([1, 2, 3])).toBe(-1);
    expect(zeroBinIndex([])).toBe(-1);
  });
});

describe('binColor', () => {
  it('is grey for the zero bin, red below 0, blue above', () => {
    expect(binColor(0.01, 1, true)).toBe(ZERO_BIN_COLOR);
    const [rn, , bn] = channels(binColor(-0.5, 1, false));
    expect(rn).toBeGreaterThan(bn);
    const [rp, , bp] = channels(binColor(0.5, 1, false));
    expect(bp).toBeGreaterThan(rp);
  });
  it('grows stronger with |centre| and is never a near-white tint', () => {
    const weak = channels(binColor(0.01, 1, false));
    const strong = channels(binColor(1, 1, false));
    expect(strong[0]).toBeLessThan(weak[0]);
    expect(Math.min(...weak)).toBeLessThan(200); // visibly coloured on white
    expect(binColor(5, 1, false)).toBe(binColor(1, 1, false)); // clamped at the bound
  });
});

describe('barRects', () => {
  it('gives one bar per bin, standing on the 0 count line', () => {
    const bars = barRects(run([2, 5, 1], [-30, -10, 10, 30]), identity, flipY, 30);
    expect(bars).toHaveLength(3);
    expect(bars.map((b) => b.count)).toEqual([2, 5, 1]);
    expect(bars.map((b) => b.height)).toEqual([2, 5, 1]);
    expect(bars.map((b) => b.y + b.height)).toEqual([100, 100, 100]);
    expect(bars[1].x).toBeCloseTo(-9.5); // a 1 px gap between wide bars
    expect(bars[1].width).toBeCloseTo(19);
    expect(bars[1].fill).toBe(ZERO_BIN_COLOR);
    expect(bars[0].fill).not.toBe(bars[2].fill);
  });
});

describe('stepOutlinePath', () => {
  it('traces the histogram outline from and back to the 0 line', () => {
    expect(stepOutlinePath(run([2, 5], [0, 10, 20]), identity, flipY)).toBe('M0 100V98H10V95H20V100');
  });
  it('is empty for inconsistent input', () => {
    expect(stepOutlinePath(run([1, 2], [0, 1]), identity, identity)).toBe('');
    expect(stepOutlinePath(run([], [0]), identity, identity)).toBe('');
  });
});
