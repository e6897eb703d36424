// RLOO (Kool et al. 2019; Ahmadian et al. 2024): each completion's reward less the mean of its
// G − 1 peers' rewards.

import { groupIsAllEqual, type Rewards } from './group-stats';
import type { RolloutBatch } from './types';

/**
 * A_i = r_i − mean of the G−1 other rewards of the group. A group of one has no peers and gets 0,
 * and so does a group whose rewards are all equal.
 */
export function rlooAdvantages(rewards: Rewards, B: number, G: number): Float64Array {
  const out = new Float64Array(B * G);
  if (G < 2) return out;
  for (let b = 0; b < B; b++) {
    if (groupIsAllEqual(rewards, b, G)) continue; // exactly 0, whatever the rounding of the mean
    let sum = 0;
    for (let g = 0; g < G; g++) sum += rewards[b * G + g];
    for (let g = 0; g < G; g++) {
      const r = rewards[b * G + g];
      out[b * G + g] = r - (sum - r) / (G - 1);
    }
  }
  return out;
}

/** The estimator "rloo": [N] advantages of the batch. */
export function rlooEstimator(batch: RolloutBatch): Float64Array {
  return rlooAdvantages(batch.rewards, batch.B, batch.G);
}
