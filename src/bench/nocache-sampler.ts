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
import { SampleBuffers } from '../model/gpu-sampler';
import { createStorage } from '../gpu/buffers';
import type { MatmulVariant } from '../gpu/ops';

export class NoCacheSampler extends SampleBuffers {
  readonly gathered: GPUBuffer; // [N,V] logits of the position being sampled
  private readonly acts: GpuActivations;
  /** steps[pos]: forward over [N,T] → gather rows pos → cursor = pos+1 → sample. */
  private readonly steps: Plan[];

  /** `variant`: the matmul variant of the KV-cache sampler it is measured against (the bench names it). */
  constructor(device: GPUDevice, layout: ParamLayout, model: GpuParams, N: number, T: number, variant: MatmulVariant) {
    super(device, layout, N, T, 'nocache');
    const V = layout.config.vocabSize;
    this.gathered = createStorage(device, N * V * 4, 'nocache logits [N,V]');
    this.acts = new GpuActivations(device, layout, N, T);

    const forward = forwardPlan(device, layout, model.params, this.tokens, this.acts, variant);
    const sample = new Plan().dispatch(this.sampleTokenDispatch(this.gathered, V));
    this.steps = [];
    for (let pos = 0; pos + 1 < T; pos++) {
      const step = new Plan().append(forward);
      for (let n = 0; n < N; n++) step.copy(this.acts.logits, (n * T + pos) * V * 4, this.gathered, n * V * 4, V * 4);
      step.copy(this.positions, (pos + 1) * 4, this.next, 0, 4).append(sample);
      this.steps.push(step);
    }
  }

  /** Record the whole sampling loop (T−1 full forwards) into `encoder`. */
  encode(encoder: GPUCommandEncoder): void {
    for (const s of this.steps) s.encode(encoder, 'nocache decode');
  }
}
