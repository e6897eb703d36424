// CPU twins of GpuSampler (src/model/gpu-sampler.ts): autoregressive sampling over a template.
//
// sampleSequencesCpu decodes with a KV cache, as the GPU plan does: one position for all N
// sequences at a time, each layer's q|k|v row written into a cache that attention reads back
// (the embedding and the cache write are the decode twins in ./decode; attention is ops' attentionRow,
// the forward pass's own row). It is the CPU engine's sampler: T/2 times less work than
// recomputing the whole prefix per token. sampleSequencesFull is the plain definition — the
// whole forward pass again for every position — kept as the reference the cached one is
// tested against (same tokens, same log-probabilities). Both draw with the same random key
// (seed, step, sequence, position) and the same inverse-CDF draw as the GPU. Every operation
// is the one the full forward does on that row, in the same order and precision, so the two
// are bit-identical and the CPU golden runs did not change when the cache came in.

import type { ParamLayout } from '../model/layout';
import { view } from '../model/layout';
import { createActivations, forward } from './model';
import { add, attentionRow, geluForward, layernormForward, matmul, sampleToken, type F } from './ops';
import { copyRows, embeddingDecode } from './decode';
import type { SampleResult } from '../core/abi';

export function sampleSequencesCpu(
  layout: ParamLayout,
  params: F,
  fixed: Int32Array,
  N: number,
  T: number,
  seed: number,
  step: number,
  invTemp: number,
  topK: number,
): SampleResult {
  const { nEmbd: C, vocabSize: V, nHead: NH } = layout.config;
  const p = (s: Parameters<typeof view>[1]): F => view(params, s);
  const tokens = Int32Array.from(fixed, (t) => Math.max(t, 0)); // [N,T]
  const logp = new Float32Array(N * T);
  const entropy = new Float32Array(N * T);
  // One row per sequence at the current position.
  const x = new Float32Array(N * C); // [N,C] residual stream
  const ln = new Float32Array(N * C); // [N,C]
  const mean = new Float32Array(N),
    rstd = new Float32Array(N); // [N]
  const qkv = new Float32Array(N * 3 * C); // [N,3C]
  const atty = new Float32Array(N * C); // [N,C]
  const proj = new Float32Array(N * C); // [N,C]
  const fch = new Float32Array(N * 4 * C),
    fchGelu = new Float32Array(N * 4 * C); // [N,4C]
  const logits = new Float32Array(N * V); // [N,V]
  const scores = new Float32Array(T); // [T] one attention row, rounded as attentionForward's att
  const caches = layout.blocks.map(() => new Float32Array(N * T * 3 * C)); // per layer [N,T,3C]
  for (let pos = 0; pos + 1 < T; pos++) {
    embeddingDecode(x, tokens, p(layout.wte), p(layout.wpe), N, T, C, V, pos);
    layout.blocks.forEach((b, l) => {
      layernormForward(ln, mean, rstd, x, p(b.ln1w), p(b.ln1b), N, C);
      matmul(qkv, ln, p(b.qkvw), p(b.qkvb), { M: N, K: C, N: 3 * C });
      copyRows(caches[l], qkv, N, T, 3 * C, pos);
      // Row pos of attentionForward, from the cache: the same function, so the same bits.
      for (let n = 0; n < N; n++)
        for (let h = 0; h < NH; h++) attentionRow(atty, n * C, scores, 0, caches[l], n, T, C, NH, h, pos);
      matmul(proj, atty, p(b.attprojw), p(b.attprojb), { M: N, K: C, N: C });
      add(x, x, proj, N * C);
      layernormForward(ln, mean, rstd, x, p(b.ln2w), p(b.ln2b), N, C);
      matmul(fch, ln, p(b.fcw), p(b.fcb), { M: N, K: C, N: 4 * C });
      geluForward(fchGelu, fch, N * 4 * C);
      matmul(proj, fchGelu, p(b.fcprojw), p(b.fcprojb), { M: N, K: 4 * C, N: C });
      add(x, x, proj, N * C);
    });
    layernormForward(ln, mean, rstd, x, p(layout.lnfw), p(layout.lnfb), N, C);
    matmul(logits, ln, p(layout.wte), null, { M: N, K: C, N: V, transB: true }); // tied LM head
    sampleToken(tokens, logp, entropy, logits, fixed, N, V, T, pos + 1, seed, step, invTemp, topK);
  }
  return { tokens, logp, entropy };
}

/** The definition: the whole forward pass again for every position (slow; the test reference). */
export function sampleSequencesFull(
  layout: ParamLayout,
  params: F,
  fixed: Int32Array,
  N: number,
  T: number,
  seed: number,
  step: number,
  invTemp: number,
  topK: number,
): SampleResult {
  const V = layout.config.vocabSize;
  const tokens = Int32Array.from(fixed, (t) => Math.max(t, 0)); // [N,T]
  const logp = new Float32Array(N * T);
  const entropy = new Float32Array(N * T);
  const acts = createActivations(layout.config, N, T);
  const next = new Float32Array(N * V); // [N,V] logits at pos for every sequence
  for (let pos = 0; pos + 1 < T; pos++) {
    // Causal: rows ≤ pos do not depend on later (not yet sampled) tokens.
    const all = forward(layout, params, tokens, N, T, acts); // [N·T,V]
    for (let n = 0; n < N; n++) next.set(all.subarray((n * T + pos) * V, (n * T + pos + 1) * V), n * V);
    sampleToken(tokens, logp, entropy, next, fixed, N, V, T, pos + 1, seed, step, invTemp, topK);
  }
  return { tokens, logp, entropy };
}
