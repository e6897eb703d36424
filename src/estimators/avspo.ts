// AVSPO (Adaptive Virtual Sample Policy Optimization, the ACR paper, docs/methods.md) (reading):
// GRPO, but a group whose rewards are all equal gets virtual samples of the opposite outcome.

import { GRPO_EPS, groupIsAllEqual, type Rewards } from './group-stats';
import { grpoAdvantages } from './grpo';
import type { EstimatorOptions, RolloutBatch } from './types';

/**
 * A group whose G rewards are all equal (GRPO's "advantage collapse") gets `virtual` extra
 * samples with the opposite outcome (reward 1 when the group's reward is below 0.5, else 0), and
 * the GRPO advantage over those G + V rewards (sample std + 1e-4) goes to its real completions:
 * an all-correct group is reinforced, an all-wrong one pushed down, with no extra rollout.
 * Groups with spread get GRPO's advantage. The paper sets the amount from the batch's collapse
 * rate as it trains; here V is a fixed knob (avspoVirtual). virtual = 0 is GRPO.
 */
export function avspoAdvantages(rewards: Rewards, B: number, G: number, virtual: number): Float64Array {
  if (!Number.isInteger(virtual) || virtual < 0)
    throw new RangeError(`avspoVirtual must be an integer ≥ 0, got ${virtual}`);
  const out = grpoAdvantages(rewards, B, G, 'group');
  if (virtual === 0) return out;
  for (let b = 0; b < B; b++) {
    if (!groupIsAllEqual(rewards, b, G)) continue;
    const r = rewards[b * G];
    const rv = r < 0.5 ? 1 : 0;
    // G real rewards r and V virtual rv: mean m, sample std over G + V values.
    const n = G + virtual;
    const m = (G * r + virtual * rv) / n;
    const std = n > 1 ? Math.sqrt((G * (r - m) ** 2 + virtual * (rv - m) ** 2) / (n - 1)) : 0;
    const a = (r - m) / (std + GRPO_EPS);
    for (let g = 0; g < G; g++) out[b * G + g] = a;
  }
  return out;
}

/** The estimator "avspo": [N] advantages of the batch. */
export function avspoEstimator(batch: RolloutBatch, options: Pick<EstimatorOptions, 'avspoVirtual'>): Float64Array {
  return avspoAdvantages(batch.rewards, batch.B, batch.G, options.avspoVirtual);
}
