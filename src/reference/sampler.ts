// CPU twin of GpuSampler (src/model/gpu-sampler.ts): autoregressive sampling over a template
// by full recomputation (no KV cache), one position at a time. Slow, and exactly what the GPU
// plan must reproduce: same logits, same random key (seed, step, sequence, position), same
// inverse-CDF draw.

import type { ParamLayout } from '../model/layout';
import { createActivations, forward } from './model';
import { sampleToken, type F } from './ops';
import type { SampleResult } from '../core/abi';

export function sampleSequencesCpu(
  layout: ParamLayout, params: F, fixed: Int32Array, N: number, T: number,
  seed: number, step: number, invTemp: number, topK: number,
): SampleResult {
  const V = layout.config.vocabSize;
  const tokens = Int32Array.from(fixed, (t) => Math.max(t, 0)); // [N,T]
  const logp = new Float32Array(N * T);
  const entropy = new Float32Array(N * T);
  const acts = createActivations(layout.config, N, T);
  const next = new Float32Array(N * V); // [N,V] logits at pos for every sequence
  for (let pos = 0; pos + 1 < T; pos++) {
    // Causal: rows ≤ pos do not depend on later (not yet sampled) tokens.
    const logits = forward(layout, params, tokens, N, T, acts); // [N·T,V]
    for (let n = 0; n < N; n++) next.set(logits.subarray((n * T + pos) * V, (n * T + pos + 1) * V), n * V);
    sampleToken(tokens, logp, entropy, next, fixed, N, V, T, pos + 1, seed, step, invTemp, topK);
  }
  return { tokens, logp, entropy };
}
