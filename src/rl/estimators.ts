// The advantage pipeline: one step's rollouts → per-token advantages for the GPU loss
// (docs/estimators.md). Pure: no GPU, no DOM, no mutation of the inputs or of the MaPP state.
//
//   1. base estimator          rewards [N]           → seqAdv [N]
//   2. group weights and group-structure credit
//      (GCS; Cue-GRPO, EDAS)                        → seqAdv [N]  (Cue/EDAS keep per-group totals)
//   3. token-level credit      (uniform, EAPO)       → weights [N*T]
//   4. top-entropy filter      mask [N*T]            → tokenMask [N*T]
//   adv[i*T + t] = seqAdv[i] · weight[i*T + t] where tokenMask ≠ 0, else 0.

import { cueCredit, edasCredit } from './credit-group';
import { gcsWeighting } from '../estimators/gcs';
import { eapoWeights, topEntropyMask } from './credit-token';
import type { MappPosterior } from '../estimators/mapp';
import { GRPO_SCALES, TOKEN_CREDITS, type TokenCredit } from '../config/knobs';
import {
  ESTIMATORS,
  estimatorRow,
  type Estimator,
  type EstimatorOptions,
  type GrpoScale,
  type RolloutBatch,
} from '../estimators';

export type { GrpoScale, RolloutBatch, TokenCredit };

export interface AdvantageResult {
  /** [N] response-level advantage after group-structure credit, before token-level credit. */
  seqAdv: Float64Array;
  /** [N*T] per-token advantage; 0 wherever tokenMask = 0 (so also wherever mask = 0). */
  adv: Float32Array;
  /** [N*T] mask after top-entropy-quantile filtering (equal to mask when q = 1). */
  tokenMask: Float32Array;
}

/** The estimator names are the estimator table's (src/estimators/table.ts). */
export type EstimatorName = Estimator;

/** The built-ins' own knobs (EstimatorOptions, src/estimators/types.ts), then the rest of the pipeline's. */
export interface AdvantageOptions extends EstimatorOptions {
  /** Base estimator of the response-level advantage. */
  estimator: EstimatorName;
  /** GCS: σ of the Gaussian group weight around pass rate 0.5; 0 = off. */
  gcsSigma: number;
  /** Cue-GRPO: redistribute positive advantage toward rare strategies (uses signatures). */
  cue: boolean;
  cueGamma: number;
  /** EDAS: redistribute negative advantage toward dominant errors (uses errorSignatures). */
  edas: boolean;
  edasGamma: number;
  /** How a sequence's advantage is spread over its policy tokens. */
  tokenCredit: TokenCredit;
  /** Keep gradient only on the top q fraction of policy tokens by entropy; q in (0, 1], 1 = all. */
  topEntropyQuantile: number;
}

function checkOneOf<V extends string>(field: string, value: V, allowed: readonly V[]): void {
  if (!allowed.includes(value)) throw new RangeError(`${field} must be one of ${allowed.join(', ')}, got "${value}"`);
}

function checkFinite(field: string, value: number, positive = false): void {
  if (!Number.isFinite(value) || (positive && !(value > 0))) {
    throw new RangeError(`${field} must be a finite number${positive ? ' > 0' : ''}, got ${value}`);
  }
}

/** Throws a RangeError naming the first bad option. */
export function validateAdvantageOptions(o: AdvantageOptions): void {
  checkOneOf('estimator', o.estimator, ESTIMATORS);
  checkOneOf('grpoScale', o.grpoScale, GRPO_SCALES);
  checkOneOf('tokenCredit', o.tokenCredit, TOKEN_CREDITS);
  checkFinite('softmaxTau', o.softmaxTau, true);
  checkFinite('lampoTau', o.lampoTau, true);
  checkFinite('cueGamma', o.cueGamma);
  checkFinite('edasGamma', o.edasGamma);
  if (!Number.isInteger(o.avspoVirtual) || o.avspoVirtual < 0)
    throw new RangeError(`avspoVirtual must be an integer ≥ 0, got ${o.avspoVirtual}`);
  if (!(o.gcsSigma >= 0) || !Number.isFinite(o.gcsSigma))
    throw new RangeError(`gcsSigma must be a finite number ≥ 0, got ${o.gcsSigma}`);
  if (!Number.isInteger(o.passK) || o.passK < 1) throw new RangeError(`passK must be an integer ≥ 1, got ${o.passK}`);
  if (!(o.topEntropyQuantile > 0 && o.topEntropyQuantile <= 1)) {
    throw new RangeError(`topEntropyQuantile must be in (0, 1], got ${o.topEntropyQuantile}`);
  }
}

function checkLength(field: string, actual: number, expected: number, shape: string): void {
  if (actual !== expected)
    throw new RangeError(`RolloutBatch.${field} has length ${actual}, expected ${shape} = ${expected}`);
}

/** Throws a RangeError naming the field when shapes disagree or a value is not finite. */
export function validateRolloutBatch(batch: RolloutBatch): void {
  const { B, G, T } = batch;
  for (const [name, v] of [
    ['B', B],
    ['G', G],
    ['T', T],
  ] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`RolloutBatch.${name} must be an integer ≥ 0, got ${v}`);
  }
  if (G < 1) throw new RangeError(`RolloutBatch.G must be ≥ 1, got ${G}`);
  const N = B * G;
  checkLength('rewards', batch.rewards.length, N, 'N=B*G');
  checkLength('correct', batch.correct.length, N, 'N=B*G');
  checkLength('lengths', batch.lengths.length, N, 'N=B*G');
  checkLength('signatures', batch.signatures.length, N, 'N=B*G');
  checkLength('errorSignatures', batch.errorSignatures.length, N, 'N=B*G');
  checkLength('promptKeys', batch.promptKeys.length, B, 'B');
  checkLength('mask', batch.mask.length, N * T, 'N*T');
  checkLength('entropy', batch.entropy.length, N * T, 'N*T');
  if (batch.logp !== undefined) checkLength('logp', batch.logp.length, N * T, 'N*T');
  for (let i = 0; i < N; i++) {
    if (!Number.isFinite(batch.rewards[i]))
      throw new RangeError(`RolloutBatch.rewards[${i}] must be finite, got ${batch.rewards[i]}`);
  }
  for (let j = 0; j < N * T; j++) {
    if (!Number.isFinite(batch.mask[j]))
      throw new RangeError(`RolloutBatch.mask[${j}] must be finite, got ${batch.mask[j]}`);
    const h = batch.entropy[j];
    if (batch.mask[j] !== 0 && !(h >= 0 && Number.isFinite(h))) {
      throw new RangeError(`RolloutBatch.entropy[${j}] must be a finite number ≥ 0 at a policy token, got ${h}`);
    }
    if (batch.logp !== undefined && batch.mask[j] !== 0 && !(batch.logp[j] <= 0)) {
      throw new RangeError(
        `RolloutBatch.logp[${j}] must be a log-probability (≤ 0) at a policy token, got ${batch.logp[j]}`,
      );
    }
  }
}

/** Step 1: the base estimator's advantage, from its row of the estimator table: [N], or [N*T] for a token-level one. */
export function baseAdvantages(batch: RolloutBatch, options: AdvantageOptions, mapp?: MappPosterior): Float64Array {
  if (options.estimator === 'custom') {
    throw new Error(
      'estimator "custom" is the config\'s own code: the trainer runs it (src/rl/custom) and passes its output to advantagesFromBase',
    );
  }
  return estimatorRow(options.estimator).advantages(batch, options, { mapp });
}

/**
 * The whole pipeline. For 'mapp' pass the posterior; it is read, not updated: call
 * mapp.observeBatch(batch.promptKeys, batch.correct, batch.G) after this, so a group's own
 * outcomes do not inform its own advantage.
 */
export function computeAdvantages(
  batch: RolloutBatch,
  options: AdvantageOptions,
  mapp?: MappPosterior,
): AdvantageResult {
  validateAdvantageOptions(options);
  validateRolloutBatch(batch);
  const base = baseAdvantages(batch, options, mapp);
  if (estimatorRow(options.estimator).kind === 'token') {
    const N = batch.B * batch.G;
    if (base.length !== N * batch.T)
      throw new RangeError(
        `estimator "${options.estimator}" is token-level: it returned ${base.length} values, expected N*T = ${N * batch.T}`,
      );
    return perTokenAdvantages(batch, options, base);
  }
  return creditAndFilter(batch, options, base);
}

/**
 * The pipeline on a base the caller computed (the custom estimator's checked output,
 * src/rl/custom): base [N] is a response-level advantage and goes through steps 2–4 like a
 * built-in's; base [N*T] is per token, so group-structure and token credit do not apply, only
 * the top-entropy filter, and seqAdv is each sequence's mean over its policy tokens.
 */
export function advantagesFromBase(
  batch: RolloutBatch,
  options: AdvantageOptions,
  base: Float64Array,
): AdvantageResult {
  validateAdvantageOptions(options);
  validateRolloutBatch(batch);
  const { B, G, T } = batch;
  const N = B * G;
  if (base.length === N) return creditAndFilter(batch, options, base);
  if (base.length !== N * T)
    throw new RangeError(`advantagesFromBase: base has length ${base.length}, expected N = ${N} or N*T = ${N * T}`);
  return perTokenAdvantages(batch, options, base);
}

/** A per-token base [N*T]: only the top-entropy filter applies; seqAdv is each sequence's mean over its policy tokens. */
function perTokenAdvantages(batch: RolloutBatch, options: AdvantageOptions, base: Float64Array): AdvantageResult {
  const { B, G, T } = batch;
  const N = B * G;
  const tokenMask = topEntropyMask(batch.mask, batch.entropy, options.topEntropyQuantile);
  const adv = new Float32Array(N * T);
  const seqAdv = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let sum = 0;
    let count = 0;
    for (let t = 0; t < T; t++) {
      const j = i * T + t;
      if (batch.mask[j] !== 0) {
        sum += base[j];
        count++;
      }
      if (tokenMask[j] !== 0) adv[j] = base[j];
    }
    seqAdv[i] = count > 0 ? sum / count : 0;
  }
  return { seqAdv, adv, tokenMask };
}

/** Steps 2–4 on a base estimator's seqAdv [N] (GCS's group weight first, then Cue-GRPO and EDAS). */
function creditAndFilter(batch: RolloutBatch, options: AdvantageOptions, base: Float64Array): AdvantageResult {
  const { B, G, T } = batch;
  const N = B * G;
  let seqAdv = base;
  if (options.gcsSigma > 0) seqAdv = gcsWeighting(seqAdv, batch.correct, B, G, options.gcsSigma);
  if (options.cue) seqAdv = cueCredit(seqAdv, batch.correct, batch.signatures, B, G, options.cueGamma);
  if (options.edas) seqAdv = edasCredit(seqAdv, batch.correct, batch.errorSignatures, B, G, options.edasGamma);

  const tokenMask = topEntropyMask(batch.mask, batch.entropy, options.topEntropyQuantile);
  const weights = options.tokenCredit === 'eapo' ? eapoWeights(seqAdv, batch.mask, batch.entropy, N, T) : null;

  const adv = new Float32Array(N * T);
  for (let i = 0; i < N; i++) {
    for (let t = 0; t < T; t++) {
      const j = i * T + t;
      if (tokenMask[j] === 0) continue;
      adv[j] = seqAdv[i] * (weights ? weights[j] : 1);
    }
  }
  return { seqAdv, adv, tokenMask };
}
