// REINFORCE with a batch-mean baseline: the reward less the mean of all N rewards. Not
// group-relative either: an all-equal group gets a nonzero advantage.

import { mean, type Rewards } from './group-stats';
import type { RolloutBatch } from './types';

/** A_i = r_i − mean over all N rewards. */
export function reinforceBaselineAdvantages(rewards: Rewards): Float64Array {
  const m = mean(rewards, 0, rewards.length);
  return Float64Array.from(rewards, (r) => r - m);
}

/** The estimator "reinforce_baseline": [N] advantages of the batch. */
export function reinforceBaselineEstimator(batch: RolloutBatch): Float64Array {
  return reinforceBaselineAdvantages(batch.rewards);
}
