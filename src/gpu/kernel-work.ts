// What one kernel call computes and moves, for a profile's achieved GFLOP/s and GB/s. The ops
// of ./ops.ts attach it to each Dispatch they build (it costs nothing when encoding).
//
// flops: floating-point operations of the arithmetic that matters (a multiply-add counts 2):
// matmul 2·M·K·N; causal attention the dot products over the s ≤ t pairs. Kernels whose work
// is a few operations per element (layernorm, gelu, adamw, …) get null: their figure is GB/s.
// bytes: every element of every tensor argument counted once, 4 bytes each (inputs read,
// outputs written, a (+=) output read and written); what a kernel re-reads through caches, or
// re-reads because of how it is written (embedding_backward scans all rows for each output),
// is not counted: the figure is the useful traffic, the minimum a kernel must move.
// null where the work is not known when the dispatch is built (attention_decode reads the
// position from a buffer at run time).
//
// Letters as in ./ops.ts: N sequences, T time, C channels, V vocab, NH heads, R rows, P
// parameters, OC output channels; M, K, N in matmul are its own.

import type { MatmulShape } from '../core/abi';

export interface KernelWork {
  /** The call's shape, e.g. "512×32×128 Aᵀ +=" or "R 512, C 32": what a profile groups by within a kernel. */
  shape: string;
  flops: number | null;
  bytes: number | null;
}

const F = 4; // bytes per f32 / i32 element

/** "M×K×N" plus trans/accumulate/bias flags, e.g. "512×32×128 Aᵀ +=". */
export function matmulShapeLabel(s: MatmulShape & { bias: boolean }): string {
  const flags = [s.transA ? 'Aᵀ' : '', s.transB ? 'Bᵀ' : '', s.accumulate ? '+=' : '', s.bias ? '+b' : ''].filter(
    Boolean,
  );
  return `${s.M}×${s.K}×${s.N}${flags.length ? ' ' + flags.join(' ') : ''}`;
}

export function matmulWork(
  shape: MatmulShape,
  bias: boolean,
  epilogue: string | null = null,
  layernorm = false,
): KernelWork {
  const { M, K, N, accumulate } = shape;
  // an epilogue reads or writes one more [M, N] tensor; a layernorm prologue writes the
  // normalised [M, K] and the [2, M] statistics and reads w, b [K]
  const elements =
    M * K + K * N + M * N * (accumulate || epilogue ? 2 : 1) + (bias ? N : 0) + (layernorm ? M * K + 2 * M + 2 * K : 0);
  const label = matmulShapeLabel({ ...shape, bias });
  const tags = [layernorm ? 'layernorm' : '', epilogue ?? ''].filter((t) => t);
  return {
    shape: tags.length ? `${label} ${tags.join(' ')}` : label,
    flops: 2 * M * K * N,
    bytes: F * elements,
  };
}

/** A kernel over n elements that reads `reads` arrays of n and writes `writes` (a += output counts in both). */
export function elementwiseWork(n: number, reads: number, writes: number): KernelWork {
  return { shape: `n ${n}`, flops: null, bytes: F * n * (reads + writes) };
}

export function embeddingForwardWork(N: number, T: number, C: number, V: number): KernelWork {
  const R = N * T;
  // tokens, the gathered wte rows (one per token), wpe rows 0..T−1, out
  return { shape: `R ${R}, C ${C}, V ${V}`, flops: null, bytes: F * (R + R * C + T * C + R * C) };
}

export function embeddingBackwardWork(N: number, T: number, C: number, V: number): KernelWork {
  const R = N * T;
  // dwte and dwpe (+=), dout, tokens
  return { shape: `R ${R}, C ${C}, V ${V}`, flops: null, bytes: F * (2 * V * C + 2 * T * C + R * C + R) };
}

export function layernormForwardWork(R: number, C: number): KernelWork {
  // inp, w, b; out, mean, rstd
  return { shape: `R ${R}, C ${C}`, flops: null, bytes: F * (R * C + 2 * C + R * C + 2 * R) };
}

export function layernormBackwardWork(R: number, C: number): KernelWork {
  // dinp (+=), dw and db (+=); dout, inp, w, mean, rstd
  return { shape: `R ${R}, C ${C}`, flops: null, bytes: F * (2 * R * C + 4 * C + 2 * R * C + C + 2 * R) };
}

export function biasBackwardWork(R: number, OC: number): KernelWork {
  // dout once, dbias (+=)
  return { shape: `R ${R}, OC ${OC}`, flops: null, bytes: F * (R * OC + 2 * OC) };
}

/** linear_backward: the input grad (R×OC×IC) and the weight grad (IC×R×OC), 2 flops a multiply-add each. */
export function linearBackwardWork(R: number, IC: number, OC: number, gelu: boolean): KernelWork {
  // dout, inp, W read; dinp (=), dW and db (+=); gelu's pre-activation read
  const elements = R * OC + R * IC + IC * OC + R * IC + 2 * IC * OC + 2 * OC + (gelu ? R * IC : 0);
  return { shape: `R ${R}, IC ${IC}, OC ${OC}${gelu ? ' gelu' : ''}`, flops: 4 * R * IC * OC, bytes: F * elements };
}

/** The finishing pass of a chunked column sum: Z chunk sums of W columns read, W outputs (+=). */
export function chunkSumsWork(Z: number, W: number): KernelWork {
  return { shape: `Z ${Z}, W ${W}`, flops: null, bytes: F * (Z * W + 2 * W) };
}

/** Dot products of length hd over the causal pairs s ≤ t of every (n, head): N·NH·hd·T(T+1)/2 multiply-adds = N·C·T(T+1)/2. */
function causalMacs(N: number, T: number, C: number): number {
  return (N * C * T * (T + 1)) / 2;
}

function attentionShape(N: number, T: number, C: number, NH: number): string {
  return `N ${N}, T ${T}, C ${C}, NH ${NH}`;
}

/** Scores q·k and the weighted sum of v: two dot products per causal pair. */
export function attentionForwardWork(N: number, T: number, C: number, NH: number): KernelWork {
  const R = N * T;
  return {
    shape: attentionShape(N, T, C, NH),
    flops: 2 * 2 * causalMacs(N, T, C),
    bytes: F * (R * 3 * C + R * C + N * NH * T * T), // qkv; out, att
  };
}

/** Entry point `scores`: dP = dout·v per causal pair, then dz (=) into the scratch. */
export function attentionBackwardScoresWork(N: number, T: number, C: number, NH: number): KernelWork {
  const R = N * T;
  const TT = N * NH * T * T;
  return {
    shape: attentionShape(N, T, C, NH),
    flops: 2 * causalMacs(N, T, C),
    bytes: F * (R * C + R * 2 * C + TT + TT), // dout, the k|v part of qkv, att; dz
  };
}

/** Entry point `grads`: dq, dk, dv, one dot product each per causal pair. */
export function attentionBackwardGradsWork(N: number, T: number, C: number, NH: number): KernelWork {
  const R = N * T;
  const TT = N * NH * T * T;
  return {
    shape: attentionShape(N, T, C, NH),
    flops: 3 * 2 * causalMacs(N, T, C),
    bytes: F * (R * C + R * 3 * C + 2 * TT + R * 3 * C), // dout, qkv, att, dz; dqkv
  };
}

export function logitsStatsWork(R: number, V: number): KernelWork {
  return { shape: `R ${R}, V ${V}`, flops: null, bytes: F * (R * V + R + 2 * R) }; // logits, targets; logp, entropy
}

export function logitsBackwardWork(R: number, V: number): KernelWork {
  return { shape: `R ${R}, V ${V}`, flops: null, bytes: F * (R * V + 3 * R + R * V) }; // logits, targets, dlogp, dent; dlogits
}

/** Entry point `per_token`: reads logp, oldLogp, refLogp, klMask, entropy; writes the [R,4] scratch. */
export function pgLossPerTokenWork(N: number, T: number): KernelWork {
  const R = N * T;
  return { shape: `N ${N}, T ${T}`, flops: null, bytes: F * (5 * R + 4 * R) };
}

/** Entry point `per_sequence`: reads adv, mask and the scratch; writes dlogp, dent, seqLoss, stats. */
export function pgLossPerSequenceWork(N: number, T: number): KernelWork {
  const R = N * T;
  return { shape: `N ${N}, T ${T}`, flops: null, bytes: F * (2 * R + 4 * R + 2 * R + N + 8 * N) };
}

export function ceLossWork(N: number, T: number): KernelWork {
  const R = N * T;
  return { shape: `N ${N}, T ${T}`, flops: null, bytes: F * (2 * R + R + N) }; // logp, mask; dlogp, seqLoss
}

/** Entry points `partial` (Σ g² of P gradients) and `partial_diff` (Σ (a − b)²: two inputs) into G partials. */
export function gradNormPartialWork(P: number, G: number, inputs = 1): KernelWork {
  return { shape: `P ${P}, G ${G}`, flops: null, bytes: F * (inputs * P + 2 * G) };
}

export function gradNormFinishWork(P: number, G: number): KernelWork {
  return { shape: `P ${P}, G ${G}`, flops: null, bytes: F * (2 * G + 2) };
}

export function adamwWork(P: number): KernelWork {
  // params, m, v (read and written), grads, decay, norm[2]
  return { shape: `P ${P}`, flops: null, bytes: F * (3 * 2 * P + 2 * P + 2) };
}

export function sampleTokenWork(N: number, V: number): KernelWork {
  // logits, the template entry, cursor; token, logp, entropy
  return { shape: `N ${N}, V ${V}`, flops: null, bytes: F * (N * V + N + 1 + 3 * N) };
}

export function embeddingDecodeWork(N: number, C: number, V: number): KernelWork {
  // the token of each sequence, its wte row, the wpe row, cursor; out
  return { shape: `N ${N}, C ${C}, V ${V}`, flops: null, bytes: F * (N + N * C + C + 1 + N * C) };
}

export function copyRowsWork(N: number, W: number): KernelWork {
  return { shape: `N ${N}, W ${W}`, flops: null, bytes: F * (N * W + 1 + N * W) };
}

/** The position comes from the cursor buffer at run time: the work is not known when the dispatch is built. */
export function attentionDecodeWork(N: number, Tmax: number, C: number, NH: number): KernelWork {
  return { shape: `N ${N}, Tmax ${Tmax}, C ${C}, NH ${NH}`, flops: null, bytes: null };
}

/** A whole decoding block; its attention depends on the position, known only at run time. */
export function decodeBlockWork(N: number, Tmax: number, C: number, NH: number): KernelWork {
  return { shape: `N ${N}, Tmax ${Tmax}, C ${C}, NH ${NH}`, flops: null, bytes: null };
}
