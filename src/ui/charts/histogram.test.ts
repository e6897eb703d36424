import { describe, expect, it } from 'vitest';
import { binColor, symmetricDomain, ZERO_BIN_COLOR, zeroBinIndex, type HistogramRun } from './histogram';

function run(counts: number[], edges: number[]): HistogramRun {
  return { id: 'a', label: 'a', color: '#000', counts, edges };
}

/** Red, green, blue channels of an "rgb(r, g, b)" string. */
function channels(color: string): number[] {
  return (color.match(/\d+/g) ?? []).map(Number);
}

describe('symmetricDomain', () => {
  it('is ± the largest |edge| over the runs, rounded up', () => {
    expect(symmetricDomain([run([1, 2], [-0.5, 0, 1.2]), run([3], [-2, 0.1])])).toEqual([-2, 2]);
    expect(symmetricDomain([run([1, 1], [-2.183, 0, 2.183])])).toEqual([-2.5, 2.5]);
    expect(symmetricDomain([run([1], [-0.31, 0.04])])).toEqual([-0.5, 0.5]);
    expect(symmetricDomain([])).toEqual([-1, 1]);
    expect(symmetricDomain([run([], [0])])).toEqual([-1, 1]);
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
