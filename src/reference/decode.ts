// CPU twins of the KV-cache decoding kernels (shaders/embedding_decode.wgsl, copy_rows.wgsl,
// attention_decode.wgsl, decode_block.wgsl). Decoding advances one position for all N sequences at once; the
// GPU kernels read pos from a storage buffer (cursor[0]) so a whole loop can be recorded
// once, the twins take it as a number. Same argument order otherwise; (=) semantics.
//
// Letters (docs/architecture.md, "Conventions"): N sequences, Tmax positions, C channels, V vocab, NH heads,
// hd = C/NH, W row width.

import type { AttentionShape, EmbeddingShape } from '../core/abi';
import { add, geluForward, layernormForward, matmul, type F } from './ops';

/**
 * out[n,:] = wte[tokens[n,pos],:] + wpe[pos,:].  (=)
 * A token id outside [0,V) reads a zero wte row, as in embeddingForward.
 */
export function embeddingDecode(
  out: F, // [N, C] (=)
  tokens: Int32Array, // [N, Tmax]
  wte: F, // [V, C]
  wpe: F, // [Tmax, C]
  shape: EmbeddingShape,
  pos: number,
): void {
  const { N, T: Tmax, C, V } = shape;
  checkPos('embeddingDecode', pos, Tmax);
  for (let n = 0; n < N; n++) {
    const tok = tokens[n * Tmax + pos];
    const valid = tok >= 0 && tok < V;
    for (let c = 0; c < C; c++) {
      out[n * C + c] = (valid ? wte[tok * C + c] : 0) + wpe[pos * C + c];
    }
  }
}

/** dst[n,pos,:] = src[n,:]: writes the new position's row (e.g. q|k|v, W = 3C) into a cache.  (=) */
export function copyRows(
  dst: F, // [N, Tmax, W] (row pos written)
  src: F, // [N, W]
  N: number,
  Tmax: number,
  W: number,
  pos: number,
): void {
  checkPos('copyRows', pos, Tmax);
  for (let n = 0; n < N; n++) {
    for (let w = 0; w < W; w++) dst[(n * Tmax + pos) * W + w] = src[n * W + w];
  }
}

/**
 * The query at row pos of qkv attends causally to rows 0..pos of the same buffer, scale
 * 1/sqrt(hd) (a row is [q | k | v], head h uses channels h·hd..(h+1)·hd of each).  (=)
 * out[n, h·hd+d] = Σ_{s≤pos} softmax_s(q_pos·k_s·scale)·v_s[d]: row pos of attentionForward.
 */
export function attentionDecode(
  out: F, // [N, C] (=)
  qkv: F, // [N, Tmax, 3C]
  shape: AttentionShape,
  pos: number,
): void {
  const { N, T: Tmax, C, NH } = shape;
  checkPos('attentionDecode', pos, Tmax);
  const hd = C / NH;
  const scale = 1 / Math.sqrt(hd);
  const C3 = 3 * C;
  const w = new Float64Array(pos + 1);
  for (let n = 0; n < N; n++) {
    const base = n * Tmax * C3;
    const q = base + pos * C3;
    for (let h = 0; h < NH; h++) {
      let max = -Infinity;
      for (let s = 0; s <= pos; s++) {
        const k = base + s * C3 + C + h * hd;
        let dot = 0;
        for (let d = 0; d < hd; d++) dot += qkv[q + h * hd + d] * qkv[k + d];
        w[s] = dot * scale;
        if (w[s] > max) max = w[s];
      }
      let sum = 0;
      for (let s = 0; s <= pos; s++) {
        w[s] = Math.exp(w[s] - max);
        sum += w[s];
      }
      for (let d = 0; d < hd; d++) {
        let acc = 0;
        for (let s = 0; s <= pos; s++) acc += w[s] * qkv[base + s * C3 + 2 * C + h * hd + d];
        out[n * C + h * hd + d] = acc / sum;
      }
    }
  }
}

function checkPos(fn: string, pos: number, Tmax: number): void {
  if (!Number.isInteger(pos) || pos < 0 || pos >= Tmax) {
    throw new RangeError(`${fn}: pos must be an integer in [0, Tmax=${Tmax}), got ${pos}`);
  }
}

/** A block's weights (HF Conv1D layout: W [in, out]), as decodeBlock reads them. */
export interface DecodeBlockWeights {
  ln1w: F;
  ln1b: F; // [C]
  qkvw: F;
  qkvb: F; // [C,3C], [3C]
  projw: F;
  projb: F; // [C,C], [C]
  ln2w: F;
  ln2b: F; // [C]
  fcw: F;
  fcb: F; // [C,4C], [4C]
  fcprojw: F;
  fcprojb: F; // [4C,C], [C]
}

/**
 * One transformer block for the new position pos of every sequence (decode_block.wgsl's
 * twin): the unfused decoding step's eleven kernels, twin by twin. x [N,C] is updated in place
 * (+=, the residual stream); the new q|k|v row is written into cache [N,Tmax,3C] at pos.
 */
export function decodeBlock(
  x: F, // [N, C] (in place)
  cache: F, // [N, Tmax, 3C] (row pos written)
  wts: DecodeBlockWeights,
  shape: AttentionShape,
  pos: number,
): void {
  const { N, T: Tmax, C } = shape;
  checkPos('decodeBlock', pos, Tmax);
  const f = (n: number) => new (x.constructor as new (n: number) => F)(n);
  const ln = f(N * C),
    mean = f(N),
    rstd = f(N),
    qkv = f(N * 3 * C),
    atty = f(N * C),
    proj = f(N * C);
  const mid = f(N * C),
    fch = f(N * 4 * C),
    fchGelu = f(N * 4 * C);
  layernormForward(ln, mean, rstd, x, wts.ln1w, wts.ln1b, N, C);
  matmul(qkv, ln, wts.qkvw, wts.qkvb, { M: N, K: C, N: 3 * C });
  copyRows(cache, qkv, N, Tmax, 3 * C, pos);
  attentionDecode(atty, cache, shape, pos);
  matmul(proj, atty, wts.projw, wts.projb, { M: N, K: C, N: C });
  add(mid, x, proj, N * C);
  layernormForward(ln, mean, rstd, mid, wts.ln2w, wts.ln2b, N, C);
  matmul(fch, ln, wts.fcw, wts.fcb, { M: N, K: C, N: 4 * C });
  geluForward(fchGelu, fch, N * 4 * C);
  matmul(proj, fchGelu, wts.fcprojw, wts.fcprojb, { M: N, K: 4 * C, N: C });
  add(x, mid, proj, N * C);
}
