// REINFORCE (Williams 1992): the reward itself is the advantage. Not group-relative: a group
// whose rewards are all 1 still gets a positive advantage.

import type { Rewards } from './group-stats';
import type { RolloutBatch } from './types';

/** A_i = r_i. */
export function reinforceAdvantages(rewards: Rewards): Float64Array {
  return Float64Array.from(rewards);
}

/** The estimator "reinforce": [N] advantages of the batch. */
export function reinforceEstimator(batch: RolloutBatch): Float64Array {
  return reinforceAdvantages(batch.rewards);
}
