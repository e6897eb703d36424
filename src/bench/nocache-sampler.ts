// The baseline the KV-cache sampler is measured against: sampling without a cache.
//
// For each position pos = 0..T−2 it runs the full teacher-forced forward (forwardPlan) over
// all T positions of the N sequences sampled so far, gathers each sequence's logits row pos
// from acts.logits [N·T,V] into an [N,V] buffer with copyBufferToBuffer, and runs
// sample_token for position pos+1 with a cursor, like GpuSampler. Causal attention makes row
// pos independent of the (not yet sampled) later tokens, so with the same seed it samples the
// same tokens as GpuSampler (up to float rounding between the two matmul shapes). Work per
// sequence is O(T²·params) instead of O(T·params). One submission, as GpuSampler.

import type { ParamLayout } from '../model/layout';
import { Plan } from '../model/gpu-plan';
import { GpuActivations, forwardPlan, type GpuParams } from '../model/gpu-model';
import { createStorage, writeArray } from '../gpu/buffers';
import {
  createSampleTokenParams, sampleTokenOp, writeSampleTokenParams, defaultMatmulVariant,
  type MatmulVariant, type SampleTokenParams,
} from '../gpu/ops';

export class NoCacheSampler {
  readonly tokens: GPUBuffer;  // [N,T] i32
  readonly logp: GPUBuffer;    // [N,T]
  readonly entropy: GPUBuffer; // [N,T]
  readonly fixed: GPUBuffer;   // [N,T] i32
  readonly gathered: GPUBuffer; // [N,V] logits of the position being sampled
  private readonly params: GPUBuffer;
  private readonly positions: GPUBuffer; // [T] u32 0..T−1
  private readonly next: GPUBuffer;      // [1] u32 position being written
  private readonly acts: GpuActivations;
  /** steps[pos]: forward over [N,T] → gather rows pos → cursor = pos+1 → sample. */
  private readonly steps: Plan[];

  constructor(
    readonly device: GPUDevice,
    readonly layout: ParamLayout,
    model: GpuParams,
    readonly N: number,
    readonly T: number,
    variant: MatmulVariant = defaultMatmulVariant(),
  ) {
    const V = layout.config.vocabSize;
    if (T < 2 || T > layout.config.nPositions) throw new RangeError(`sampling length T must be in [2, ${layout.config.nPositions}], got ${T}`);
    const f = (n: number, label: string) => createStorage(device, n * 4, label);
    this.tokens = f(N * T, 'nocache tokens');
    this.logp = f(N * T, 'nocache logp');
    this.entropy = f(N * T, 'nocache entropy');
    this.fixed = f(N * T, 'nocache template');
    this.gathered = f(N * V, 'nocache logits [N,V]');
    this.next = f(1, 'nocache cursor');
    this.positions = f(T, 'nocache positions');
    writeArray(device, this.positions, Uint32Array.from({ length: T }, (_, i) => i));
    this.params = createSampleTokenParams(device, { seed: 0, step: 0, invTemp: 1, topK: 0 });
    this.acts = new GpuActivations(device, layout, N, T);

    const forward = forwardPlan(device, layout, model.params, this.tokens, this.acts, variant);
    const sample = new Plan().dispatch(
      sampleTokenOp(device, this.tokens, this.logp, this.entropy, this.gathered, this.fixed, N, V, T, this.next, this.params),
    );
    this.steps = [];
    for (let pos = 0; pos + 1 < T; pos++) {
      const step = new Plan().append(forward);
      for (let n = 0; n < N; n++) step.copy(this.acts.logits, (n * T + pos) * V * 4, this.gathered, n * V * 4, V * 4);
      step.copy(this.positions, (pos + 1) * 4, this.next, 0, 4).append(sample);
      this.steps.push(step);
    }
  }

  /** Upload a template [N,T] (−1 = sampled); position 0 of every row must be fixed. */
  setTemplate(fixed: Int32Array): void {
    const { N, T } = this;
    if (fixed.length !== N * T) throw new RangeError(`template has ${fixed.length} entries, sampler is N·T = ${N * T}`);
    writeArray(this.device, this.fixed, fixed);
    writeArray(this.device, this.tokens, Int32Array.from(fixed, (t) => Math.max(t, 0)));
    this.device.queue.writeBuffer(this.logp, 0, new Float32Array(N * T));
    this.device.queue.writeBuffer(this.entropy, 0, new Float32Array(N * T));
  }

  setParams(params: SampleTokenParams): void {
    writeSampleTokenParams(this.device, this.params, params);
  }

  /** Record the whole sampling loop (T−1 full forwards) into `encoder`. */
  encode(encoder: GPUCommandEncoder): void {
    for (const s of this.steps) s.encode(encoder, 'nocache decode');
  }
}
