// The estimators and shapings added from the papers (AVSPO, LamPO, GCS, AKL), each on a batch small
// enough to work by hand; the arithmetic is in the comments.

import { describe, expect, it } from 'vitest';
import { avspoAdvantages } from '../estimators/avspo';
import { grpoAdvantages } from '../estimators/grpo';
import { lampoAdvantages } from '../estimators/lampo';
import { rlooAdvantages } from '../estimators/rloo';
import { gcsWeighting } from '../estimators/gcs';
import { computeAdvantages, type AdvantageOptions } from './estimators';
import { makeBatch } from './estimators-fixtures';
import { DEFAULT_ADVANTAGE_OPTIONS } from './settings';
import { aklFactor, stepKlBeta } from './step-update';

const opts = (o: Partial<AdvantageOptions>): AdvantageOptions => ({ ...DEFAULT_ADVANTAGE_OPTIONS, ...o });

describe('AVSPO: virtual samples in all-equal groups', () => {
  // B = 3, G = 4: group 0 all right, group 1 all wrong, group 2 mixed [1, 0, 0, 0].
  const rewards = [1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0];

  it('V = 1: all-right groups get +0.4471, all-wrong −0.4471, mixed groups GRPO', () => {
    // Group 0 with one virtual 0: [1, 1, 1, 1, 0], mean 0.8, deviations 0.2 (×4) and −0.8;
    // sample variance (4·0.04 + 0.64)/4 = 0.2, std 0.4472136; A = 0.2/(0.4472136 + 1e-4) = 0.4471136.
    // Group 1 with one virtual 1 mirrors it: −0.4471136.
    // Group 2 has spread: GRPO's mean 0.25, sample std √(0.75/3) = 0.5 → 0.75/0.5001, −0.25/0.5001.
    const a = avspoAdvantages(rewards, 3, 4, 1);
    const v = 0.2 / (Math.sqrt(0.2) + 1e-4);
    expect(v).toBeCloseTo(0.4471136, 6);
    for (let g = 0; g < 4; g++) expect(a[g]).toBeCloseTo(v, 9);
    for (let g = 4; g < 8; g++) expect(a[g]).toBeCloseTo(-v, 9);
    expect(a[8]).toBeCloseTo(0.75 / 0.5001, 9);
    for (let g = 9; g < 12; g++) expect(a[g]).toBeCloseTo(-0.25 / 0.5001, 9);
  });

  it('V = 4 (as many virtual as real): ±0.5/(√(2/7) + 1e-4) = ±0.9352', () => {
    // [1,1,1,1,0,0,0,0]: mean 0.5, sample variance 8·0.25/7 = 2/7, std 0.5345225;
    // A = 0.5/(0.5345225 + 1e-4) = 0.9352394.
    const a = avspoAdvantages(rewards, 3, 4, 4);
    expect(a[0]).toBeCloseTo(0.5 / (Math.sqrt(2 / 7) + 1e-4), 9);
    expect(a[0]).toBeCloseTo(0.9352394, 6);
    expect(a[4]).toBeCloseTo(-0.9352394, 6);
  });

  it('V = 0 is GRPO exactly; a bad V is refused by name', () => {
    expect(Array.from(avspoAdvantages(rewards, 3, 4, 0))).toEqual(Array.from(grpoAdvantages(rewards, 3, 4, 'group')));
    expect(() => avspoAdvantages(rewards, 3, 4, 1.5)).toThrow(/avspoVirtual/);
    expect(() =>
      computeAdvantages(makeBatch({ B: 3, G: 4, T: 1, rewards }), opts({ estimator: 'avspo', avspoVirtual: -1 })),
    ).toThrow(/avspoVirtual/);
  });

  it('runs through the pipeline as estimator "avspo"', () => {
    const r = computeAdvantages(
      makeBatch({ B: 3, G: 4, T: 1, rewards }),
      opts({ estimator: 'avspo', avspoVirtual: 1 }),
    );
    expect(r.seqAdv[0]).toBeCloseTo(0.4471136, 6);
    expect(r.adv[4]).toBeCloseTo(-0.4471136, 6);
  });
});

describe('GCS: a Gaussian weight around pass rate 0.5', () => {
  // B = 2, G = 4. Group 0: [1, 0, 0, 0], p = 0.25; GRPO 0.75/0.5001 = 1.4997, −0.25/0.5001 = −0.4999.
  // Group 1: [1, 1, 0, 0], p = 0.5; mean 0.5, sample std √(1/3) = 0.5773503 → ±0.5/0.5774503 = ±0.8658754.
  // σ = 0.25: w0 = exp(−0.0625/0.125) = exp(−0.5) = 0.6065307, w1 = 1; mean 1.6065307/2 = 0.8032653;
  // normalised w0 = 0.6065307/0.8032653 = 0.7550813, w1 = 1/0.8032653 = 1.2449187.
  const batch = makeBatch({ B: 2, G: 4, T: 1, rewards: [1, 0, 0, 0, 1, 1, 0, 0] });
  const w0 = Math.exp(-0.5) / ((Math.exp(-0.5) + 1) / 2);
  const w1 = 1 / ((Math.exp(-0.5) + 1) / 2);

  it('σ = 0.25 by hand', () => {
    expect(w0).toBeCloseTo(0.7550813, 6);
    expect(w1).toBeCloseTo(1.2449187, 6);
    const r = computeAdvantages(batch, opts({ gcsSigma: 0.25 }));
    expect(r.seqAdv[0]).toBeCloseTo((0.75 / 0.5001) * 0.7550813, 5);
    expect(r.seqAdv[1]).toBeCloseTo((-0.25 / 0.5001) * 0.7550813, 5);
    expect(r.seqAdv[4]).toBeCloseTo(0.8658754 * 1.2449187, 5);
    expect(r.seqAdv[7]).toBeCloseTo(-0.8658754 * 1.2449187, 5);
  });

  it('an all-equal group has no advantage and does not count in the mean weight', () => {
    // Add group 2, all right (p = 1, w = exp(−0.25/0.125) = 0.135, advantage 0): the weights of
    // groups 0 and 1 are those above, since the mean is over the groups with any advantage.
    const three = makeBatch({ B: 3, G: 4, T: 1, rewards: [1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1] });
    const r = gcsWeighting(grpoAdvantages(three.rewards, 3, 4, 'group'), three.correct, 3, 4, 0.25);
    expect(r[0]).toBeCloseTo((0.75 / 0.5001) * w0, 9);
    expect(r[4]).toBeCloseTo((0.5 / (Math.sqrt(1 / 3) + 1e-4)) * w1, 9);
    expect(Array.from(r.subarray(8))).toEqual([0, 0, 0, 0]);
  });

  it('σ = 0 is off; a negative σ is refused by name', () => {
    const plain = computeAdvantages(batch, opts({}));
    expect(Array.from(computeAdvantages(batch, opts({ gcsSigma: 0 })).seqAdv)).toEqual(Array.from(plain.seqAdv));
    expect(() => computeAdvantages(batch, opts({ gcsSigma: -1 }))).toThrow(/gcsSigma/);
  });
});

describe('AKL: the KL weight set by the batch accuracy', () => {
  it('2·sigmoid(k·(acc − 0.5)) by hand', () => {
    // k = 4, acc = 0.25: sigmoid(−1) = 1/(1 + e) = 0.2689414 → 0.5378828.
    expect(aklFactor(0.25, 4)).toBeCloseTo(0.5378828, 6);
    // acc = 0.75: sigmoid(1) = 0.7310586 → 1.4621172; acc = 0.5: exactly 1.
    expect(aklFactor(0.75, 4)).toBeCloseTo(1.4621172, 6);
    expect(aklFactor(0.5, 4)).toBe(1);
    expect(aklFactor(0.9, 0)).toBe(1);
  });

  it('the step β: 8 completions, 2 right, β 0.1, k 4 → 0.1·0.5378828', () => {
    expect(stepKlBeta(0.1, 4, [1, 0, 0, 1, 0, 0, 0, 0])).toBeCloseTo(0.05378828, 7);
    expect(stepKlBeta(0.1, 0, [1, 0, 0, 1, 0, 0, 0, 0])).toBe(0.1);
  });
});

describe("LamPO: pairwise reward gaps weighted by the policy's confidence", () => {
  // B = 1, G = 3, T = 2, every token a policy token. Rewards [1, 0, 0]; per-token log-probs give
  // the mean log-probabilities ℓ = −0.5, −1.0, −0.2. τ = 1.
  // Pair (0, 1): r0 > r1, ℓ0 − ℓ1 = 0.5 (the policy already prefers the better one):
  //   w = 2·sigmoid(−0.5) = 2·0.3775407 = 0.7550813.
  // Pair (0, 2): ℓ0 − ℓ2 = −0.3 (it prefers the worse one): w = 2·sigmoid(0.3) = 2·0.5744425 = 1.1488850.
  // Pair (1, 2): equal rewards, no term.
  // A0 = (0.7550813 + 1.1488850)/2 = 0.9519832; A1 = −0.7550813/2 = −0.3775407; A2 = −1.1488850/2 = −0.5744425.
  const batch = makeBatch({ B: 1, G: 3, T: 2, rewards: [1, 0, 0], logp: [-0.4, -0.6, -1.0, -1.0, -0.1, -0.3] });

  it('τ = 1 by hand; the group sums to zero', () => {
    const r = computeAdvantages(batch, opts({ estimator: 'lampo', lampoTau: 1 }));
    expect(r.seqAdv[0]).toBeCloseTo(0.9519832, 6);
    expect(r.seqAdv[1]).toBeCloseTo(-0.3775407, 6);
    expect(r.seqAdv[2]).toBeCloseTo(-0.5744425, 6);
    expect(r.seqAdv[0] + r.seqAdv[1] + r.seqAdv[2]).toBeCloseTo(0, 12);
  });

  it('a masked token does not count in ℓ', () => {
    // Mask out sequence 0's second token (log-prob −0.6): ℓ0 = −0.4. Pair (0, 1): 0.6 → w = 2·sigmoid(−0.6)
    // = 2/(1 + e^0.6) = 2/2.8221188 = 0.7086874; pair (0, 2): −0.2 → w = 2·sigmoid(0.2) = 1.0996680;
    // A0 = (0.7086874 + 1.0996680)/2 = 0.9041777.
    const masked = makeBatch({
      B: 1,
      G: 3,
      T: 2,
      rewards: [1, 0, 0],
      mask: [1, 0, 1, 1, 1, 1],
      logp: [-0.4, 0, -1.0, -1.0, -0.1, -0.3],
    });
    expect(computeAdvantages(masked, opts({ estimator: 'lampo', lampoTau: 1 })).seqAdv[0]).toBeCloseTo(0.9041777, 6);
  });

  it('large τ is RLOO; no log-probabilities or a bad τ are refused by name', () => {
    const r = lampoAdvantages(batch.rewards, batch.logp!, batch.mask, 1, 3, 2, 1e9);
    const rloo = rlooAdvantages(batch.rewards, 1, 3);
    for (let i = 0; i < 3; i++) expect(r[i]).toBeCloseTo(rloo[i], 8);
    expect(() => computeAdvantages({ ...batch, logp: undefined }, opts({ estimator: 'lampo' }))).toThrow(/logp/);
    expect(() => computeAdvantages(batch, opts({ estimator: 'lampo', lampoTau: 0 }))).toThrow(/lampoTau/);
  });
});
