// What one RL step reports: the metrics of its batch of rollouts (stepMetrics) and of its
// update (passMetrics), named like TRL's GRPOTrainer with VERL_NAMES mapping them to verl's
// (docs/estimators.md, "Metrics"), and the records a step and an evaluation write (one line of
// metrics.jsonl, one event to the page). Pure; no value is ever NaN.

import { PG_STAT, PG_STATS } from '../core/abi';
import type { Split } from '../tasks/split';
import type { TrainResult } from './engine';
import type { AdvantageResult, RolloutBatch } from './estimators';
import { groupIsAllEqual, sampleStd, unbiasedPassAtK } from '../estimators';

/** The phases of one RL step, in order. */
export type Phase = 'sample' | 'verify' | 'advantages' | 'update';

/** One line of metrics.jsonl. Scalars are TRL-named; arrays are per position / histogram. */
export interface StepRecord {
  step: number;
  scalars: Record<string, number>;
  entropy_by_pos: number[];
  advantage_histogram: { counts: number[]; edges: number[] };
  /** Curriculum level (the value of curriculumParam) this step trained on. */
  level: number;
  eval?: EvalRecord;
}

/** A held-out evaluation. */
export interface EvalRecord {
  step: number;
  level: number;
  prompts: number;
  /** Greedy (top-1) decoding. */
  'eval/pass@1_greedy': number;
  /** Unbiased pass@k over G samples at the training temperature, k = evalK. */
  'eval/pass@k': number;
  'eval/pass@1_sampled': number;
  k: number;
  /** Task metrics of the greedy completions (e.g. cot_alignment_prefix). */
  taskMetrics: Record<string, number>;
  /**
   * Which part of the task's split the prompts came from (src/tasks/split.ts): 'heldout', or
   * 'train' at a level whose instance space is too small to hold any instance out (S3 chains
   * of length 1, say), where the figure measures instances trained on. Absent in records
   * written before the split existed: their prompts were not held out.
   */
  split?: Split;
}

export interface Histogram {
  /** [bins] number of values in each bin. */
  counts: Int32Array;
  /** [bins + 1] bin edges; bin k is [edges[k], edges[k+1]), the last bin also holds edges[bins]. */
  edges: Float64Array;
}

export interface StepMetrics {
  /**
   * Scalars by TRL name: reward, reward_std, pass@1 … pass@G, frac_reward_zero_std,
   * frac_all_correct, frac_all_wrong, advantages/{mean,std,min,max}, entropy,
   * completions/{mean_length,min_length,max_length,clipped_ratio}.
   */
  scalars: Record<string, number>;
  /** [T] mean entropy of the policy tokens at each completion position; 0 where there are none. */
  entropy_by_pos: Float64Array;
  /** [T] number of policy tokens at each position (0 marks positions entropy_by_pos leaves at 0). */
  tokens_by_pos: Int32Array;
  /** Per-token advantages of the trained tokens (tokenMask ≠ 0). */
  advantage_histogram: Histogram;
}

/**
 * TRL name → verl name, for the metrics that have a counterpart (the rest are TRL-only).
 * The loss-side names are computed by the loss kernel, not here; verl's clip fractions count
 * slightly different events (pg_clipfrac: tokens where clipping changed the loss;
 * pg_clipfrac_lower: the dual clip's bound), so compare them with care.
 */
export const VERL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  reward: 'critic/score/mean',
  'advantages/mean': 'critic/advantages/mean',
  'advantages/min': 'critic/advantages/min',
  'advantages/max': 'critic/advantages/max',
  entropy: 'actor/entropy',
  'completions/mean_length': 'response_length/mean',
  'completions/min_length': 'response_length/min',
  'completions/max_length': 'response_length/max',
  'completions/clipped_ratio': 'response_length/clip_ratio',
  // From the loss (documented here so one table holds every name):
  kl: 'actor/kl_loss',
  'clip_ratio/region_mean': 'actor/pg_clipfrac',
  grad_norm: 'actor/grad_norm',
});

/** Fixed-width histogram over [lo, hi] (default: the values' min and max). */
export function histogram(values: ArrayLike<number>, bins: number, range?: [number, number]): Histogram {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`histogram: bins must be an integer ≥ 1, got ${bins}`);
  let lo = range ? range[0] : Infinity;
  let hi = range ? range[1] : -Infinity;
  if (!range) {
    for (let i = 0; i < values.length; i++) {
      lo = Math.min(lo, values[i]);
      hi = Math.max(hi, values[i]);
    }
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) lo = hi = 0; // no values
  if (hi === lo) {
    // One value: a unit-wide range centred on it.
    lo -= 0.5;
    hi += 0.5;
  }
  const edges = new Float64Array(bins + 1);
  for (let k = 0; k <= bins; k++) edges[k] = lo + ((hi - lo) * k) / bins;
  const counts = new Int32Array(bins);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!(v >= lo && v <= hi)) continue; // outside a given range
    counts[Math.min(bins - 1, Math.floor(((v - lo) / (hi - lo)) * bins))]++;
  }
  return { counts, edges };
}

/** Mean of pass@k over the B groups, k = 1..G, from `correct` (unbiased estimator, Chen et al. 2021). */
export function passAtKCurve(correct: ArrayLike<number>, B: number, G: number): Float64Array {
  const curve = new Float64Array(G); // curve[k − 1] = pass@k
  if (B === 0) return curve;
  for (let b = 0; b < B; b++) {
    let c = 0;
    for (let g = 0; g < G; g++) if (correct[b * G + g]) c++;
    for (let k = 1; k <= G; k++) curve[k - 1] += unbiasedPassAtK(G, c, k) / B;
  }
  return curve;
}

/** x / n, or 0 when there is nothing to divide by (no metric is ever NaN). */
const safeDiv = (x: number, n: number): number => (n > 0 ? x / n : 0);

/** Every metric of one step. `truncated` [N]: 1 when the completion hit the length limit without EOS. */
export function stepMetrics(
  batch: RolloutBatch,
  result: AdvantageResult,
  truncated: Uint8Array,
  histogramBins = 21,
): StepMetrics {
  const { B, G, T, rewards, correct, lengths, mask, entropy } = batch;
  const N = B * G;
  if (truncated.length !== N)
    throw new RangeError(`stepMetrics: truncated has length ${truncated.length}, expected N=B*G = ${N}`);
  const s: Record<string, number> = {};
  rewardScalars(s, rewards, correct, B, G);

  // Advantages of the tokens that carry gradient.
  const trained: number[] = [];
  for (let j = 0; j < N * T; j++) if (result.tokenMask[j] !== 0) trained.push(result.adv[j]);
  let aSum = 0;
  let aMin = Infinity;
  let aMax = -Infinity;
  for (const a of trained) {
    aSum += a;
    aMin = Math.min(aMin, a);
    aMax = Math.max(aMax, a);
  }
  const aMean = safeDiv(aSum, trained.length);
  let aSq = 0;
  for (const a of trained) aSq += (a - aMean) * (a - aMean);
  s['advantages/mean'] = aMean;
  s['advantages/std'] = Math.sqrt(safeDiv(aSq, trained.length)); // population std: a description, not an estimate
  s['advantages/min'] = trained.length ? aMin : 0;
  s['advantages/max'] = trained.length ? aMax : 0;
  const bound = Math.max(Math.abs(s['advantages/min']), Math.abs(s['advantages/max']));
  // Symmetric range, so the zero bin sits in the middle (odd bin counts).
  const advantage_histogram = histogram(trained, histogramBins, bound > 0 ? [-bound, bound] : undefined);

  // Entropy over policy tokens (mask, before top-entropy filtering), overall and per position.
  const entropy_by_pos = new Float64Array(T);
  const tokens_by_pos = new Int32Array(T);
  let hSum = 0;
  let hCount = 0;
  for (let i = 0; i < N; i++) {
    for (let t = 0; t < T; t++) {
      const j = i * T + t;
      if (mask[j] === 0) continue;
      hSum += entropy[j];
      hCount++;
      entropy_by_pos[t] += entropy[j];
      tokens_by_pos[t]++;
    }
  }
  for (let t = 0; t < T; t++) entropy_by_pos[t] = safeDiv(entropy_by_pos[t], tokens_by_pos[t]);
  s.entropy = safeDiv(hSum, hCount);

  lengthScalars(s, lengths, truncated, N);

  return { scalars: s, entropy_by_pos, tokens_by_pos, advantage_histogram };
}

/**
 * Rewards and groups into `s`. reward_std is TRL's: the mean over groups of the group's sample
 * std.
 */
function rewardScalars(
  s: Record<string, number>,
  rewards: Float64Array,
  correct: Uint8Array,
  B: number,
  G: number,
): void {
  const N = B * G;
  let rewardSum = 0;
  for (let i = 0; i < N; i++) rewardSum += rewards[i];
  s.reward = safeDiv(rewardSum, N);
  let stdSum = 0;
  let zeroStd = 0;
  let allCorrect = 0;
  let allWrong = 0;
  for (let b = 0; b < B; b++) {
    stdSum += sampleStd(rewards, b * G, b * G + G);
    if (groupIsAllEqual(rewards, b, G)) zeroStd++;
    let c = 0;
    for (let g = 0; g < G; g++) if (correct[b * G + g]) c++;
    if (c === G) allCorrect++;
    if (c === 0) allWrong++;
  }
  s.reward_std = safeDiv(stdSum, B);
  s.frac_reward_zero_std = safeDiv(zeroStd, B);
  s.frac_all_correct = safeDiv(allCorrect, B);
  s.frac_all_wrong = safeDiv(allWrong, B);
  const curve = passAtKCurve(correct, B, G);
  for (let k = 1; k <= G; k++) s[`pass@${k}`] = curve[k - 1];
}

/** Completion lengths into `s`: mean, min, max, and the share cut at the length limit. */
function lengthScalars(s: Record<string, number>, lengths: Int32Array, truncated: Uint8Array, N: number): void {
  let lSum = 0;
  let lMin = Infinity;
  let lMax = -Infinity;
  let clipped = 0;
  for (let i = 0; i < N; i++) {
    lSum += lengths[i];
    lMin = Math.min(lMin, lengths[i]);
    lMax = Math.max(lMax, lengths[i]);
    if (truncated[i]) clipped++;
  }
  s['completions/mean_length'] = safeDiv(lSum, N);
  s['completions/min_length'] = N ? lMin : 0;
  s['completions/max_length'] = N ? lMax : 0;
  s['completions/clipped_ratio'] = safeDiv(clipped, N);
}

/**
 * Mean of each task metric over the groups that report it (task.groupMetrics omits a metric
 * with no meaning for a group). Absent or non-finite values are skipped; never NaN.
 */
export function aggregateTaskMetrics(perGroup: readonly Record<string, number>[]): Record<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const group of perGroup) {
    for (const [key, v] of Object.entries(group)) {
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      const acc = sums.get(key) ?? { sum: 0, n: 0 };
      acc.sum += v;
      acc.n++;
      sums.set(key, acc);
    }
  }
  const out: Record<string, number> = {};
  for (const [key, { sum, n }] of sums) out[key] = sum / n;
  return out;
}

/**
 * The update's metrics from the engine's per-pass results: the loss (mean over passes), the KL
 * to the reference, clip fractions and importance ratios per trained token (pg_loss's stats,
 * PG_STAT), the last pass's gradient norm, and ‖Δθ‖, ‖θ‖. `klOn`: whether the passes had a
 * reference; without one the kernel's Σ k3 is against whatever refLogp holds, which is no KL.
 */
export function passMetrics(result: TrainResult, klOn: boolean): Record<string, number> {
  let loss = 0,
    count = 0,
    clipLow = 0,
    clipHigh = 0,
    ratioSum = 0,
    ratioMax = 0,
    kl = 0,
    dual = 0;
  for (const p of result.passes) {
    loss += p.seqLoss.reduce((a, b) => a + b, 0);
    for (let n = 0; n < p.stats.length / PG_STATS; n++) {
      const s = p.stats.subarray(n * PG_STATS, (n + 1) * PG_STATS);
      count += s[PG_STAT.count];
      clipLow += s[PG_STAT.clippedLow];
      clipHigh += s[PG_STAT.clippedHigh];
      ratioSum += s[PG_STAT.sumRatio];
      ratioMax = Math.max(ratioMax, s[PG_STAT.maxRatio]);
      kl += s[PG_STAT.sumKl];
      dual += s[PG_STAT.dualClipped];
    }
  }
  const per = (x: number) => (count > 0 ? x / count : 0);
  return {
    loss: loss / result.passes.length,
    kl: klOn ? per(kl) : 0,
    'clip_ratio/low_mean': per(clipLow),
    'clip_ratio/high_mean': per(clipHigh),
    'clip_ratio/region_mean': per(clipLow + clipHigh),
    'clip_ratio/dual_mean': per(dual),
    'ratio/mean': per(ratioSum),
    'ratio/max': ratioMax,
    grad_norm: result.passes[result.passes.length - 1].gradNorm,
    update_norm: result.updateNorm,
    weight_norm: result.weightNorm,
  };
}

/** The record of step `step`: its scalars (`level` among them) and its batch's per-position entropy and advantage histogram. */
export function stepRecord(step: number, scalars: Record<string, number>, m: StepMetrics): StepRecord {
  const h = m.advantage_histogram;
  return {
    step,
    scalars,
    entropy_by_pos: Array.from(m.entropy_by_pos),
    advantage_histogram: { counts: Array.from(h.counts), edges: Array.from(h.edges) },
    level: Number(scalars.level),
  };
}

/** `o` with `prefix` before every key (task/…, grad_norm/…). */
export function prefixKeys(prefix: string, o: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(o)) out[prefix + k] = v;
  return out;
}
