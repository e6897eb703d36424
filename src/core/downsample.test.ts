import { describe, expect, it } from 'vitest';
import { downsample, downsampleRows, POINT_BUDGET } from './downsample';

const line = (n: number) => Array.from({ length: n }, (_, i) => ({ x: i + 1, y: 2 * (i + 1) }));

describe('downsample', () => {
  it('leaves a series within the budget as it is (a copy)', () => {
    const pts = line(10);
    const out = downsample(pts, 10);
    expect(out).toEqual(pts);
    expect(out).not.toBe(pts);
  });

  it('never exceeds the budget, keeps both ends, and averages buckets', () => {
    for (const n of [301, 1000, 12_345]) {
      const out = downsample(line(n));
      expect(out.length).toBeLessThanOrEqual(POINT_BUDGET);
      expect(out.length).toBeGreaterThan(POINT_BUDGET - 3);
      expect(out[0]).toEqual({ x: 1, y: 2 });
      expect(out.at(-1)).toEqual({ x: n, y: 2 * n });
      // a linear series stays on its line after bucket means, and x increases
      for (const p of out) expect(p.y).toBeCloseTo(2 * p.x, 9);
      for (let i = 1; i < out.length; i++) expect(out[i].x).toBeGreaterThan(out[i - 1].x);
    }
  });

  it('averages each bucket: 1..8 into 4 points', () => {
    expect(downsample(line(8), 4)).toEqual([
      { x: 1, y: 2 },
      { x: 3, y: 6 }, // mean of x = 2..4
      { x: 6, y: 12 }, // mean of x = 5..7
      { x: 8, y: 16 },
    ]);
  });

  it('skips non-finite values and handles tiny budgets', () => {
    const pts = [
      { x: 1, y: 1 },
      { x: 2, y: NaN },
      { x: 3, y: Infinity },
      { x: 4, y: 4 },
    ];
    expect(downsample(pts, 10)).toEqual([
      { x: 1, y: 1 },
      { x: 4, y: 4 },
    ]);
    expect(downsample(line(5), 1)).toEqual([{ x: 5, y: 10 }]);
    expect(downsample(line(5), 2)).toEqual([
      { x: 1, y: 2 },
      { x: 5, y: 10 },
    ]);
    expect(downsample(line(5), 0)).toEqual([]);
    expect(downsample([], 300)).toEqual([]);
  });

  it('downsampleRows buckets every field together (shared x for stacked charts)', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ x: i, a: 1, b: i }));
    const out = downsampleRows(rows, 100);
    expect(out.length).toBeLessThanOrEqual(100);
    expect(out[0]).toEqual({ x: 0, a: 1, b: 0 });
    expect(out.at(-1)).toEqual({ x: 999, a: 1, b: 999 });
    for (const r of out) {
      expect(r.a).toBe(1);
      expect(r.b).toBeCloseTo(r.x, 9);
    }
  });
});
