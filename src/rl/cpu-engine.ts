// The CPU reference engine: the same contract as GpuEngine (./gpu-engine.ts), computed by src/reference
// (Float32, full recomputation). Slow; it exists so a test can hold the GPU trainer to it.

import { buildDecayMask, type ParamLayout } from '../model/layout';
import { createActivations, forward, backward, createAdamState, type AdamState } from '../reference/model';
import { adamw, ceLoss, diffNorm, gradNorm, logitsBackward, logitsStats, pgLoss } from '../reference/ops';
import { sampleSequencesCpu } from '../reference/sampler';
import { PG_STATS, type LogitsShape, type SampleResult, type SampleTokenParams } from '../core/abi';
import {
  checkLength,
  checkOptimizerState,
  checkPassInputs,
  checkReference,
  nonFiniteSlots,
  tensorGroups,
  usesReference,
  type EngineSettings,
  type OptimizerState,
  type PassStats,
  type PolicyEngine,
  type TrainPass,
  type TrainResult,
} from './engine';

export class CpuEngine implements PolicyEngine {
  readonly kind = 'cpu';
  private params: Float32Array;
  private ref: Float32Array | null = null;
  private grads: Float32Array;
  private adam: AdamState;
  private readonly decay: Float32Array;
  private saved: { params: Float32Array; m: Float32Array; v: Float32Array } | null = null;

  constructor(
    readonly layout: ParamLayout,
    initial: Float32Array,
    readonly settings: EngineSettings,
  ) {
    this.params = initial.slice();
    this.grads = new Float32Array(layout.numParams);
    this.adam = createAdamState(layout, Float32Array);
    this.decay = buildDecayMask(layout, Float32Array) as Float32Array;
  }

  async sample(fixed: Int32Array, N: number, T: number, p: SampleTokenParams): Promise<SampleResult> {
    return sampleSequencesCpu(this.layout, this.params, fixed, N, T, p);
  }

  get hasReference(): boolean {
    return this.ref !== null;
  }

  async train(passes: TrainPass[], N: number, T: number): Promise<TrainResult> {
    checkPassInputs(passes, N, T);
    checkReference(passes, this.hasReference);
    const { invTemp, regulator } = this.settings;
    const { vocabSize: V } = this.layout.config;
    const R = N * T;
    const shape: LogitsShape = { R, V, invTemp, regulator };
    const acts = createActivations(this.layout.config, N, T, Float32Array);
    const out: PassStats[] = [];
    const before = this.params.slice();
    for (const pass of passes) {
      const d = pass.data;
      const refLogp = new Float32Array(R);
      if (usesReference(pass)) {
        const refLogits = forward(this.layout, this.ref!, d.tokens, N, T, acts);
        logitsStats(refLogp, new Float32Array(R), refLogits, d.targets, { R, V, invTemp });
      }
      const logits = forward(this.layout, this.params, d.tokens, N, T, acts);
      const logp = new Float32Array(R),
        entropy = new Float32Array(R);
      logitsStats(logp, entropy, logits, d.targets, shape);
      const dlogp = new Float32Array(R),
        dent = new Float32Array(R);
      const seqLoss = new Float32Array(N),
        stats = new Float32Array(N * PG_STATS);
      if (pass.loss.kind === 'pg') {
        pgLoss(
          dlogp,
          dent,
          seqLoss,
          stats,
          logp,
          d.oldLogp,
          refLogp,
          d.adv,
          d.mask,
          d.klMask,
          entropy,
          N,
          T,
          pass.loss.params,
        );
      } else {
        ceLoss(dlogp, seqLoss, logp, d.mask, N, T, pass.loss.scale);
      }
      const dlogits = new Float32Array(R * V);
      logitsBackward(dlogits, logits, d.targets, dlogp, dent, shape);
      this.grads.fill(0);
      backward(this.layout, this.params, this.grads, d.tokens, N, T, acts, dlogits);
      const norm = new Float32Array(2);
      gradNorm(norm, this.grads, this.layout.numParams);
      this.update(pass.adam, norm);
      out.push({ seqLoss, stats, gradNorm: norm[0], nonFinite: norm[1] !== 0 });
    }
    const groupNorms = this.groupGradNorms();
    const w = new Float32Array(2),
      d = new Float32Array(2);
    gradNorm(w, this.params, this.layout.numParams);
    diffNorm(d, this.params, before, this.layout.numParams);
    return { passes: out, groupNorms, weightNorm: w[1] ? NaN : w[0], updateNorm: d[1] ? NaN : d[0] };
  }

  /** One AdamW step of the weights with the gradients just computed and their norm. */
  private update(h: TrainPass['adam'], norm: Float32Array): void {
    adamw(
      this.params,
      this.grads,
      this.adam.m,
      this.adam.v,
      this.decay,
      norm,
      this.layout.numParams,
      h.lr,
      h.beta1,
      h.beta2,
      h.eps,
      h.weightDecay,
      h.step,
      h.maxGradNorm,
    );
  }

  /** The norm of the last pass's gradients within each tensor group (the metrics' grad_norm/…). */
  private groupGradNorms(): Record<string, number> {
    const groupNorms: Record<string, number> = {};
    for (const g of tensorGroups(this.layout)) {
      const n = new Float32Array(2);
      gradNorm(n, this.grads.subarray(g.offset, g.offset + g.size), g.size);
      groupNorms[g.name] = n[0];
    }
    return groupNorms;
  }

  async logProbs(tokens: Int32Array, targets: Int32Array, N: number, T: number): Promise<Float32Array> {
    const { invTemp } = this.settings;
    const R = N * T;
    const acts = createActivations(this.layout.config, N, T, Float32Array);
    const logits = forward(this.layout, this.params, tokens, N, T, acts);
    const logp = new Float32Array(R);
    logitsStats(logp, new Float32Array(R), logits, targets, { R, V: this.layout.config.vocabSize, invTemp });
    return logp;
  }

  async syncReference(): Promise<void> {
    this.ref = this.params.slice();
  }

  async checkpointState(): Promise<void> {
    this.saved = {
      params: this.params.slice(),
      m: (this.adam.m as Float32Array).slice(),
      v: (this.adam.v as Float32Array).slice(),
    };
  }

  async restoreState(): Promise<void> {
    if (!this.saved) return;
    this.params = this.saved.params.slice();
    this.adam.m = this.saved.m.slice();
    this.adam.v = this.saved.v.slice();
  }

  async readParams(): Promise<Float32Array> {
    return this.params.slice();
  }

  async loadParams(params: Float32Array): Promise<void> {
    this.params = params.slice();
    this.adam = createAdamState(this.layout, Float32Array);
  }

  async readOptimizerState(): Promise<OptimizerState> {
    return { m: (this.adam.m as Float32Array).slice(), v: (this.adam.v as Float32Array).slice() };
  }

  async loadOptimizerState(state: OptimizerState): Promise<void> {
    checkOptimizerState(state, this.layout.numParams);
    this.adam.m = state.m.slice();
    this.adam.v = state.v.slice();
  }

  async readReference(): Promise<Float32Array | null> {
    return this.ref ? this.ref.slice() : null;
  }

  async loadReference(params: Float32Array): Promise<void> {
    checkLength('loadReference', params, this.layout.numParams);
    this.ref = params.slice();
  }

  async nonFiniteTensors(): Promise<string[]> {
    return nonFiniteSlots(this.layout, this.grads, this.params);
  }

  destroy(): void {}
}
