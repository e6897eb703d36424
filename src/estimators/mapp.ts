// MaPP ("Marginalized Posterior-Predictive", docs/methods.md) (reading, docs/estimators.md): a Beta posterior
// over each prompt's pass rate, used twice: to replace GRPO's composition-dependent advantage by
// its expectation over the peers' outcomes, and to score prompts for selection.
//
// Rewards are binary here. A reward counts as a success when r ≥ 0.5 (MAPP_SUCCESS_THRESHOLD);
// the estimator passes the task's `correct` flags as 0/1, so the verifier's verdict decides.

import type { Rng } from '../core/random';
import { GRPO_EPS } from './group-stats';
import type { EstimatorState, RolloutBatch } from './types';

export const MAPP_SUCCESS_THRESHOLD = 0.5;

export interface BetaParams {
  alpha: number;
  beta: number;
}

export interface MappOptions {
  /** Prior Beta(α0, β0) of a prompt never seen; default Beta(1, 1) (uniform). */
  priorAlpha: number;
  priorBeta: number;
  /** c in score = E[p(1−p)] + c·Var[p]; default 1. c > 1 favours prompts seen rarely. */
  uncertaintyBonus: number;
}

export const DEFAULT_MAPP_OPTIONS: MappOptions = { priorAlpha: 1, priorBeta: 1, uncertaintyBonus: 1 };

/** Plain-data form for checkpoints and worker messages. */
export interface MappSnapshot {
  options: MappOptions;
  posteriors: Record<string, BetaParams>;
}

/**
 * GRPO advantage of one binary outcome when m of the G completions succeeded (its own included),
 * with the same convention as grpoAdvantages(scale 'group'): sample std + 1e-4; 0 when all agree.
 */
export function binaryGrpoAdvantage(success: boolean, m: number, G: number): number {
  if (m <= 0 || m >= G) return 0;
  const mu = m / G;
  // Sample variance of m ones and G−m zeros: m(G−m) / (G(G−1)).
  const std = Math.sqrt((m * (G - m)) / (G * (G - 1)));
  return ((success ? 1 : 0) - mu) / (std + GRPO_EPS);
}

/**
 * BetaBinomial(n, α, β) probabilities P(k), k = 0..n, computed in log space from the ratio
 * P(k+1)/P(k) = (n−k)/(k+1) · (k+α)/(n−k−1+β), so a concentrated posterior never underflows.
 */
export function betaBinomialPmf(n: number, alpha: number, beta: number): Float64Array {
  const logP = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) {
    logP[k + 1] = logP[k] + Math.log((n - k) / (k + 1)) + Math.log((k + alpha) / (n - k - 1 + beta));
  }
  let max = -Infinity;
  for (const v of logP) max = Math.max(max, v);
  let z = 0;
  const p = new Float64Array(n + 1);
  for (let k = 0; k <= n; k++) z += p[k] = Math.exp(logP[k] - max);
  for (let k = 0; k <= n; k++) p[k] /= z;
  return p;
}

/**
 * MaPP advantage of each completion of one group [G]: A_i = Σ_k P(k) · A_GRPO(r_i | k of the
 * G−1 peers succeed), k ~ BetaBinomial(G−1, α, β) from the prompt's posterior. It depends only
 * on the completion's own outcome, so it need not sum to zero and is nonzero for all-equal groups.
 */
export function mappGroupAdvantages(alpha: number, beta: number, outcomes: ArrayLike<number>, G: number): Float64Array {
  const pk = betaBinomialPmf(G - 1, alpha, beta);
  let aSuccess = 0;
  let aFailure = 0;
  for (let k = 0; k <= G - 1; k++) {
    aSuccess += pk[k] * binaryGrpoAdvantage(true, k + 1, G);
    aFailure += pk[k] * binaryGrpoAdvantage(false, k, G);
  }
  const out = new Float64Array(G);
  for (let g = 0; g < G; g++) out[g] = outcomes[g] >= MAPP_SUCCESS_THRESHOLD ? aSuccess : aFailure;
  return out;
}

/**
 * The estimator "mapp": [N] advantages of the batch from the trainer's posterior, which it reads
 * and never updates (the trainer calls observeBatch after it, so a group's own outcomes do not
 * inform its own advantage).
 */
export function mappEstimator(batch: RolloutBatch, _options: unknown, state: EstimatorState): Float64Array {
  const { mapp } = state;
  if (!mapp) throw new Error('estimator "mapp" needs a MappPosterior: computeAdvantages(batch, options, mapp)');
  const { B, G, correct } = batch;
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    // The verifier's verdict (correct) is the binary outcome, not a threshold on the reward.
    const outcomes = Array.from(correct.subarray(b * G, (b + 1) * G));
    out.set(mapp.advantage(batch.promptKeys[b], outcomes, G), b * G);
  }
  return out;
}

/**
 * MaPP with posteriors of its own (prompt key → [α, β], prior Beta(1, 1)), kept between calls:
 * the advantage of the built-in given the same prompts (the built-in also picks its prompts by
 * the posterior, which custom code cannot). It learns from the step's outcomes only after the
 * advantages: a group's own results must not inform its own advantage.
 */
export function mappOwnPosteriors(batch: RolloutBatch, posteriors: Map<string, [number, number]>): Float64Array {
  const { B, G, correct, promptKeys } = batch;
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    const [alpha, beta] = posteriors.get(promptKeys[b]) ?? [1, 1];
    out.set(mappGroupAdvantages(alpha, beta, correct.slice(b * G, (b + 1) * G), G), b * G);
  }
  for (let b = 0; b < B; b++) {
    let s = 0;
    for (let g = 0; g < G; g++) if (correct[b * G + g]) s++;
    const [alpha, beta] = posteriors.get(promptKeys[b]) ?? [1, 1];
    posteriors.set(promptKeys[b], [alpha + s, beta + (G - s)]);
  }
  return out;
}

function checkCount(name: string, v: number): void {
  if (!Number.isFinite(v) || v < 0)
    throw new RangeError(`MappPosterior.update: ${name} must be a finite number ≥ 0, got ${v}`);
}

/** Per-prompt Beta posteriors over a finite prompt pool (keys are stable prompt ids). */
export class MappPosterior {
  readonly options: MappOptions;
  private readonly table = new Map<string, BetaParams>();

  constructor(options: Partial<MappOptions> = {}) {
    this.options = { ...DEFAULT_MAPP_OPTIONS, ...options };
    const { priorAlpha, priorBeta, uncertaintyBonus } = this.options;
    if (!(priorAlpha > 0) || !Number.isFinite(priorAlpha)) {
      throw new RangeError(`MappPosterior: priorAlpha must be a finite number > 0, got ${priorAlpha}`);
    }
    if (!(priorBeta > 0) || !Number.isFinite(priorBeta)) {
      throw new RangeError(`MappPosterior: priorBeta must be a finite number > 0, got ${priorBeta}`);
    }
    if (!(uncertaintyBonus >= 0) || !Number.isFinite(uncertaintyBonus)) {
      throw new RangeError(`MappPosterior: uncertaintyBonus must be a finite number ≥ 0, got ${uncertaintyBonus}`);
    }
  }

  /** Current Beta(α, β) of a prompt (the prior when it was never updated). */
  posterior(promptKey: string): BetaParams {
    const p = this.table.get(promptKey);
    return p ? { ...p } : { alpha: this.options.priorAlpha, beta: this.options.priorBeta };
  }

  /** Conjugate update: α += successes, β += failures. */
  update(promptKey: string, successes: number, failures: number): void {
    checkCount('successes', successes);
    checkCount('failures', failures);
    const p = this.posterior(promptKey);
    this.table.set(promptKey, { alpha: p.alpha + successes, beta: p.beta + failures });
  }

  /** Updates every prompt of a batch from its group's `correct` flags (sequence i = b*G + g). */
  observeBatch(promptKeys: readonly string[], correct: ArrayLike<number>, G: number): void {
    for (let b = 0; b < promptKeys.length; b++) {
      let s = 0;
      for (let g = 0; g < G; g++) if (correct[b * G + g]) s++;
      this.update(promptKeys[b], s, G - s);
    }
  }

  /**
   * MaPP advantage of each completion of one group [G] under this prompt's posterior
   * (mappGroupAdvantages).
   */
  advantage(promptKey: string, rewardsOfGroup: readonly number[] | ArrayLike<number>, G: number): Float64Array {
    if (rewardsOfGroup.length !== G) {
      throw new RangeError(
        `MappPosterior.advantage: rewardsOfGroup has ${rewardsOfGroup.length} entries, expected G=${G}`,
      );
    }
    const { alpha, beta } = this.posterior(promptKey);
    return mappGroupAdvantages(alpha, beta, rewardsOfGroup, G);
  }

  /**
   * Selection score E[p(1−p)] + c·Var[p] for p ~ Beta(α, β). Since E[p(1−p)] = m(1−m) − Var[p]
   * (m = E[p]), this is m(1−m) + (c−1)·Var[p]: with the default c = 1 it is m(1−m), and an
   * unseen prompt (1/4) ties with a well-known 50% prompt.
   */
  score(promptKey: string): number {
    const { alpha, beta } = this.posterior(promptKey);
    const s = alpha + beta;
    const m = alpha / s;
    const variance = (alpha * beta) / (s * s * (s + 1));
    return m * (1 - m) - variance + this.options.uncertaintyBonus * variance;
  }

  /**
   * B distinct prompts drawn without replacement, each draw with probability ∝ score among those
   * left (successive sampling). Duplicate candidates count once. Throws if fewer than B remain.
   */
  selectPrompts(rng: Rng, B: number, candidates: readonly string[]): string[] {
    const pool = [...new Set(candidates)];
    if (!Number.isInteger(B) || B < 0 || B > pool.length) {
      throw new RangeError(
        `MappPosterior.selectPrompts: B must be an integer in [0, ${pool.length}] (distinct candidates), got ${B}`,
      );
    }
    const weights = pool.map((k) => this.score(k));
    const chosen: string[] = [];
    for (let draw = 0; draw < B; draw++) {
      let total = 0;
      for (const w of weights) if (w > 0) total += w;
      let pick = -1;
      if (total > 0) {
        let u = rng.next() * total;
        for (let j = 0; j < pool.length; j++) {
          if (weights[j] <= 0) continue;
          pick = j;
          u -= weights[j];
          if (u < 0) break;
        }
      } else {
        // Every score underflowed to 0: fall back to uniform over what is left.
        const left = pool.map((_, j) => j).filter((j) => weights[j] >= 0);
        pick = left[rng.int(left.length)];
      }
      chosen.push(pool[pick]);
      weights[pick] = -1; // taken
    }
    return chosen;
  }

  toJSON(): MappSnapshot {
    return {
      options: { ...this.options },
      posteriors: Object.fromEntries([...this.table].map(([k, v]) => [k, { ...v }])),
    };
  }

  static fromJSON(snapshot: MappSnapshot): MappPosterior {
    const m = new MappPosterior(snapshot.options);
    for (const [k, v] of Object.entries(snapshot.posteriors)) {
      if (!(v.alpha > 0) || !(v.beta > 0))
        throw new RangeError(`MappPosterior.fromJSON: posteriors["${k}"] needs alpha, beta > 0`);
      m.table.set(k, { alpha: v.alpha, beta: v.beta });
    }
    return m;
  }
}
