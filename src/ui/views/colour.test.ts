import { describe, expect, it } from 'vitest';
import {
  categoricalRgb,
  css,
  divergingRgb,
  hslToRgb,
  luminance,
  mix,
  NEGATIVE,
  POSITIVE,
  SEQUENTIAL_END,
  sequentialRgb,
  symmetricBound,
  textOn,
  WHITE,
} from './colour';

const dist = (a: readonly number[], b: readonly number[]): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

describe('colour scales', () => {
  it('diverging: white at 0, blue at +bound, red at −bound, clamped beyond', () => {
    expect(divergingRgb(0, 2)).toEqual(WHITE);
    expect(divergingRgb(2, 2)).toEqual(POSITIVE);
    expect(divergingRgb(-2, 2)).toEqual(NEGATIVE);
    expect(divergingRgb(50, 2)).toEqual(POSITIVE);
    expect(divergingRgb(-50, 2)).toEqual(NEGATIVE);
  });

  it('diverging: symmetric around 0 and monotone in |value|', () => {
    let prev = 0;
    for (let v = 0.1; v <= 1; v += 0.1) {
      const up = dist(divergingRgb(v, 1), WHITE);
      const down = dist(divergingRgb(-v, 1), WHITE) / dist(NEGATIVE, WHITE);
      expect(up / dist(POSITIVE, WHITE)).toBeCloseTo(down, 1);
      expect(up).toBeGreaterThan(prev);
      prev = up;
    }
  });

  it('diverging and sequential: no bound or a non-finite value gives white', () => {
    expect(divergingRgb(1, 0)).toEqual(WHITE);
    expect(divergingRgb(NaN, 1)).toEqual(WHITE);
    expect(sequentialRgb(1, 0)).toEqual(WHITE);
    expect(sequentialRgb(NaN, 1)).toEqual(WHITE);
  });

  it('sequential: white at 0, full colour at max, monotone, clamped', () => {
    expect(sequentialRgb(0, 3)).toEqual(WHITE);
    expect(sequentialRgb(3, 3)).toEqual(SEQUENTIAL_END);
    expect(sequentialRgb(9, 3)).toEqual(SEQUENTIAL_END);
    expect(sequentialRgb(-1, 3)).toEqual(WHITE);
    expect(luminance(sequentialRgb(1, 3))).toBeGreaterThan(luminance(sequentialRgb(2, 3)));
  });

  it('mix, css, hsl', () => {
    expect(mix([0, 0, 0], [255, 255, 255], 0.5)).toEqual([128, 128, 128]);
    expect(css([1, 2, 3])).toBe('rgb(1, 2, 3)');
    expect(hslToRgb(0, 1, 0.5)).toEqual([255, 0, 0]);
    expect(hslToRgb(120, 1, 0.5)).toEqual([0, 255, 0]);
    expect(hslToRgb(240, 1, 0.5)).toEqual([0, 0, 255]);
  });

  it('categorical: distinct light colours for every element of S4', () => {
    const colours = Array.from({ length: 24 }, (_, i) => css(categoricalRgb(i, 24)));
    expect(new Set(colours).size).toBe(24);
    for (let i = 0; i < 24; i++) expect(textOn(categoricalRgb(i, 24))).toBe('#111');
  });

  it('text colour reads on the background', () => {
    expect(textOn(WHITE)).toBe('#111');
    expect(textOn(POSITIVE)).toBe('#fff');
    expect(textOn(NEGATIVE)).toBe('#fff');
    expect(textOn(SEQUENTIAL_END)).toBe('#fff');
  });

  it('symmetric bound: largest |v| over the kept entries', () => {
    expect(symmetricBound([0.5, -2, 1])).toBe(2);
    expect(symmetricBound([0.5, -2, 1], [1, 0, 1])).toBe(1);
    expect(symmetricBound([NaN, -0.3])).toBe(0.3);
    expect(symmetricBound([])).toBe(0);
  });
});
