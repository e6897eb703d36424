// The engine's two benchmark workloads, set up once and shared by the suites that time them
// (kernels: train step and sampling; its profile; peers): one policy-gradient train step
// (pgStep: forward, token log-probs, pg loss, backward, global-norm clip, AdamW) on a batch of
// N sequences × T tokens with random tokens and advantages, and KV-cache sampling of N
// sequences from a BOS token.

import { writeArray } from '../gpu/buffers';
import { writeAdamwParams, writePgLossParams, type MatmulVariant } from '../gpu/ops';
import type { ParamLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuParams } from '../model/gpu-model';
import { buildTrainPlans, PPO_CLIP_NO_KL, type TrainPlans } from '../model/gpu-loss';
import { GpuSampler } from '../model/gpu-sampler';
import { makeRng } from '../core/random';
import { nextTokenTargets, type PgLossParams } from '../core/abi';

export function randomTokens(n: number, V: number, seed: number): Int32Array {
  const rng = makeRng(seed);
  return Int32Array.from({ length: n }, () => rng.int(V));
}

function isBuffer(x: unknown): x is GPUBuffer {
  return typeof x === 'object' && x !== null && typeof (x as GPUBuffer).mapAsync === 'function';
}

/** Destroys the GPUBuffers held by `objs` (their own fields, and objects in array fields). */
export function destroyBuffers(...objs: object[]): void {
  for (const o of objs) {
    for (const v of Object.values(o)) {
      if (isBuffer(v)) v.destroy();
      else if (Array.isArray(v))
        for (const item of v) if (typeof item === 'object' && item !== null) destroyBuffers(item as object);
    }
  }
}

/** The batch of a train step: tokens [N,T] and per-row advantages, loss mask on rows 0..T−2 (row t predicts t+1). */
export interface TrainBatch {
  tokens: Int32Array; // [N,T]
  targets: Int32Array; // [N,T], −1 on the last row
  adv: Float32Array; // [N,T]
  mask: Float32Array; // [N,T]
}

export function trainBatch(N: number, T: number, V: number): TrainBatch {
  const R = N * T;
  const tokens = randomTokens(R, V, 11);
  const rng = makeRng(12);
  const adv = Float32Array.from({ length: R }, () => rng.normal());
  const mask = new Float32Array(R);
  for (let n = 0; n < N; n++) for (let t = 0; t + 1 < T; t++) mask[n * T + t] = 1;
  return { tokens, targets: nextTokenTargets(tokens, N, T), adv, mask };
}

/** Step hyperparameters of the benchmark: AdamW with global-norm clip 1.0. */
export const BENCH_ADAM = {
  lr: 1e-4,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 0.01,
  step: 1,
  maxGradNorm: 1,
} as const;

/** The benchmark's pg loss over an N×T batch: PPO clip 0.2, no KL (β = 0), every position after BOS a token. */
export function benchPgLoss(N: number, T: number): PgLossParams {
  return { ...PPO_CLIP_NO_KL, maxLen: T, totalTokens: N * (T - 1), totalSeqs: N };
}

export interface TrainStepSetup {
  model: GpuParams;
  plans: TrainPlans;
  destroy(): void;
}

/**
 * A model and its train plans for N × T with the batch uploaded: `plans.pgStep` is one train
 * step. The old log-probs are those of a uniform policy; the values do not change the speed.
 */
export function setupTrainStep(
  device: GPUDevice,
  layout: ParamLayout,
  N: number,
  T: number,
  variant: MatmulVariant,
  initial = initParams(layout, 1),
): TrainStepSetup {
  const V = layout.config.vocabSize;
  const R = N * T;
  const batch = trainBatch(N, T, V);
  const oldLogp = new Float32Array(R).fill(-Math.log(V));
  const model = new GpuParams(device, layout, initial);
  const plans = buildTrainPlans(device, layout, model, N, T, { invTemp: 1, variant });
  writeArray(device, plans.inputs.tokens, batch.tokens);
  writeArray(device, plans.inputs.targets, batch.targets);
  writeArray(device, plans.inputs.oldLogp, oldLogp);
  writeArray(device, plans.inputs.refLogp, oldLogp);
  writeArray(device, plans.inputs.adv, batch.adv);
  writeArray(device, plans.inputs.mask, batch.mask);
  writeArray(device, plans.inputs.klMask, new Float32Array(R));
  writePgLossParams(device, plans.pgParams, benchPgLoss(N, T));
  writeAdamwParams(device, plans.adamParams, { ...BENCH_ADAM });
  return {
    model,
    plans,
    destroy() {
      model.destroy();
      destroyBuffers(plans.acts, plans.inputs, plans.outputs);
    },
  };
}

/** The sampling template: BOS (token 1) at position 0, every other position sampled. */
export function samplingTemplate(N: number, T: number): Int32Array {
  const template = new Int32Array(N * T).fill(-1);
  for (let n = 0; n < N; n++) template[n * T] = 1;
  return template;
}

export const SAMPLE_PARAMS = { seed: 7, step: 1, invTemp: 1, topK: 0 } as const;

/** A KV-cache sampler over `model` with the template and sampling params set. */
export function setupSampler(
  device: GPUDevice,
  layout: ParamLayout,
  model: GpuParams,
  N: number,
  T: number,
  variant: MatmulVariant,
): GpuSampler {
  const sampler = new GpuSampler(device, layout, model, N, T, variant);
  sampler.setTemplate(samplingTemplate(N, T));
  sampler.setParams({ ...SAMPLE_PARAMS });
  return sampler;
}
