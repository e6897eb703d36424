// CPU twins of every GPU kernel (docs/engine.md, "The engine"). Same names, same argument
// order, same (=) / (+=) semantics. These plain loops are the ground truth the WGSL kernels are
// tested against, and every backward here passes a finite-difference gradient check, so they
// favour clarity over speed. The one exception is matmul, where the CPU engine spends most of its
// time: its loops are arranged for speed, and its plain definition (matmulDefinition) stays
// beside it, tested to give the same bits. They run on Float32Array (to mirror the GPU) or
// Float64Array (for gradient checks); intermediate arithmetic is always in JS doubles.
//
// The layers' twins are here; matmul's and the bias gradient's in matmul-twin.ts, the training
// kernels' (logits, losses, norms, AdamW) in ops-train.ts and sample_token's in ops-sample.ts, all
// exported from here.
//
// Letters (docs/architecture.md, "Conventions"): N sequences, T time, C channels, V vocab, NH heads, hd = C/NH,
// R rows (= N·T), P parameters, OC/IC output/input channels.

import { LAYER_NORM_EPS, type AttentionShape, type EmbeddingShape } from '../core/abi';
import type { F } from './float';

export type { F } from './float';
export * from './matmul-twin';
export * from './ops-train';
export * from './ops-sample';

// ─── embedding ──────────────────────────────────────────────────────────────────────────────

/**
 * out[n,t,:] = wte[tokens[n,t],:] + wpe[t,:].  (=)
 * A token id outside [0,V) reads a zero row of wte (the environment may leave such ids, e.g.
 * −1 for "not yet sampled"; they must never read out of bounds).
 */
export function embeddingForward(
  out: F, // [N·T, C] (=)
  tokens: Int32Array, // [N, T]
  wte: F, // [V, C]
  wpe: F, // [Tmax, C]
  shape: EmbeddingShape,
): void {
  const { C } = shape;
  forEachPosition(tokens, shape, (row, t, tok) => {
    for (let c = 0; c < C; c++) out[row + c] = (tok >= 0 ? wte[tok * C + c] : 0) + wpe[t * C + c];
  });
}

/** f(row offset, t, the token or −1 when outside [0,V)) for each position, in (n,t) order. */
function forEachPosition(
  tokens: Int32Array, // [N, T]
  shape: EmbeddingShape,
  f: (row: number, t: number, tok: number) => void,
): void {
  const { N, T, C, V } = shape;
  for (let n = 0; n < N; n++) {
    for (let t = 0; t < T; t++) {
      const tok = tokens[n * T + t];
      f((n * T + t) * C, t, tok >= 0 && tok < V ? tok : -1);
    }
  }
}

/**
 * dwte[v,:] += Σ_{(n,t): tokens[n,t]=v} dout[n,t,:];  dwpe[t,:] += Σ_n dout[n,t,:].  (+=)
 * Positions are visited in (n,t) order, the fixed order the GPU kernel sums in.
 * Out-of-range tokens contribute to dwpe only.
 */
export function embeddingBackward(
  dwte: F, // [V, C] (+=)
  dwpe: F, // [Tmax, C] (+=)
  dout: F, // [N·T, C]
  tokens: Int32Array, // [N, T]
  shape: EmbeddingShape,
): void {
  const { C } = shape;
  forEachPosition(tokens, shape, (row, t, tok) => {
    for (let c = 0; c < C; c++) {
      const g = dout[row + c];
      if (tok >= 0) dwte[tok * C + c] += g;
      dwpe[t * C + c] += g;
    }
  });
}

// ─── layernorm ──────────────────────────────────────────────────────────────────────────────

/** out = (inp − mean)·rstd·w + b per row; population variance, eps 1e-5.  (=) */
export function layernormForward(
  out: F, // [R, C] (=)
  mean: F, // [R] (=)
  rstd: F, // [R] (=)
  inp: F, // [R, C]
  w: F, // [C]
  b: F, // [C]
  R: number,
  C: number,
): void {
  for (let r = 0; r < R; r++) {
    const x = r * C;
    let m = 0;
    for (let c = 0; c < C; c++) m += inp[x + c];
    m /= C;
    let v = 0;
    for (let c = 0; c < C; c++) {
      const d = inp[x + c] - m;
      v += d * d;
    }
    v /= C;
    const s = 1 / Math.sqrt(v + LAYER_NORM_EPS);
    for (let c = 0; c < C; c++) out[x + c] = (inp[x + c] - m) * s * w[c] + b[c];
    mean[r] = m;
    rstd[r] = s;
  }
}

/**
 * Backward of layernormForward, using the mean/rstd it saved.  (+=) into dinp, dw, db.
 * With x̂ = (x − mean)·rstd and g = dout·w:
 *   dx = rstd·(g − mean_c(g) − x̂·mean_c(g·x̂)),  dw = Σ_r dout·x̂,  db = Σ_r dout.
 */
export function layernormBackward(
  dinp: F, // [R, C] (+=)
  dw: F, // [C] (+=)
  db: F, // [C] (+=)
  dout: F, // [R, C]
  inp: F, // [R, C]
  w: F, // [C]
  mean: F, // [R]
  rstd: F, // [R]
  R: number,
  C: number,
): void {
  for (let r = 0; r < R; r++) {
    const x = r * C;
    const m = mean[r];
    const s = rstd[r];
    let gMean = 0; // mean_c(dout·w)
    let gxMean = 0; // mean_c(dout·w·x̂)
    for (let c = 0; c < C; c++) {
      const xhat = (inp[x + c] - m) * s;
      const g = dout[x + c] * w[c];
      gMean += g;
      gxMean += g * xhat;
    }
    gMean /= C;
    gxMean /= C;
    for (let c = 0; c < C; c++) {
      const xhat = (inp[x + c] - m) * s;
      const d = dout[x + c];
      db[c] += d;
      dw[c] += d * xhat;
      dinp[x + c] += s * (d * w[c] - gMean - xhat * gxMean);
    }
  }
}

// ─── attention ──────────────────────────────────────────────────────────────────────────────

/**
 * Causal multi-head self-attention, scale 1/sqrt(hd).  (=) into out and att.
 * A row of qkv is [q | k | v], each C wide; head h uses channels h·hd..(h+1)·hd of each.
 * att[n,h,t,s] = softmax_s≤t(q_t·k_s·scale), 0 for s > t;  out[n,t,h·hd+d] = Σ_s att·v_s[d].
 */
export function attentionForward(
  out: F, // [N, T, C] (=)
  att: F, // [N, NH, T, T] (=)
  qkv: F, // [N, T, 3C]
  shape: AttentionShape,
): void {
  const { N, T, C, NH } = shape;
  for (let n = 0; n < N; n++) {
    for (let h = 0; h < NH; h++) {
      for (let t = 0; t < T; t++) {
        const a = ((n * NH + h) * T + t) * T; // row att[n,h,t,:]
        attentionRow(out, (n * T + t) * C, att, a, qkv, n, T, C, NH, h, t);
        for (let s = t + 1; s < T; s++) att[a + s] = 0;
      }
    }
  }
}

/**
 * One row of causal attention: query t of sequence n, head h, over keys 0..t.  (=)
 * att[a + s] = softmax_s≤t(q_t·k_s·scale) (rounded as `att`'s element type rounds it, the order of
 * operations fixed), out[o + h·hd + d] = Σ_s att[a + s]·v_s[d]. attentionForward runs it for every
 * row; the CPU engine's cached sampler (./sampler) for the newest row only, bit for bit the same.
 */
export function attentionRow(
  out: F, // row at o, C wide (=)
  o: number,
  att: F, // t + 1 entries from a (=)
  a: number,
  qkv: F, // [N, T, 3C], rows 0..t of sequence n written
  n: number,
  T: number,
  C: number,
  NH: number,
  h: number,
  t: number,
): void {
  const hd = C / NH;
  const scale = 1 / Math.sqrt(hd);
  const C3 = 3 * C;
  const q = (n * T + t) * C3 + h * hd;
  // scores for s ≤ t, then a numerically stable softmax
  let max = -Infinity;
  for (let s = 0; s <= t; s++) {
    const k = (n * T + s) * C3 + C + h * hd;
    let dot = 0;
    for (let d = 0; d < hd; d++) dot += qkv[q + d] * qkv[k + d];
    const z = dot * scale;
    att[a + s] = z;
    if (z > max) max = z;
  }
  let sum = 0;
  for (let s = 0; s <= t; s++) {
    const e = Math.exp(att[a + s] - max);
    att[a + s] = e;
    sum += e;
  }
  for (let s = 0; s <= t; s++) att[a + s] /= sum;
  // weighted sum of values
  for (let d = 0; d < hd; d++) {
    let acc = 0;
    for (let s = 0; s <= t; s++) acc += att[a + s] * qkv[(n * T + s) * C3 + 2 * C + h * hd + d];
    out[o + h * hd + d] = acc;
  }
}

/**
 * Backward of attentionForward.  (=) into dqkv.
 * With P = att row t, dP_s = dout_t·v_s; dv_s += P_s·dout_t;
 * softmax backward dz_s = P_s·(dP_s − Σ_u P_u dP_u); dq_t += scale·dz_s·k_s; dk_s += scale·dz_s·q_t.
 */
export function attentionBackward(
  dqkv: F, // [N, T, 3C] (=)
  dout: F, // [N, T, C]
  qkv: F, // [N, T, 3C]
  att: F, // [N, NH, T, T]
  shape: AttentionShape,
): void {
  const { N, T, C, NH } = shape;
  const hd = C / NH;
  const scale = 1 / Math.sqrt(hd);
  const C3 = 3 * C;
  dqkv.fill(0, 0, N * T * C3);
  const dP = new Float64Array(T); // scratch: d loss / d att[n,h,t,s]
  for (let n = 0; n < N; n++) {
    for (let h = 0; h < NH; h++) {
      for (let t = 0; t < T; t++) {
        const a = ((n * NH + h) * T + t) * T;
        const o = (n * T + t) * C + h * hd;
        const q = (n * T + t) * C3 + h * hd;
        let pdp = 0; // Σ_u P_u dP_u
        for (let s = 0; s <= t; s++) {
          const v = (n * T + s) * C3 + 2 * C + h * hd;
          let dot = 0;
          for (let d = 0; d < hd; d++) {
            dot += dout[o + d] * qkv[v + d];
            dqkv[v + d] += att[a + s] * dout[o + d];
          }
          dP[s] = dot;
          pdp += att[a + s] * dot;
        }
        for (let s = 0; s <= t; s++) {
          const dz = att[a + s] * (dP[s] - pdp) * scale;
          const k = (n * T + s) * C3 + C + h * hd;
          for (let d = 0; d < hd; d++) {
            dqkv[q + d] += dz * qkv[k + d];
            dqkv[k + d] += dz * qkv[q + d];
          }
        }
      }
    }
  }
}

// ─── gelu (tanh approximation, "gelu_new") ──────────────────────────────────────────────────

/** sqrt(2/π) */
export const GELU_SCALE = Math.sqrt(2 / Math.PI);
/** cubic coefficient of the tanh approximation */
export const GELU_CUBIC = 0.044715;

/** out = 0.5·x·(1 + tanh(sqrt(2/π)·(x + 0.044715x³))).  (=) */
export function geluForward(
  out: F, // [n] (=)
  inp: F, // [n]
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    const x = inp[i];
    out[i] = 0.5 * x * (1 + Math.tanh(GELU_SCALE * (x + GELU_CUBIC * x * x * x)));
  }
}

/** dinp = gelu'(inp)·dout.  (=) */
export function geluBackward(
  dinp: F, // [n] (=)
  inp: F, // [n]
  dout: F, // [n]
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    const x = inp[i];
    const u = GELU_SCALE * (x + GELU_CUBIC * x * x * x);
    const th = Math.tanh(u);
    const sech2 = 1 - th * th;
    const du = GELU_SCALE * (1 + 3 * GELU_CUBIC * x * x);
    dinp[i] = (0.5 * (1 + th) + 0.5 * x * sech2 * du) * dout[i];
  }
}

// ─── residual ───────────────────────────────────────────────────────────────────────────────

/** out = a + b (residual forward).  (=) */
export function add(out: F, a: F, b: F, n: number): void {
  for (let i = 0; i < n; i++) out[i] = a[i] + b[i];
}

/** dst += src (residual backward: the gradient flows to both branches unchanged).  (+=) */
export function accumulate(dst: F, src: F, n: number): void {
  for (let i = 0; i < n; i++) dst[i] += src[i];
}
