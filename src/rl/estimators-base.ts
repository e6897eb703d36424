// Response-level advantage estimators: pure functions from a batch of groups of rewards to one
// advantage per sequence (docs/estimators.md, "Base estimators").
//
// Layout everywhere: B prompts × G completions, sequence i = b*G + g, arrays of length N = B*G.
// Each function returns a fresh Float64Array [N] and never mutates its input.

import type { GrpoScale } from '../config/knobs';

/** Added to the std in GRPO's denominator (TRL's value), so all-but-equal groups stay finite. */
export const GRPO_EPS = 1e-4;

type Rewards = ArrayLike<number>;

function mean(x: Rewards, start: number, end: number): number {
  let s = 0;
  for (let i = start; i < end; i++) s += x[i];
  return end > start ? s / (end - start) : 0;
}

/**
 * Sample standard deviation (denominator n − 1, like torch.std and TRL) of x[start, end).
 * Fewer than two values have no spread: 0.
 */
export function sampleStd(x: Rewards, start = 0, end = x.length): number {
  const n = end - start;
  if (n < 2) return 0;
  const m = mean(x, start, end);
  let ss = 0;
  for (let i = start; i < end; i++) ss += (x[i] - m) * (x[i] - m);
  return Math.sqrt(ss / (n - 1));
}

/** True when every reward of group b is exactly the same. */
export function groupIsAllEqual(rewards: Rewards, b: number, G: number): boolean {
  const first = rewards[b * G];
  for (let g = 1; g < G; g++) if (rewards[b * G + g] !== first) return false;
  return true;
}

/** REINFORCE (Williams 1992): A_i = r_i. */
export function reinforceAdvantages(rewards: Rewards): Float64Array {
  return Float64Array.from(rewards);
}

/** REINFORCE with a batch-mean baseline: A_i = r_i − mean over all N rewards. */
export function reinforceBaselineAdvantages(rewards: Rewards): Float64Array {
  const m = mean(rewards, 0, rewards.length);
  return Float64Array.from(rewards, (r) => r - m);
}

/**
 * RLOO (Kool et al. 2019; Ahmadian et al. 2024): A_i = r_i − mean of the G−1 other rewards of
 * the group. A group of one has no peers and gets 0.
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

/**
 * GRPO (Shao et al. 2024, DeepSeekMath): A_i = (r_i − mean_group r) / (std + 1e-4).
 * std is the SAMPLE std (n − 1), as in TRL. scale 'group' uses the group's std, 'batch' the std
 * of all N rewards (TRL scale_rewards="batch"), 'none' does not divide (Dr. GRPO, Liu et al. 2025).
 */
export function grpoAdvantages(rewards: Rewards, B: number, G: number, scale: GrpoScale): Float64Array {
  const out = new Float64Array(B * G);
  const batchStd = scale === 'batch' ? sampleStd(rewards, 0, B * G) : 0;
  for (let b = 0; b < B; b++) {
    const start = b * G;
    if (groupIsAllEqual(rewards, b, G)) continue; // exactly 0, whatever the rounding of the mean
    const m = mean(rewards, start, start + G);
    const denom =
      scale === 'none' ? 1 : (scale === 'batch' ? batchStd : sampleStd(rewards, start, start + G)) + GRPO_EPS;
    for (let g = 0; g < G; g++) out[start + g] = (rewards[start + g] - m) / denom;
  }
  return out;
}

/**
 * SoftmaxGRPO (softmax advantage group estimation, docs/methods.md) (reading): A_i = G·softmax(r/τ)_i − 1.
 * Sums to zero over the group, bounded by G − 1 above and −1 below for any difficulty.
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

/**
 * C(n−c, k) / C(n, k) as a product of ratios (no factorials, no overflow): the probability that
 * k of n draws without replacement all miss the c correct ones. 0 when n − c < k.
 */
export function allMissProbability(n: number, c: number, k: number): number {
  if (n - c < k) return 0;
  let p = 1;
  for (let j = 0; j < k; j++) p *= (n - c - j) / (n - j);
  return p;
}

/** Unbiased pass@k (Chen et al. 2021, Codex): 1 − C(n−c, k)/C(n, k) for c correct of n samples. */
export function unbiasedPassAtK(n: number, c: number, k: number): number {
  return 1 - allMissProbability(n, c, k);
}

/**
 * Pass@k training, analytic form (Chen et al. 2025, "Pass@k Training"): with c correct of n = G,
 * R̄ = 1 − C(n−c,k)/C(n,k), σ = sqrt(R̄(1−R̄)); correct ones get (1−R̄)/σ, incorrect ones
 * (1 − R̄ − C(n−c−1,k−1)/C(n−1,k−1))/σ; all 0 when σ = 0. Uses `correct`, not the reward.
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

/**
 * AVSPO (Adaptive Virtual Sample Policy Optimization, the ACR paper, docs/methods.md) (reading):
 * a group whose G rewards are all equal (GRPO's "advantage collapse") gets `virtual` extra
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

/**
 * GCS, Gaussian Curriculum Sampling (the EXPO / FG-ExPO paper, docs/methods.md) (reading): the
 * paper samples questions with weight exp(−(p − 0.5)²/(2σ²)) of their accuracy p, so training
 * dwells on its frontier. Here the weight scales the group's advantages in the batch instead
 * (in expectation what sampling ∝ weight does to the gradient), with p the group's share of
 * correct completions, renormalised to mean 1 over the groups that carry any advantage so the
 * step size stays the estimator's. sigma = 0 is off (the input, copied).
 */
export function gcsWeighting(
  seqAdv: Rewards,
  correct: ArrayLike<number>,
  B: number,
  G: number,
  sigma: number,
): Float64Array {
  if (!(sigma >= 0) || !Number.isFinite(sigma))
    throw new RangeError(`gcsSigma must be a finite number ≥ 0, got ${sigma}`);
  const out = Float64Array.from(seqAdv);
  if (sigma === 0) return out;
  const w = new Float64Array(B);
  let sum = 0;
  let live = 0;
  for (let b = 0; b < B; b++) {
    let c = 0;
    let any = false;
    for (let g = 0; g < G; g++) {
      if (correct[b * G + g]) c++;
      if (seqAdv[b * G + g] !== 0) any = true;
    }
    const p = c / G;
    w[b] = Math.exp(-((p - 0.5) ** 2) / (2 * sigma * sigma));
    if (any) {
      sum += w[b];
      live++;
    }
  }
  if (live === 0 || !(sum > 0)) return out;
  const mean = sum / live;
  for (let b = 0; b < B; b++) for (let g = 0; g < G; g++) out[b * G + g] *= w[b] / mean;
  return out;
}

/**
 * AKL, Accuracy-Conditioned KL Scaling (the EXPO / FG-ExPO paper, docs/methods.md) (reading): the
 * step's KL coefficient is klBeta · 2·sigmoid(k·(acc − 0.5)), acc the batch's share of correct
 * completions: below half right the anchor loosens (toward 0), above it tightens (toward 2·klBeta),
 * smoothly. sharpness k = 0 is off: the factor is exactly 1.
 */
export function aklFactor(accuracy: number, sharpness: number): number {
  if (sharpness === 0) return 1;
  return 2 / (1 + Math.exp(-sharpness * (accuracy - 0.5)));
}

/**
 * LamPO's pairwise decomposed advantage (Lambda-Style Policy Optimization, docs/methods.md)
 * (reading): A_i = (1/(G−1)) Σ_{j≠i} (r_i − r_j) · w_ij, each pair's reward gap weighted by the
 * policy's confidence in it: w_ij = 2·sigmoid(−sign(r_i − r_j)·(ℓ_i − ℓ_j)/τ), ℓ the sequence's
 * mean log-probability per policy token under the sampling policy. A pair the policy already
 * ranks right (the better completion the likelier) weighs less than 1, one it ranks wrong more.
 * w_ij = w_ji, so the advantages sum to zero per group; τ → ∞ gives w = 1, which is RLOO.
 * The paper's ROUGE-L auxiliary reward is not part of it.
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
