import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeAdvantages } from './estimators';
import { DEFAULT_ADVANTAGE_OPTIONS } from './settings';
import { arbBatch, makeBatch } from './estimators-fixtures';
import { aggregateTaskMetrics, histogram, passAtKCurve, stepMetrics, VERL_NAMES } from './step-metrics';

describe('step metrics', () => {
  // B = 2, G = 2, T = 3. Group 0: one right, one wrong; group 1: both right.
  const batch = makeBatch({
    B: 2,
    G: 2,
    T: 3,
    rewards: [1, 0, 1, 1],
    mask: [1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0],
    entropy: [2, 4, 0, 3, 0, 0, 1, 1, 1, 0, 5, 0],
    lengths: [3, 2, 3, 3],
  });
  const result = computeAdvantages(batch, DEFAULT_ADVANTAGE_OPTIONS);
  const m = stepMetrics(batch, result, Uint8Array.from([0, 0, 1, 0]), 3);
  const s = m.scalars;

  it('rewards and groups', () => {
    expect(s.reward).toBeCloseTo(0.75, 12);
    // Group sample stds: √0.5 and 0 → mean 0.3535534.
    expect(s.reward_std).toBeCloseTo(Math.SQRT1_2 / 2, 12);
    expect(s.frac_reward_zero_std).toBe(0.5);
    expect(s.frac_all_correct).toBe(0.5);
    expect(s.frac_all_wrong).toBe(0);
    // pass@1 = (1/2 + 1)/2; pass@2 = (1 + 1)/2.
    expect(s['pass@1']).toBeCloseTo(0.75, 12);
    expect(s['pass@2']).toBeCloseTo(1, 12);
    expect(s['pass@3']).toBeUndefined();
  });

  it('advantages of trained tokens, with a symmetric histogram', () => {
    // Group 0 GRPO: ±0.5/(√0.5 + 1e-4) = ±0.7070068 on 2 + 1 tokens; group 1: 0 on 3 + 1 tokens.
    const a = 0.5 / (Math.SQRT1_2 + 1e-4);
    expect(s['advantages/mean']).toBeCloseTo(a / 7, 6);
    expect(s['advantages/max']).toBeCloseTo(a, 6);
    expect(s['advantages/min']).toBeCloseTo(-a, 6);
    // Population std of (a, a, −a, 0, 0, 0, 0): E[x²] − mean² = 3a²/7 − a²/49.
    expect(s['advantages/std']).toBeCloseTo(Math.sqrt((3 * a * a) / 7 - (a * a) / 49), 6);
    expect(Array.from(m.advantage_histogram.counts)).toEqual([1, 4, 2]);
    expect(m.advantage_histogram.edges[0]).toBeCloseTo(-a, 6);
    expect(m.advantage_histogram.edges[3]).toBeCloseTo(a, 6);
  });

  it('entropy over policy tokens, overall and by position', () => {
    // Policy entropies: 2, 4 | 3 | 1, 1, 1 | 5 → 17/7.
    expect(s.entropy).toBeCloseTo(17 / 7, 6);
    // Position 0: 2, 3, 1 → 2; position 1: 4, 1, 5 → 10/3; position 2: 1.
    const byPos = m.entropy_by_pos;
    [2, 10 / 3, 1].forEach((e, t) => expect(byPos[t]).toBeCloseTo(e, 12));
    expect(Array.from(m.tokens_by_pos)).toEqual([3, 3, 1]);
  });

  it('lengths', () => {
    expect(s['completions/mean_length']).toBe(2.75);
    expect(s['completions/min_length']).toBe(2);
    expect(s['completions/max_length']).toBe(3);
    expect(s['completions/clipped_ratio']).toBe(0.25);
  });

  it('every scalar is finite for any batch', () => {
    fc.assert(
      fc.property(arbBatch({ shaped: true }), (b) => {
        const r = computeAdvantages(b, { ...DEFAULT_ADVANTAGE_OPTIONS, tokenCredit: 'eapo', topEntropyQuantile: 0.5 });
        const out = stepMetrics(b, r, new Uint8Array(b.B * b.G));
        for (const v of Object.values(out.scalars)) expect(Number.isFinite(v)).toBe(true);
        for (const v of out.entropy_by_pos) expect(Number.isFinite(v)).toBe(true);
        const total = out.advantage_histogram.counts.reduce((x, y) => x + y, 0);
        expect(total).toBe(r.tokenMask.filter((x) => x !== 0).length);
      }),
      { numRuns: 100 },
    );
  });

  it('rejects a truncated array of the wrong size', () => {
    expect(() => stepMetrics(batch, result, new Uint8Array(3))).toThrow(/truncated/);
  });
});

describe('pass@k curve', () => {
  it('n = 4, c = 1: 1/4, 1/2, 3/4, 1', () => {
    // 1 − C(3,k)/C(4,k): k=2 → 1 − 3/6; k=3 → 1 − 1/4; k=4 → 1.
    const curve = passAtKCurve([0, 1, 0, 0], 1, 4);
    [0.25, 0.5, 0.75, 1].forEach((e, k) => expect(curve[k]).toBeCloseTo(e, 12));
  });

  it('property: pass@1 = accuracy, nondecreasing in k, pass@G = any correct', () => {
    fc.assert(
      fc.property(arbBatch({ maxG: 12 }), (b) => {
        const curve = passAtKCurve(b.correct, b.B, b.G);
        const acc = b.correct.reduce((x, y) => x + y, 0) / (b.B * b.G);
        expect(curve[0]).toBeCloseTo(acc, 12);
        for (let k = 1; k < b.G; k++) expect(curve[k]).toBeGreaterThanOrEqual(curve[k - 1] - 1e-12);
        let any = 0;
        for (let g = 0; g < b.B; g++) if (b.correct.subarray(g * b.G, (g + 1) * b.G).some((c) => c)) any++;
        expect(curve[b.G - 1]).toBeCloseTo(any / b.B, 12);
      }),
      { numRuns: 100 },
    );
  });
});

describe('histogram', () => {
  it('fixed bins over [min, max]; the max lands in the last bin', () => {
    const h = histogram([-1, 0, 1], 2);
    expect(Array.from(h.edges)).toEqual([-1, 0, 1]);
    expect(Array.from(h.counts)).toEqual([1, 2]);
  });

  it('one value or none: a unit range around it', () => {
    expect(Array.from(histogram([2, 2], 1).edges)).toEqual([1.5, 2.5]);
    expect(Array.from(histogram([], 2).counts)).toEqual([0, 0]);
  });
});

describe('task metrics and names', () => {
  it('averages each key over the groups that report it; never NaN', () => {
    expect(aggregateTaskMetrics([{ a: 1, b: 2 }, { a: 3 }, { b: NaN }, {}])).toEqual({ a: 2, b: 2 });
    expect(aggregateTaskMetrics([])).toEqual({});
  });

  it('maps TRL names to verl names', () => {
    expect(VERL_NAMES.reward).toBe('critic/score/mean');
    expect(VERL_NAMES.entropy).toBe('actor/entropy');
    expect(VERL_NAMES['completions/clipped_ratio']).toBe('response_length/clip_ratio');
  });
});
