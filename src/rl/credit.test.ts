import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cueCredit, edasCredit } from './credit-group';
import { eapoWeights, topEntropyMask, topEntropyThreshold } from './credit-token';
import { computeAdvantages } from './estimators';
import { DEFAULT_ADVANTAGE_OPTIONS } from './settings';
import { arbBatch } from './estimators-fixtures';

const close = (actual: ArrayLike<number>, expected: number[], digits = 6): void => {
  expect(actual.length).toBe(expected.length);
  expected.forEach((e, i) => expect(actual[i]).toBeCloseTo(e, digits));
};

describe('Cue-GRPO', () => {
  // One group: three correct completions (strategies x, x, y) with advantage +1 each, one wrong (−3).
  const adv = [1, 1, 1, -3];
  const correct = [1, 1, 1, 0];
  const sigs = ['x', 'x', 'y', 'z'];

  it('γ = 1: weights 1/n_c, rescaled to keep the positive total', () => {
    // Weights 1/2, 1/2, 1 → 0.5 + 0.5 + 1 = 2; total was 3 → ×1.5: 0.75, 0.75, 1.5.
    close(cueCredit(adv, correct, sigs, 1, 4, 1), [0.75, 0.75, 1.5, -3]);
  });

  it('γ = 0.5: weights n_c^(−1/2)', () => {
    // 1/√2, 1/√2, 1 sum to 2.4142136; ×3/2.4142136 = ×1.2426407 → 0.8786797, 0.8786797, 1.2426407.
    close(cueCredit(adv, correct, sigs, 1, 4, 0.5), [0.8786797, 0.8786797, 1.2426407, -3]);
  });

  it('γ = 0 is the identity; one strategy only changes nothing', () => {
    close(cueCredit(adv, correct, sigs, 1, 4, 0), adv);
    close(cueCredit(adv, correct, ['x', 'x', 'x', 'z'], 1, 4, 2), adv);
  });

  it('works per group', () => {
    // Group 2 is group 1 shifted; its clusters do not mix with group 1's.
    close(
      cueCredit([...adv, ...adv], [...correct, ...correct], [...sigs, 'y', 'y', 'x', 'z'], 2, 4, 1),
      [0.75, 0.75, 1.5, -3, 0.75, 0.75, 1.5, -3],
    );
  });
});

describe('EDAS', () => {
  // One correct (+3) and three wrong (−1 each) with wrong answers 7, 7, 5.
  const adv = [3, -1, -1, -1];
  const correct = [1, 0, 0, 0];
  const errs = ['correct', '7', '7', '5'];

  it('γ = 1: weights n_e / mean n_e, rescaled to keep the negative total', () => {
    // Clusters 7:2, 5:1, mean 1.5 → weights 4/3, 4/3, 2/3 → −10/3; total was −3 → ×0.9: −1.2, −1.2, −0.6.
    close(edasCredit(adv, correct, errs, 1, 4, 1), [3, -1.2, -1.2, -0.6]);
  });

  it('γ = 0 is the identity; all-distinct errors change nothing', () => {
    close(edasCredit(adv, correct, errs, 1, 4, 0), adv);
    close(edasCredit(adv, correct, ['correct', '1', '2', '3'], 1, 4, 1), adv);
  });
});

describe('EAPO', () => {
  // One sequence, T = 4, last token env-written; entropies 0.5, 1, 1.5 → mean 1, h = 0.5, 1, 1.5.
  const mask = [1, 1, 1, 0];
  const ent = [0.5, 1, 1.5, 0];

  it('A > 0: w = h (already mean 1)', () => close(eapoWeights([2], mask, ent, 1, 4), [0.5, 1, 1.5, 0]));

  it('A < 0: w = 1/h, renormalised', () => {
    // 1/h = 2, 1, 2/3 sum to 11/3 → ×9/11: 18/11, 9/11, 6/11.
    close(eapoWeights([-2], mask, ent, 1, 4), [18 / 11, 9 / 11, 6 / 11, 0]);
  });

  it('clamps to [0.1, 10] before renormalising', () => {
    // Entropies 0, 1, 2 → h = 0, 1, 2. A > 0: 0.1, 1, 2 (sum 3.1) → ×3/3.1.
    const e = [0, 1, 2, 0];
    close(eapoWeights([1], mask, e, 1, 4), [0.3 / 3.1, 3 / 3.1, 6 / 3.1, 0]);
    // A < 0: 1/0 → 10, 1, 0.5 (sum 11.5) → ×3/11.5.
    close(eapoWeights([-1], mask, e, 1, 4), [30 / 11.5, 3 / 11.5, 1.5 / 11.5, 0]);
  });

  it('A = 0 or zero entropy everywhere: uniform', () => {
    close(eapoWeights([0], mask, ent, 1, 4), [1, 1, 1, 0]);
    close(eapoWeights([1], mask, [0, 0, 0, 0], 1, 4), [1, 1, 1, 0]);
  });

  it('property: mean 1 over each sequence’s policy tokens, 0 elsewhere, never negative', () => {
    fc.assert(
      fc.property(arbBatch(), fc.double({ min: -3, max: 3, noNaN: true }), (batch, a) => {
        const N = batch.B * batch.G;
        const seqAdv = Array.from({ length: N }, (_, i) => (i % 2 ? a : -a));
        const w = eapoWeights(seqAdv, batch.mask, batch.entropy, N, batch.T);
        for (let i = 0; i < N; i++) {
          let sum = 0;
          let n = 0;
          for (let t = 0; t < batch.T; t++) {
            const j = i * batch.T + t;
            expect(w[j]).toBeGreaterThanOrEqual(0);
            if (batch.mask[j] === 0) expect(w[j]).toBe(0);
            else {
              sum += w[j];
              n++;
            }
          }
          if (n > 0) expect(sum / n).toBeCloseTo(1, 9);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('top-entropy quantile', () => {
  // Four policy tokens (entropies 0.1, 0.4, 0.4, 0.2) and one env token with a large entropy.
  const mask = [1, 1, 1, 1, 0];
  const ent = [0.1, 0.4, 0.4, 0.2, 9].map(Math.fround);

  it('keeps the ⌈q·M⌉ highest-entropy policy tokens', () => {
    // q = 0.5: ⌈2⌉ = 2 → threshold 0.4 → the two 0.4 tokens.
    expect(Array.from(topEntropyMask(mask, ent, 0.5))).toEqual([0, 1, 1, 0, 0]);
    // q = 0.6: ⌈2.4⌉ = 3 → threshold 0.2.
    expect(Array.from(topEntropyMask(mask, ent, 0.6))).toEqual([0, 1, 1, 1, 0]);
  });

  it('ties at the threshold are all kept', () => {
    // q = 0.25: ⌈1⌉ = 1 → threshold 0.4, but two tokens have it → both kept.
    expect(Array.from(topEntropyMask(mask, ent, 0.25))).toEqual([0, 1, 1, 0, 0]);
  });

  it('q = 1 keeps the mask as is; q outside (0, 1] is rejected', () => {
    expect(topEntropyThreshold(mask, ent, 1)).toBe(-Infinity);
    expect(Array.from(topEntropyMask(mask, ent, 1))).toEqual(mask);
    expect(() => topEntropyMask(mask, ent, 0)).toThrow(/topEntropyQuantile/);
    expect(() => topEntropyMask(mask, ent, 1.5)).toThrow(/topEntropyQuantile/);
  });

  it('property: a subset of the mask, at least ⌈q·M⌉ tokens, every kept entropy ≥ every dropped one', () => {
    fc.assert(
      fc.property(arbBatch(), fc.double({ min: 0.01, max: 1, noNaN: true }), (batch, q) => {
        const kept = topEntropyMask(batch.mask, batch.entropy, q);
        let M = 0;
        let K = 0;
        let minKept = Infinity;
        let maxDropped = -Infinity;
        for (let j = 0; j < kept.length; j++) {
          if (batch.mask[j] === 0) {
            expect(kept[j]).toBe(0);
            continue;
          }
          M++;
          if (kept[j] !== 0) {
            K++;
            minKept = Math.min(minKept, batch.entropy[j]);
          } else maxDropped = Math.max(maxDropped, batch.entropy[j]);
        }
        expect(K).toBeGreaterThanOrEqual(Math.ceil(q * M));
        expect(minKept).toBeGreaterThan(maxDropped);
      }),
      { numRuns: 200 },
    );
  });
});

describe('group-structure credit properties', () => {
  const groupTotals = (adv: ArrayLike<number>, B: number, G: number, sign: 1 | -1): number[] =>
    Array.from({ length: B }, (_, b) => {
      let s = 0;
      for (let g = 0; g < G; g++) if (sign * adv[b * G + g] > 0) s += adv[b * G + g];
      return s;
    });

  const gamma = fc.double({ min: -3, max: 3, noNaN: true });

  it('Cue and EDAS keep each group’s positive and negative totals and every sign', () => {
    fc.assert(
      fc.property(arbBatch(), gamma, gamma, (batch, cueGamma, edasGamma) => {
        const rloo = { ...DEFAULT_ADVANTAGE_OPTIONS, estimator: 'rloo' as const };
        const base = computeAdvantages(batch, rloo).seqAdv;
        const both = computeAdvantages(batch, { ...rloo, cue: true, cueGamma, edas: true, edasGamma }).seqAdv;
        const { B, G } = batch;
        for (const sign of [1, -1] as const) {
          const before = groupTotals(base, B, G, sign);
          const after = groupTotals(both, B, G, sign);
          before.forEach((v, b) => expect(after[b]).toBeCloseTo(v, 9));
        }
        for (let i = 0; i < B * G; i++) expect(Math.sign(both[i])).toBe(Math.sign(base[i]));
      }),
      { numRuns: 300 },
    );
  });
});
