// GRPO (Shao et al. 2024, DeepSeekMath): each reward less its group's mean, divided by the
// group's sample std (+ 1e-4); grpoScale = batch divides by the batch's std instead, none not at
// all (Dr. GRPO, Liu et al. 2025).

import { GRPO_EPS, groupIsAllEqual, mean, sampleStd, type Rewards } from './group-stats';
import type { EstimatorOptions, GrpoScale, RolloutBatch } from './types';

/**
 * A_i = (r_i − mean_group r) / (std + 1e-4), std the SAMPLE std (n − 1), as in TRL. scale
 * 'group' uses the group's std, 'batch' the std of all N rewards (TRL scale_rewards="batch"),
 * 'none' does not divide. Groups whose rewards are all equal get exactly 0.
 */
export function grpoAdvantages(rewards: Rewards, B: number, G: number, scale: GrpoScale): Float64Array {
  const out = new Float64Array(B * G);
  const batchStd = scale === 'batch' ? sampleStd(rewards, 0, B * G) : 0;
  for (let b = 0; b < B; b++) {
    const start = b * G;
    if (groupIsAllEqual(rewards, b, G)) continue; // exactly 0, whatever the rounding of the mean
    const m = mean(rewards, start, start + G);
    const spread = scale === 'batch' ? batchStd : sampleStd(rewards, start, start + G);
    const denom = scale === 'none' ? 1 : spread + GRPO_EPS;
    for (let g = 0; g < G; g++) out[start + g] = (rewards[start + g] - m) / denom;
  }
  return out;
}

/** The estimator "grpo": [N] advantages of the batch. */
export function grpoEstimator(batch: RolloutBatch, options: Pick<EstimatorOptions, 'grpoScale'>): Float64Array {
  return grpoAdvantages(batch.rewards, batch.B, batch.G, options.grpoScale);
}
