// CPU twins of the KV-cache decoding kernels (shaders/embedding_decode.wgsl, copy_rows.wgsl,
// attention_decode.wgsl). Decoding advances one position for all N sequences at once; the
// GPU kernels read pos from a storage buffer (cursor[0]) so a whole loop can be recorded
// once, the twins take it as a number. Same argument order otherwise; (=) semantics.
//
// Letters (docs/architecture.md, "Conventions"): N sequences, Tmax positions, C channels, V vocab, NH heads,
// hd = C/NH, W row width.

import type { F } from './ops';

/**
 * out[n,:] = wte[tokens[n,pos],:] + wpe[pos,:].  (=)
 * A token id outside [0,V) reads a zero wte row, as in embeddingForward.
 */
export function embeddingDecode(
  out: F,             // [N, C] (=)
  tokens: Int32Array, // [N, Tmax]
  wte: F,             // [V, C]
  wpe: F,             // [Tmax, C]
  N: number, Tmax: number, C: number, V: number,
  pos: number,
): void {
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
  N: number, Tmax: number, W: number,
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
  N: number, Tmax: number, C: number, NH: number,
  pos: number,
): void {
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
