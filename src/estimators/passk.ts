// Pass@k training, analytic form (Chen et al. 2025, "Pass@k Training"): a group is rewarded for
// having at least one success among k tries. It reads `correct`, not the reward.

import { allMissProbability, unbiasedPassAtK } from './group-stats';
import type { EstimatorOptions, RolloutBatch } from './types';

/**
 * With c correct of n = G: R̄ = 1 − C(n−c,k)/C(n,k), σ = sqrt(R̄(1−R̄)); correct ones get
 * (1−R̄)/σ, incorrect ones (1 − R̄ − C(n−c−1,k−1)/C(n−1,k−1))/σ; all 0 when σ = 0.
 * k = 1 is GRPO with the population std and no epsilon.
 */
export function passAtKAdvantages(correct: ArrayLike<number>, B: number, G: number, k: number): Float64Array {
  if (!Number.isInteger(k) || k < 1 || k > G) {
    throw new RangeError(`passK must be an integer in [1, G=${G}], got ${k}`);
  }
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    const start = b * G;
    let c = 0;
    for (let g = 0; g < G; g++) if (correct[start + g]) c++;
    const rBar = unbiasedPassAtK(G, c, k);
    const sigma = Math.sqrt(rBar * (1 - rBar));
    if (!(sigma > 0)) continue;
    const aCorrect = (1 - rBar) / sigma;
    // An incorrect sample's k-subsets miss every correct one with probability C(n−c−1,k−1)/C(n−1,k−1).
    const aWrong = (1 - rBar - allMissProbability(G - 1, c, k - 1)) / sigma;
    for (let g = 0; g < G; g++) out[start + g] = correct[start + g] ? aCorrect : aWrong;
  }
  return out;
}

/** The estimator "passk": [N] advantages of the batch. */
export function passKEstimator(batch: RolloutBatch, options: Pick<EstimatorOptions, 'passK'>): Float64Array {
  return passAtKAdvantages(batch.correct, batch.B, batch.G, options.passK);
}
