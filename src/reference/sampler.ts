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
import type { SampleResult, SampleTokenParams } from '../core/abi';

/** The KV-cached sampler (the CPU engine's); p: the random key's seed and step, invTemp, topK. */
export function sampleSequencesCpu(
  layout: ParamLayout,
  params: F,
  fixed: Int32Array, // [N, T] ≥ 0 where the template fixes the token
  N: number,
  T: number,
  p: SampleTokenParams,
): SampleResult {
  const { nEmbd: C, vocabSize: V, nHead: NH } = layout.config;
  const w = (s: Parameters<typeof view>[1]): F => view(params, s);
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
  return decodeLoop(fixed, N, T, V, p, (tokens, pos) => {
    embeddingDecode(x, tokens, w(layout.wte), w(layout.wpe), { N, T, C, V }, pos);
    layout.blocks.forEach((b, l) => {
      layernormForward(ln, mean, rstd, x, w(b.ln1w), w(b.ln1b), N, C);
      matmul(qkv, ln, w(b.qkvw), w(b.qkvb), { M: N, K: C, N: 3 * C });
      copyRows(caches[l], qkv, N, T, 3 * C, pos);
      // Row pos of attentionForward, from the cache: the same function, so the same bits.
      for (let n = 0; n < N; n++)
        for (let h = 0; h < NH; h++) attentionRow(atty, n * C, scores, 0, caches[l], n, T, C, NH, h, pos);
      matmul(proj, atty, w(b.attprojw), w(b.attprojb), { M: N, K: C, N: C });
      add(x, x, proj, N * C);
      layernormForward(ln, mean, rstd, x, w(b.ln2w), w(b.ln2b), N, C);
      matmul(fch, ln, w(b.fcw), w(b.fcb), { M: N, K: C, N: 4 * C });
      geluForward(fchGelu, fch, N * 4 * C);
      matmul(proj, fchGelu, w(b.fcprojw), w(b.fcprojb), { M: N, K: 4 * C, N: C });
      add(x, x, proj, N * C);
    });
    layernormForward(ln, mean, rstd, x, w(layout.lnfw), w(layout.lnfb), N, C);
    matmul(logits, ln, w(layout.wte), null, { M: N, K: C, N: V, transB: true }); // tied LM head
    return logits;
  });
}

/** The definition: the whole forward pass again for every position (slow; the test reference). */
export function sampleSequencesFull(
  layout: ParamLayout,
  params: F,
  fixed: Int32Array, // [N, T]
  N: number,
  T: number,
  p: SampleTokenParams,
): SampleResult {
  const V = layout.config.vocabSize;
  const acts = createActivations(layout.config, N, T);
  const next = new Float32Array(N * V); // [N,V] logits at pos for every sequence
  return decodeLoop(fixed, N, T, V, p, (tokens, pos) => {
    // Causal: rows ≤ pos do not depend on later (not yet sampled) tokens.
    const all = forward(layout, params, tokens, N, T, acts); // [N·T,V]
    for (let n = 0; n < N; n++) next.set(all.subarray((n * T + pos) * V, (n * T + pos + 1) * V), n * V);
    return next;
  });
}

/**
 * The loop both samplers share: from the template (its −1s read as token 0 until drawn), for
 * each position pos + 1 < T draws every sequence's token pos + 1 from logitsAt(tokens, pos),
 * the [N,V] logits at pos of the tokens so far.
 */
function decodeLoop(
  fixed: Int32Array, // [N, T]
  N: number,
  T: number,
  V: number,
  p: SampleTokenParams,
  logitsAt: (tokens: Int32Array, pos: number) => F,
): SampleResult {
  const tokens = Int32Array.from(fixed, (t) => Math.max(t, 0)); // [N,T]
  const logp = new Float32Array(N * T);
  const entropy = new Float32Array(N * T);
  for (let pos = 0; pos + 1 < T; pos++) {
    const logits = logitsAt(tokens, pos);
    sampleToken(tokens, logp, entropy, logits, fixed, N, V, T, pos + 1, p.seed, p.step, p.invTemp, p.topK);
  }
  return { tokens, logp, entropy };
}
