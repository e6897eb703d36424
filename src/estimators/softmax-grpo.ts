// SoftmaxGRPO (softmax advantage group estimation, docs/methods.md) (reading): G·softmax(r/τ) − 1
// within each group.

import type { Rewards } from './group-stats';
import type { EstimatorOptions, RolloutBatch } from './types';

/**
 * A_i = G·softmax(r/τ)_i − 1. Sums to zero over the group, bounded by G − 1 above and −1 below
 * for any difficulty. Computed as exp((r − max r)/τ), so it never overflows.
 */
export function softmaxGrpoAdvantages(rewards: Rewards, B: number, G: number, tau: number): Float64Array {
  if (!(tau > 0) || !Number.isFinite(tau)) throw new RangeError(`softmaxTau must be a finite number > 0, got ${tau}`);
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    const start = b * G;
    // (r − max r)/τ ≤ 0, so exp never overflows and the best completion's term is exactly 1.
    let max = -Infinity;
    for (let g = 0; g < G; g++) max = Math.max(max, rewards[start + g]);
    const e = new Float64Array(G);
    let z = 0;
    for (let g = 0; g < G; g++) z += e[g] = Math.exp((rewards[start + g] - max) / tau);
    for (let g = 0; g < G; g++) out[start + g] = (G * e[g]) / z - 1;
  }
  return out;
}

/** The estimator "softmax_grpo": [N] advantages of the batch. */
export function softmaxGrpoEstimator(batch: RolloutBatch, options: Pick<EstimatorOptions, 'softmaxTau'>): Float64Array {
  return softmaxGrpoAdvantages(batch.rewards, batch.B, batch.G, options.softmaxTau);
}
