// Loss heads on top of the teacher-forced forward: log-probabilities of the targets, then
// either the policy-gradient loss or next-token cross-entropy, then dlogits for backward.

import type { ParamLayout } from './layout';
import { Plan } from './gpu-plan';
import { GpuActivations, backwardPlan, forwardPlan, type GpuParams } from './gpu-model';
import { createStorage, readF32, writeArray } from '../gpu/buffers';
import {
  adamwOp,
  ceLossOp,
  createAdamwParams,
  createCeLossParams,
  createPgLossParams,
  gradNormOp,
  logitsBackwardOp,
  logitsStatsOp,
  pgLossOp,
  writeCeLossParams,
  type MatmulVariant,
  defaultMatmulVariant,
} from '../gpu/ops';
import {
  AGGREGATION,
  KL_KIND,
  nextTokenTargets,
  PG_STATS,
  REGULATOR,
  type LogitsShape,
  type PgLossParams,
  type Regulator,
} from '../core/abi';

/** Per-row inputs of a training pass over N sequences of T tokens (row (n,t) predicts token t+1). */
export class TrainInputs {
  readonly tokens: GPUBuffer; // [N,T] i32
  readonly targets: GPUBuffer; // [N,T] i32, −1 = no target
  readonly oldLogp: GPUBuffer; // [N,T]
  readonly refLogp: GPUBuffer; // [N,T]
  readonly adv: GPUBuffer; // [N,T]
  readonly mask: GPUBuffer; // [N,T] 1 = trained row
  readonly klMask: GPUBuffer; // [N,T] 1 = KL applies
  constructor(
    device: GPUDevice,
    readonly N: number,
    readonly T: number,
  ) {
    const n = N * T * 4;
    this.tokens = createStorage(device, n, 'tokens');
    this.targets = createStorage(device, n, 'targets');
    this.oldLogp = createStorage(device, n, 'old logp');
    this.refLogp = createStorage(device, n, 'ref logp');
    this.adv = createStorage(device, n, 'advantages');
    this.mask = createStorage(device, n, 'loss mask');
    this.klMask = createStorage(device, n, 'kl mask');
  }
}

/** Outputs read back after a pass. */
export class TrainOutputs {
  readonly logp: GPUBuffer; // [N,T]
  readonly entropy: GPUBuffer; // [N,T]
  readonly dlogp: GPUBuffer; // [N,T]
  readonly dent: GPUBuffer; // [N,T]
  readonly seqLoss: GPUBuffer; // [N]
  readonly stats: GPUBuffer; // [N,PG_STATS]
  readonly norm: GPUBuffer; // [2] grad norm, non-finite flag
  readonly refEntropy: GPUBuffer; // [N,T] scratch of the reference pass
  constructor(
    device: GPUDevice,
    readonly N: number,
    readonly T: number,
  ) {
    const R = N * T;
    this.logp = createStorage(device, R * 4, 'logp');
    this.entropy = createStorage(device, R * 4, 'entropy');
    this.dlogp = createStorage(device, R * 4, 'dlogp');
    this.dent = createStorage(device, R * 4, 'dent');
    this.seqLoss = createStorage(device, N * 4, 'seq loss');
    this.stats = createStorage(device, N * PG_STATS * 4, 'pg stats');
    this.norm = createStorage(device, 8, 'grad norm');
    this.refEntropy = createStorage(device, R * 4, 'ref entropy');
  }
}

export interface TrainPlans {
  acts: GpuActivations;
  inputs: TrainInputs;
  outputs: TrainOutputs;
  /** Reference log-probs into inputs.refLogp, with the weights in `refParams`. */
  reference: Plan | null;
  /** Policy-gradient: forward → loss → backward → grad norm → AdamW. */
  pgStep: Plan;
  /** Supervised (SFT warm start): forward → cross-entropy → backward → grad norm → AdamW. */
  sftStep: Plan;
  /** Cross-entropy loss and gradients without an update (CLI forward, tests). */
  ceGrads: Plan;
  /** Forward and log-probabilities of the targets only (outputs.logp): no loss, no update. */
  logProbs: Plan;
  pgParams: GPUBuffer;
  ceParams: GPUBuffer;
  adamParams: GPUBuffer;
  invTemp: number;
}

/** Builds every training plan for minibatches of N sequences × T tokens. */
export function buildTrainPlans(
  device: GPUDevice,
  layout: ParamLayout,
  model: GpuParams,
  N: number,
  T: number,
  opts: { invTemp: number; refParams?: GPUBuffer | null; variant?: MatmulVariant; regulator?: Regulator },
): TrainPlans {
  const V = layout.config.vocabSize;
  const R = N * T;
  const variant = opts.variant ?? defaultMatmulVariant();
  const acts = new GpuActivations(device, layout, N, T);
  const inputs = new TrainInputs(device, N, T);
  const outputs = new TrainOutputs(device, N, T);
  const { pgParams, ceParams, adamParams } = createLossUniforms(device, T);
  const invTemp = opts.invTemp;
  // The per-row bonus of the pg loss (entropy or uniform); an SFT pass clears its weight dent.
  const regulator = opts.regulator ?? REGULATOR.entropy;
  const logitsShape: LogitsShape = { R, V, invTemp, regulator };

  const fwd = () => forwardPlan(device, layout, model.params, inputs.tokens, acts, variant);
  const stats = () =>
    new Plan().dispatch(logitsStatsOp(device, outputs.logp, outputs.entropy, acts.logits, inputs.targets, logitsShape));
  const bwd = () =>
    new Plan()
      .dispatch(
        logitsBackwardOp(device, acts.dlogits, acts.logits, inputs.targets, outputs.dlogp, outputs.dent, logitsShape),
      )
      .clear(model.grads)
      .append(backwardPlan(device, layout, model.params, model.grads, inputs.tokens, acts, variant))
      .dispatch(gradNormOp(device, outputs.norm, model.grads, model.P));
  const update = () =>
    new Plan().dispatch(
      adamwOp(device, model.params, model.grads, model.m, model.v, model.decay, outputs.norm, model.P, adamParams),
    );
  const pgLoss = () => pgLossPlan(device, inputs, outputs, N, T, pgParams);
  const ceLoss = () =>
    new Plan()
      .clear(outputs.dent)
      .dispatch(ceLossOp(device, outputs.dlogp, outputs.seqLoss, outputs.logp, inputs.mask, N, T, ceParams));

  let reference: Plan | null = null;
  if (opts.refParams) {
    reference = forwardPlan(device, layout, opts.refParams, inputs.tokens, acts, variant).dispatch(
      logitsStatsOp(device, inputs.refLogp, outputs.refEntropy, acts.logits, inputs.targets, { R, V, invTemp }),
    );
  }
  // One backward plan serves the three plans that need it: its attention scratch is L·N·NH·T² floats.
  const backward = bwd();
  return {
    acts,
    inputs,
    outputs,
    reference,
    pgParams,
    ceParams,
    adamParams,
    invTemp,
    pgStep: fwd().append(stats()).append(pgLoss()).append(backward).append(update()),
    sftStep: fwd().append(stats()).append(ceLoss()).append(backward).append(update()),
    ceGrads: fwd().append(stats()).append(ceLoss()).append(backward),
    logProbs: fwd().append(stats()),
  };
}

/**
 * A plain PPO loss's fixed terms: clip 0.2 on both sides, no dual clip, no KL term (β = 0; k3
 * were it on), no regulator bonus, token-mean aggregation. The plans' placeholder record and
 * the benchmark's loss; the batch's normalisers (maxLen, totalTokens, totalSeqs) come per batch.
 */
export const PPO_CLIP_NO_KL: Readonly<Omit<PgLossParams, 'maxLen' | 'totalTokens' | 'totalSeqs'>> = Object.freeze({
  epsLow: 0.2,
  epsHigh: 0.2,
  dualClip: 0,
  beta: 0,
  klKind: KL_KIND.k3,
  alpha: 0,
  aggregation: AGGREGATION.tokenMean,
});

/**
 * The loss and AdamW uniform blocks, with placeholder values: each pass writes its own
 * (write*Params) before it runs.
 */
function createLossUniforms(
  device: GPUDevice,
  T: number,
): { pgParams: GPUBuffer; ceParams: GPUBuffer; adamParams: GPUBuffer } {
  const pgParams = createPgLossParams(device, { ...PPO_CLIP_NO_KL, maxLen: T, totalTokens: 1, totalSeqs: 1 });
  const ceParams = createCeLossParams(device, { scale: 1 });
  const adamParams = createAdamwParams(device, {
    lr: 0,
    beta1: 0.9,
    beta2: 0.999,
    eps: 1e-8,
    weightDecay: 0,
    step: 1,
    maxGradNorm: 0,
  });
  return { pgParams, ceParams, adamParams };
}

/** The policy-gradient loss: dlogp, dent, the per-sequence losses and statistics from the pass's inputs. */
function pgLossPlan(
  device: GPUDevice,
  inputs: TrainInputs,
  outputs: TrainOutputs,
  N: number,
  T: number,
  pgParams: GPUBuffer,
): Plan {
  return new Plan().dispatch(
    pgLossOp(
      device,
      outputs.dlogp,
      outputs.dent,
      outputs.seqLoss,
      outputs.stats,
      outputs.logp,
      inputs.oldLogp,
      inputs.refLogp,
      inputs.adv,
      inputs.mask,
      inputs.klMask,
      outputs.entropy,
      N,
      T,
      pgParams,
    ),
  );
}

/**
 * Mean next-token cross-entropy of one or more sequences and its gradient, on the GPU
 * (what `rlvr forward --backend gpu` prints). Returns logits [N·T,V], loss, grads [P].
 */
export async function gpuCrossEntropy(
  device: GPUDevice,
  layout: ParamLayout,
  model: GpuParams,
  tokens: Int32Array,
  N: number,
  T: number,
): Promise<{ logits: Float32Array; loss: number; grads: Float32Array }> {
  const plans = buildTrainPlans(device, layout, model, N, T, { invTemp: 1 });
  const mask = new Float32Array(N * T);
  for (let n = 0; n < N; n++) for (let t = 0; t + 1 < T; t++) mask[n * T + t] = 1;
  const count = N * (T - 1);
  writeArray(device, plans.inputs.tokens, tokens);
  writeArray(device, plans.inputs.targets, nextTokenTargets(tokens, N, T));
  writeArray(device, plans.inputs.mask, mask);
  writeCeLossParams(device, plans.ceParams, { scale: count > 0 ? 1 / count : 0 });
  const enc = device.createCommandEncoder();
  plans.ceGrads.encode(enc);
  device.queue.submit([enc.finish()]);
  const [logits, seqLoss, grads] = await Promise.all([
    readF32(device, plans.acts.logits, N * T * layout.config.vocabSize),
    readF32(device, plans.outputs.seqLoss, N),
    model.readGrads(),
  ]);
  return { logits, loss: seqLoss.reduce((a, b) => a + b, 0), grads };
}
