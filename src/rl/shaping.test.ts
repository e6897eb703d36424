import { describe, expect, it } from 'vitest';
import { applyOverlongShaping, informativeGroups, overlongPenalty } from './shaping';

describe('DAPO overlong shaping', () => {
  it('0 up to Lmax − Lbuf, linear to −1 at Lmax, −1 beyond', () => {
    // Lmax = 10, Lbuf = 4: soft limit 6. L = 7 → (6 − 7)/4 = −0.25; L = 8 → −0.5; L = 10 → −1.
    expect([5, 6, 7, 8, 10, 11].map((L) => overlongPenalty(L, 10, 4))).toEqual([0, 0, -0.25, -0.5, -1, -1]);
  });

  it('Lbuf = 0: a hard limit, no division by zero', () => {
    expect([10, 11].map((L) => overlongPenalty(L, 10, 0))).toEqual([0, -1]);
  });

  it('adds to the reward without clamping (rewards may go below 0)', () => {
    expect(Array.from(applyOverlongShaping([1, 1, 1, 0], [6, 7, 10, 12], 10, 4))).toEqual([1, 0.75, 0, -1]);
  });

  it('rejects a buffer longer than the limit and mismatched lengths', () => {
    expect(() => overlongPenalty(3, 4, 5)).toThrow(/bufferLength/);
    expect(() => applyOverlongShaping([1], [1, 2], 4, 1)).toThrow(/lengths/);
  });
});

describe('DAPO dynamic sampling', () => {
  it('a group is informative unless all its rewards are equal', () => {
    expect(informativeGroups([1, 1, 0, 1, 0.5, 0.5], 3, 2)).toEqual([false, true, false]);
    expect(informativeGroups([0.2], 1, 1)).toEqual([false]);
    expect(() => informativeGroups([1, 1, 1], 2, 2)).toThrow(/B\*G/);
  });
});
