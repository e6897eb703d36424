import { describe, expect, it } from 'vitest';
import { allMissProbability, sampleStd, unbiasedPassAtK } from './group-stats';
import { grpoAdvantages } from './grpo';
import { passAtKAdvantages } from './passk';
import { reinforceAdvantages } from './reinforce';
import { reinforceBaselineAdvantages } from './reinforce-baseline';
import { rlooAdvantages } from './rloo';
import { softmaxGrpoAdvantages } from './softmax-grpo';

const close = (actual: ArrayLike<number>, expected: number[], digits = 6): void => {
  expect(actual.length).toBe(expected.length);
  expected.forEach((e, i) => expect(actual[i]).toBeCloseTo(e, digits));
};

// Two groups of G = 4: one success in the first, two in the second.
const TWO_GROUPS = [1, 0, 0, 0, 1, 1, 0, 0];

describe('REINFORCE', () => {
  it('A = r', () => close(reinforceAdvantages([1, 0, 0.5]), [1, 0, 0.5]));

  it('with baseline: A = r − batch mean', () => {
    // mean = 3/8 = 0.375 → 1 − 0.375 = 0.625, 0 − 0.375 = −0.375.
    close(reinforceBaselineAdvantages(TWO_GROUPS), [0.625, -0.375, -0.375, -0.375, 0.625, 0.625, -0.375, -0.375]);
  });
});

describe('RLOO', () => {
  it('A_i = r_i − mean of the others', () => {
    // Group [1,0,0,0]: 1 − 0/3 = 1; 0 − 1/3 = −1/3. Group [1,1,0,0]: 1 − 1/3 = 2/3; 0 − 2/3.
    close(rlooAdvantages(TWO_GROUPS, 2, 4), [1, -1 / 3, -1 / 3, -1 / 3, 2 / 3, 2 / 3, -2 / 3, -2 / 3]);
  });

  it('a group of one has no peers: 0', () => close(rlooAdvantages([1, 0], 2, 1), [0, 0]));
});

describe('GRPO', () => {
  it('sample std: n − 1 in the denominator', () => {
    // [1,0,0,0]: mean 1/4, Σ(r−m)² = 9/16 + 3/16 = 3/4, /3 = 1/4 → std 1/2.
    expect(sampleStd([1, 0, 0, 0])).toBeCloseTo(0.5, 12);
    expect(sampleStd([7])).toBe(0);
  });

  it('scale group: (r − group mean) / (group sample std + 1e-4)', () => {
    // Group 1: std 0.5 → 0.75/0.5001 = 1.4997000600, −0.25/0.5001 = −0.4999000200.
    // Group 2: mean 0.5, var = 4·0.25/3 = 1/3 → std 0.5773502692; ±0.5/0.5774502692 = ±0.8658754…
    const s2 = Math.sqrt(1 / 3) + 1e-4;
    close(grpoAdvantages(TWO_GROUPS, 2, 4, 'group'), [
      1.49970006,
      -0.49990002,
      -0.49990002,
      -0.49990002,
      0.5 / s2,
      0.5 / s2,
      -0.5 / s2,
      -0.5 / s2,
    ]);
    expect(0.5 / s2).toBeCloseTo(0.865875, 6);
  });

  it('scale batch: group-centred, divided by the batch sample std', () => {
    // Batch mean 3/8; Σ(r−m)² = 3·(5/8)² + 5·(3/8)² = 75/64 + 45/64 = 1.875; /7 → std 0.5175491695.
    const d = 0.5175491695 + 1e-4;
    close(grpoAdvantages(TWO_GROUPS, 2, 4, 'batch'), [
      0.75 / d,
      -0.25 / d,
      -0.25 / d,
      -0.25 / d,
      0.5 / d,
      0.5 / d,
      -0.5 / d,
      -0.5 / d,
    ]);
  });

  it('scale none (Dr. GRPO): only centred', () => {
    close(grpoAdvantages(TWO_GROUPS, 2, 4, 'none'), [0.75, -0.25, -0.25, -0.25, 0.5, 0.5, -0.5, -0.5]);
  });

  it('all-equal group: exactly 0 under every scale', () => {
    for (const scale of ['group', 'batch', 'none'] as const) {
      expect(Array.from(grpoAdvantages([1, 1, 1, 0.3, 0.3, 0.3], 2, 3, scale))).toEqual([0, 0, 0, 0, 0, 0]);
    }
  });
});

describe('SoftmaxGRPO', () => {
  it('A = G·softmax(r/τ) − 1, τ = 1', () => {
    // e/(e+3) = 0.4753668 → 4·0.4753668 − 1 = 0.9014673; 4/(e+3) − 1 = −0.3004891.
    close(softmaxGrpoAdvantages([1, 0, 0, 0], 1, 4, 1), [0.9014673, -0.3004891, -0.3004891, -0.3004891]);
  });

  it('τ = 0.5 sharpens toward the best', () => {
    // e² = 7.3890561; 4·7.3890561/10.3890561 − 1 = 1.8449384; 4/10.3890561 − 1 = −0.6149795.
    close(softmaxGrpoAdvantages([1, 0, 0, 0], 1, 4, 0.5), [1.8449384, -0.6149795, -0.6149795, -0.6149795]);
  });

  it('τ → 0: the best-of-group limit (G − 1 for the best, −1 for the rest)', () => {
    close(softmaxGrpoAdvantages([1, 0, 0, 0], 1, 4, 1e-3), [3, -1, -1, -1]);
    close(softmaxGrpoAdvantages([1, 0], 1, 2, 1e-300), [1, -1]); // no overflow
  });

  it('rejects τ ≤ 0', () => expect(() => softmaxGrpoAdvantages([1], 1, 1, 0)).toThrow(/softmaxTau/));
});

describe('pass@k', () => {
  it('ratio form of C(n−c,k)/C(n,k)', () => {
    expect(allMissProbability(4, 1, 2)).toBeCloseTo(3 / 6, 12); // C(3,2)/C(4,2)
    expect(allMissProbability(4, 3, 2)).toBe(0); // C(1,2) = 0
    expect(allMissProbability(4, 1, 0)).toBe(1);
    // C(199,100)/C(200,100) = 100/200, with no overflowing binomials.
    expect(unbiasedPassAtK(200, 1, 100)).toBeCloseTo(0.5, 12);
  });

  it('G = 4, c = 1, k = 2: correct +1, incorrect −1/3', () => {
    // R̄ = 1 − 3/6 = 1/2, σ = 1/2. Correct: (1/2)/(1/2) = 1.
    // Incorrect: C(2,1)/C(3,1) = 2/3 → (1/2 − 2/3)/(1/2) = −1/3.
    close(passAtKAdvantages([1, 0, 0, 0], 1, 4, 2), [1, -1 / 3, -1 / 3, -1 / 3]);
  });

  it('G = 4, c = 2, k = 2: ±1/√5', () => {
    // R̄ = 1 − 1/6 = 5/6, σ = √5/6. Correct: (1/6)/σ = 1/√5. Incorrect: C(1,1)/C(3,1) = 1/3 → (1/6 − 1/3)/σ = −1/√5.
    const a = 1 / Math.sqrt(5);
    close(passAtKAdvantages([1, 0, 1, 0], 1, 4, 2), [a, -a, a, -a]);
  });

  it('σ = 0 (every k-subset passes, or none): all 0', () => {
    close(passAtKAdvantages([1, 1, 1, 0, 0, 0, 0, 0], 2, 4, 2), [0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('k = 1 is GRPO with the population std and no epsilon', () => {
    // c = 1 of 4: p = 1/4, σ = √(3/16) = 0.4330127; correct 0.75/σ = √3, incorrect −0.25/σ = −1/√3.
    close(passAtKAdvantages([0, 1, 0, 0], 1, 4, 1), [
      -1 / Math.sqrt(3),
      Math.sqrt(3),
      -1 / Math.sqrt(3),
      -1 / Math.sqrt(3),
    ]);
  });

  it('rejects k outside [1, G]', () => {
    expect(() => passAtKAdvantages([1, 0], 1, 2, 3)).toThrow(/passK must be an integer in \[1, G=2\]/);
    expect(() => passAtKAdvantages([1, 0], 1, 2, 0)).toThrow(/passK/);
  });
});
