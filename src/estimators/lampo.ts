// LamPO's pairwise decomposed advantage (Lambda-Style Policy Optimization, docs/methods.md)
// (reading): each pair's reward gap, weighted by the policy's confidence in it.

import type { Rewards } from './group-stats';
import type { EstimatorOptions, RolloutBatch } from './types';

/**
 * A_i = (1/(G−1)) Σ_{j≠i} (r_i − r_j) · w_ij, with w_ij = 2·sigmoid(−sign(r_i − r_j)·(ℓ_i − ℓ_j)/τ),
 * ℓ the sequence's mean log-probability per policy token under the sampling policy. A pair the
 * policy already ranks right (the better completion the likelier) weighs less than 1, one it
 * ranks wrong more. w_ij = w_ji, so the advantages sum to zero per group; τ → ∞ gives w = 1,
 * which is RLOO. The paper's ROUGE-L auxiliary reward is not part of it.
 */
export function lampoAdvantages(
  rewards: Rewards,
  logp: ArrayLike<number>,
  mask: ArrayLike<number>,
  B: number,
  G: number,
  T: number,
  tau: number,
): Float64Array {
  if (!(tau > 0) || Number.isNaN(tau)) throw new RangeError(`lampoTau must be a number > 0, got ${tau}`);
  const N = B * G;
  const out = new Float64Array(N);
  if (G < 2) return out;
  // ℓ_i [N]: mean log π(y_t) over the sequence's policy tokens (0 for a sequence without any).
  const ell = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let s = 0;
    let n = 0;
    for (let t = 0; t < T; t++) {
      if (mask[i * T + t] !== 0) {
        s += logp[i * T + t];
        n++;
      }
    }
    ell[i] = n > 0 ? s / n : 0;
  }
  for (let b = 0; b < B; b++) {
    for (let g = 0; g < G; g++) {
      const i = b * G + g;
      let sum = 0;
      for (let h = 0; h < G; h++) {
        const j = b * G + h;
        const gap = rewards[i] - rewards[j];
        if (h === g || gap === 0) continue;
        const w = 2 / (1 + Math.exp((Math.sign(gap) * (ell[i] - ell[j])) / tau));
        sum += gap * w;
      }
      out[i] = sum / (G - 1);
    }
  }
  return out;
}

/** The estimator "lampo": [N] advantages of the batch (it needs the batch's logp). */
export function lampoEstimator(batch: RolloutBatch, options: Pick<EstimatorOptions, 'lampoTau'>): Float64Array {
  if (!batch.logp) throw new Error('estimator "lampo" needs the batch\'s log-probabilities: RolloutBatch.logp [N*T]');
  return lampoAdvantages(batch.rewards, batch.logp, batch.mask, batch.B, batch.G, batch.T, options.lampoTau);
}
