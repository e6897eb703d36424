// CPU twins of every GPU kernel (docs/engine.md, "The engine"). Same names, same argument
// order, same (=) / (+=) semantics. These plain loops are the ground truth the WGSL kernels are
// tested against, and every backward here passes a finite-difference gradient check, so they
// favour clarity over speed. They run on Float32Array (to mirror the GPU) or Float64Array (for
// gradient checks); intermediate arithmetic is always in JS doubles.
//
// Letters (docs/architecture.md, "Conventions"): N sequences, T time, C channels, V vocab, NH heads, hd = C/NH,
// R rows (= N·T), P parameters, OC/IC output/input channels.

import { AGGREGATION, KL_KIND, LAYER_NORM_EPS, PG_STAT, PG_STATS, REGULATOR, type PgLossParams, type Regulator } from '../core/abi';
import { uniform4 } from '../core/random';

/** A float tensor: Float32 mirrors the GPU, Float64 is for gradient checks. */
export type F = Float32Array | Float64Array;

// ─── embedding ──────────────────────────────────────────────────────────────────────────────

/**
 * out[n,t,:] = wte[tokens[n,t],:] + wpe[t,:].  (=)
 * A token id outside [0,V) reads a zero row of wte (the environment may leave such ids, e.g.
 * −1 for "not yet sampled"; they must never read out of bounds).
 */
export function embeddingForward(
  out: F,            // [N·T, C] (=)
  tokens: Int32Array, // [N, T]
  wte: F,            // [V, C]
  wpe: F,            // [Tmax, C]
  N: number, T: number, C: number, V: number,
): void {
  for (let n = 0; n < N; n++) {
    for (let t = 0; t < T; t++) {
      const row = (n * T + t) * C;
      const tok = tokens[n * T + t];
      const valid = tok >= 0 && tok < V;
      for (let c = 0; c < C; c++) {
        out[row + c] = (valid ? wte[tok * C + c] : 0) + wpe[t * C + c];
      }
    }
  }
}

/**
 * dwte[v,:] += Σ_{(n,t): tokens[n,t]=v} dout[n,t,:];  dwpe[t,:] += Σ_n dout[n,t,:].  (+=)
 * Positions are visited in (n,t) order, the fixed order the GPU kernel sums in.
 * Out-of-range tokens contribute to dwpe only.
 */
export function embeddingBackward(
  dwte: F,           // [V, C] (+=)
  dwpe: F,           // [Tmax, C] (+=)
  dout: F,           // [N·T, C]
  tokens: Int32Array, // [N, T]
  N: number, T: number, C: number, V: number,
): void {
  for (let n = 0; n < N; n++) {
    for (let t = 0; t < T; t++) {
      const row = (n * T + t) * C;
      const tok = tokens[n * T + t];
      const valid = tok >= 0 && tok < V;
      for (let c = 0; c < C; c++) {
        const g = dout[row + c];
        if (valid) dwte[tok * C + c] += g;
        dwpe[t * C + c] += g;
      }
    }
  }
}

// ─── layernorm ──────────────────────────────────────────────────────────────────────────────

/** out = (inp − mean)·rstd·w + b per row; population variance, eps 1e-5.  (=) */
export function layernormForward(
  out: F,  // [R, C] (=)
  mean: F, // [R] (=)
  rstd: F, // [R] (=)
  inp: F,  // [R, C]
  w: F,    // [C]
  b: F,    // [C]
  R: number, C: number,
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
  dw: F,   // [C] (+=)
  db: F,   // [C] (+=)
  dout: F, // [R, C]
  inp: F,  // [R, C]
  w: F,    // [C]
  mean: F, // [R]
  rstd: F, // [R]
  R: number, C: number,
): void {
  for (let r = 0; r < R; r++) {
    const x = r * C;
    const m = mean[r];
    const s = rstd[r];
    let gMean = 0;   // mean_c(dout·w)
    let gxMean = 0;  // mean_c(dout·w·x̂)
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

// ─── matmul ─────────────────────────────────────────────────────────────────────────────────

/**
 * out = op(a)·op(b) (+ bias), (=) or (+= when accumulate).
 * op(a) is [M,K], stored [K,M] when transA; op(b) is [K,N], stored [N,K] when transB.
 * (Here N is the matmul's column count, not the sequence count.)
 *   forward linear:  matmul(out[R,OC], inp[R,IC], W[IC,OC], bias, R, IC, OC, false, false, false)
 *   tied head:       matmul(logits[R,V], x[R,C], wte[V,C], null, R, C, V, false, true, false)
 *   input grad:      matmul(dinp[R,IC], dout[R,OC], W[IC,OC], null, R, OC, IC, false, true, true)
 *   weight grad:     matmul(dW[IC,OC], inp[R,IC], dout[R,OC], null, IC, R, OC, true, false, true)
 */
export function matmul(
  out: F,          // [M, N] (= or +=)
  a: F,            // [M, K], or [K, M] if transA
  b: F,            // [K, N], or [N, K] if transB
  bias: F | null,  // [N] or null
  M: number, K: number, N: number,
  transA: boolean, transB: boolean, accumulate: boolean,
): void {
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = bias ? bias[j] : 0;
      for (let k = 0; k < K; k++) {
        const av = transA ? a[k * M + i] : a[i * K + k];
        const bv = transB ? b[j * K + k] : b[k * N + j];
        s += av * bv;
      }
      out[i * N + j] = accumulate ? out[i * N + j] + s : s;
    }
  }
}

/** dbias[j] += Σ_r dout[r,j] (column sums).  (+=) */
export function biasBackward(
  dbias: F, // [OC] (+=)
  dout: F,  // [R, OC]
  R: number, OC: number,
): void {
  for (let j = 0; j < OC; j++) {
    let s = 0;
    for (let r = 0; r < R; r++) s += dout[r * OC + j];
    dbias[j] += s;
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
  N: number, T: number, C: number, NH: number,
): void {
  const hd = C / NH;
  const scale = 1 / Math.sqrt(hd);
  const C3 = 3 * C;
  for (let n = 0; n < N; n++) {
    for (let h = 0; h < NH; h++) {
      for (let t = 0; t < T; t++) {
        const q = (n * T + t) * C3 + h * hd;
        const a = ((n * NH + h) * T + t) * T; // row att[n,h,t,:]
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
        for (let s = t + 1; s < T; s++) att[a + s] = 0;
        // weighted sum of values
        const o = (n * T + t) * C + h * hd;
        for (let d = 0; d < hd; d++) {
          let acc = 0;
          for (let s = 0; s <= t; s++) acc += att[a + s] * qkv[(n * T + s) * C3 + 2 * C + h * hd + d];
          out[o + d] = acc;
        }
      }
    }
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
  qkv: F,  // [N, T, 3C]
  att: F,  // [N, NH, T, T]
  N: number, T: number, C: number, NH: number,
): void {
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
  inp: F,  // [n]
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

// ─── logits: per-row statistics and their backward ──────────────────────────────────────────

/**
 * With z = logits·invTemp (the tempered policy): logp[r] = log softmax(z)[targets[r]] (0 when
 * the target is outside [0,V)), reg[r] = the regulator's value: the entropy H in nats (default)
 * or U = mean_j log p_j (REGULATOR.uniform).  (=)
 */
export function logitsStats(
  logp: F,            // [R] (=)
  reg: F,             // [R] (=) H or U
  logits: F,          // [R, V]
  targets: Int32Array, // [R]
  invTemp: number,
  R: number, V: number,
  regulator: Regulator = REGULATOR.entropy,
): void {
  for (let r = 0; r < R; r++) {
    const x = r * V;
    const lse = logSumExp(logits, x, V, invTemp);
    let h = 0;
    let u = 0;
    for (let j = 0; j < V; j++) {
      const lp = logits[x + j] * invTemp - lse; // log p_j, finite even when p_j underflows
      h -= Math.exp(lp) * lp;
      u += lp;
    }
    const tgt = targets[r];
    logp[r] = tgt >= 0 && tgt < V ? logits[x + tgt] * invTemp - lse : 0;
    reg[r] = regulator === REGULATOR.uniform ? u / V : h;
  }
}

/**
 * dL/dlogits for L = Σ_r dlogp[r]·logp[r] + dreg[r]·reg[r] (logp, reg as in logitsStats, the
 * same regulator).  (=)  With p = softmax(z), z = logits·invTemp:
 *   dL/dz_j = dlogp·(δ_{j,target} − p_j) + dreg·(−p_j(log p_j + H))   (entropy)
 *   dL/dz_j = dlogp·(δ_{j,target} − p_j) + dreg·(1/V − p_j)            (uniform)
 * and dlogits = invTemp·dL/dz. A target outside [0,V) has logp ≡ 0, so its row gets no dlogp term.
 */
export function logitsBackward(
  dlogits: F,         // [R, V] (=)
  logits: F,          // [R, V]
  targets: Int32Array, // [R]
  dlogp: F,           // [R]
  dreg: F,            // [R]
  invTemp: number,
  R: number, V: number,
  regulator: Regulator = REGULATOR.entropy,
): void {
  for (let r = 0; r < R; r++) {
    const x = r * V;
    const lse = logSumExp(logits, x, V, invTemp);
    let h = 0;
    for (let j = 0; j < V; j++) {
      const lp = logits[x + j] * invTemp - lse;
      h -= Math.exp(lp) * lp;
    }
    const tgt = targets[r];
    const gl = tgt >= 0 && tgt < V ? dlogp[r] : 0;
    const ge = dreg[r];
    for (let j = 0; j < V; j++) {
      const lp = logits[x + j] * invTemp - lse;
      const p = Math.exp(lp);
      const dRegDz = regulator === REGULATOR.uniform ? 1 / V - p : -p * (lp + h);
      const dz = gl * ((j === tgt ? 1 : 0) - p) + ge * dRegDz;
      dlogits[x + j] = invTemp * dz;
    }
  }
}

/** log Σ_j exp(a[off+j]·invTemp), stable. */
function logSumExp(a: F, off: number, V: number, invTemp: number): number {
  let max = -Infinity;
  for (let j = 0; j < V; j++) max = Math.max(max, a[off + j] * invTemp);
  let s = 0;
  for (let j = 0; j < V; j++) s += Math.exp(a[off + j] * invTemp - max);
  return max + Math.log(s);
}

// ─── losses ─────────────────────────────────────────────────────────────────────────────────

/**
 * Clipped policy-gradient surrogate with optional dual clip, KL penalty and entropy bonus.
 * Writes (=) per-token dlogp = ∂L/∂logp and dent = ∂L/∂entropy, per-sequence loss parts
 * seqLoss[n] (L = Σ_n seqLoss[n]) and per-sequence statistics (PG_STAT). Tokens with
 * mask = 0 contribute nothing. See docs/engine.md for the exact formulas.
 */
export function pgLoss(
  dlogp: F,   // [N·T] (=)
  dent: F,    // [N·T] (=)
  seqLoss: F, // [N] (=)
  stats: F,   // [N·8] (=)
  logp: F,    // [N·T] log π(token) under the current (tempered) policy
  oldLogp: F, // [N·T] log π_old(token), from the rollout
  refLogp: F, // [N·T] log π_ref(token), frozen reference
  adv: F,     // [N·T] advantages A
  mask: F,    // [N·T] 1 where the token is trained, else 0
  klMask: F,  // [N·T] 1 where the KL penalty applies, else 0
  entropy: F, // [N·T] the regulator value at that position (H, or U for REGULATOR.uniform)
  N: number, T: number,
  p: PgLossParams,
): void {
  if (p.klKind !== KL_KIND.k1 && p.klKind !== KL_KIND.k3) {
    throw new RangeError(`pgLoss: params.klKind must be ${KL_KIND.k1} or ${KL_KIND.k3}, got ${String(p.klKind)}`);
  }
  const lo = 1 - p.epsLow;
  const hi = 1 + p.epsHigh;
  const useDual = p.dualClip > 1;
  for (let n = 0; n < N; n++) {
    // per-sequence weight (the aggregation)
    let len = 0;
    for (let t = 0; t < T; t++) if (mask[n * T + t] !== 0) len++;
    let w: number;
    switch (p.aggregation) {
      case AGGREGATION.tokenMean: w = 1 / p.totalTokens; break;
      case AGGREGATION.seqMeanTokenMean: w = len > 0 ? 1 / (p.totalSeqs * len) : 0; break;
      case AGGREGATION.seqMeanTokenSum: w = 1 / p.totalSeqs; break;
      case AGGREGATION.seqMeanTokenSumNorm: w = 1 / (p.totalSeqs * p.maxLen); break;
      default: throw new RangeError(`pgLoss: params.aggregation must be one of ${Object.values(AGGREGATION).join(', ')}, got ${String(p.aggregation)}`);
    }
    let loss = 0;
    let count = 0, clipLow = 0, clipHigh = 0, sumRatio = 0, maxRatio = 0, sumKl = 0;
    let dualCount = 0, sumLogRatio = 0;
    for (let t = 0; t < T; t++) {
      const i = n * T + t;
      if (mask[i] === 0) {
        dlogp[i] = 0;
        dent[i] = 0;
        continue;
      }
      const A = adv[i];
      const logRatio = logp[i] - oldLogp[i];
      const ratio = Math.exp(logRatio);
      // min(ρA, clip(ρ)A): the clipped (constant) branch wins exactly in these two cases
      const isLow = A < 0 && ratio < lo;
      const isHigh = A > 0 && ratio > hi;
      let s: number;
      let ds: number; // ∂s/∂logp
      if (isLow) { s = lo * A; ds = 0; }
      else if (isHigh) { s = hi * A; ds = 0; }
      else { s = ratio * A; ds = ratio * A; }
      const isDual = useDual && A < 0 && p.dualClip * A > s;
      if (isDual) { s = p.dualClip * A; ds = 0; }
      // KL to the reference, with r = refLogp − logp
      const r = refLogp[i] - logp[i];
      const k3 = Math.exp(r) - r - 1;
      let kl = 0;
      let dkl = 0;
      const klOn = klMask[i] !== 0;
      if (klOn && p.beta > 0) {
        if (p.klKind === KL_KIND.k1) { kl = -r; dkl = 1; }
        else { kl = k3; dkl = 1 - Math.exp(r); }
      }
      const H = entropy[i];
      const ell = -s + p.beta * kl - p.alpha * H;
      loss += w * ell;
      dlogp[i] = w * (-ds + p.beta * dkl);
      dent[i] = -w * p.alpha;
      count++;
      if (isLow) clipLow++;
      if (isHigh) clipHigh++;
      if (isDual) dualCount++;
      sumRatio += ratio;
      if (ratio > maxRatio) maxRatio = ratio;
      if (klOn) sumKl += k3;
      sumLogRatio += logRatio;
    }
    seqLoss[n] = loss;
    const st = n * PG_STATS;
    stats[st + PG_STAT.count] = count;
    stats[st + PG_STAT.clippedLow] = clipLow;
    stats[st + PG_STAT.clippedHigh] = clipHigh;
    stats[st + PG_STAT.sumRatio] = sumRatio;
    stats[st + PG_STAT.maxRatio] = maxRatio;
    stats[st + PG_STAT.sumKl] = sumKl;
    stats[st + PG_STAT.dualClipped] = dualCount;
    stats[st + PG_STAT.sumLogRatio] = sumLogRatio;
  }
}

/**
 * SFT / cross-entropy: loss = −scale·Σ mask·logp.  (=)
 * dlogp = −scale·mask; seqLoss[n] = −scale·Σ_t mask·logp of sequence n.
 */
export function ceLoss(
  dlogp: F,   // [N·T] (=)
  seqLoss: F, // [N] (=)
  logp: F,    // [N·T]
  mask: F,    // [N·T]
  N: number, T: number,
  scale: number,
): void {
  for (let n = 0; n < N; n++) {
    let s = 0;
    for (let t = 0; t < T; t++) {
      const i = n * T + t;
      s += mask[i] * logp[i];
      dlogp[i] = -scale * mask[i];
    }
    seqLoss[n] = -scale * s;
  }
}

// ─── optimiser ──────────────────────────────────────────────────────────────────────────────

/** out[0] = sqrt(Σ g²); out[1] = 1 if any g is NaN or ±Inf, else 0.  (=) */
export function gradNorm(
  out: F,   // [2] (=)
  grads: F, // [P]
  P: number,
): void {
  let ss = 0;
  let bad = 0;
  for (let i = 0; i < P; i++) {
    const g = grads[i];
    if (!Number.isFinite(g)) bad = 1;
    ss += g * g;
  }
  out[0] = Math.sqrt(ss);
  out[1] = bad;
}

/** out[0] = sqrt(Σ (a − b)²), out[1] = 1 if any a − b is not finite: how far an update moved the weights. */
export function diffNorm(
  out: F, // [2] (=)
  a: F,   // [P]
  b: F,   // [P]
  P: number,
): void {
  let ss = 0;
  let bad = 0;
  for (let i = 0; i < P; i++) {
    const d = a[i] - b[i];
    if (!Number.isFinite(d)) bad = 1;
    ss += d * d;
  }
  out[0] = Math.sqrt(ss);
  out[1] = bad;
}

/**
 * AdamW with decoupled weight decay and global grad-norm clipping, in place.
 * If norm[1] ≠ 0 (a non-finite gradient) nothing changes: params, m and v are kept.
 */
export function adamw(
  params: F, // [P] (updated)
  grads: F,  // [P]
  m: F,      // [P] first moment (updated)
  v: F,      // [P] second moment (updated)
  decay: F,  // [P] 1 where weight decay applies, else 0
  norm: F,   // [2] from gradNorm
  P: number,
  lr: number, beta1: number, beta2: number, eps: number, weightDecay: number,
  step: number, // 1-based
  maxGradNorm: number,
): void {
  if (norm[1] !== 0) return;
  const scale = maxGradNorm > 0 ? Math.min(1, maxGradNorm / (norm[0] + 1e-6)) : 1;
  const bc1 = 1 - Math.pow(beta1, step);
  const bc2 = 1 - Math.pow(beta2, step);
  for (let i = 0; i < P; i++) {
    const g = scale * grads[i];
    const mi = beta1 * m[i] + (1 - beta1) * g;
    const vi = beta2 * v[i] + (1 - beta2) * g * g;
    m[i] = mi;
    v[i] = vi;
    const mhat = mi / bc1;
    const vhat = vi / bc2;
    params[i] -= lr * (mhat / (Math.sqrt(vhat) + eps) + weightDecay * decay[i] * params[i]);
  }
}

// ─── sampling ───────────────────────────────────────────────────────────────────────────────

/**
 * One decoding step for every sequence, at position pos.
 * If fixed[n,pos] ≥ 0 the environment owns the position: copy it, logp = entropy = 0.
 * Otherwise draw u = uniform4(seed, step, n, pos) and sample by inverse CDF, in index order,
 * from softmax(z) (z = logits·invTemp) restricted to the topK largest logits (topK = 0 or
 * ≥ V: all; ties go to the lower index). logp and entropy are those of the full tempered
 * softmax, the policy the loss trains.
 */
export function sampleToken(
  tokens: Int32Array,  // [N, Tmax] i32 (written at pos)
  logp: F,             // [N, Tmax] (written at pos)
  entropy: F,          // [N, Tmax] (written at pos)
  logits: F,           // [N, V] the next-token logits of each sequence
  fixed: Int32Array,   // [N, Tmax] i32, ≥ 0 where the environment fills the position
  N: number, V: number, Tmax: number, pos: number,
  seed: number, step: number, invTemp: number, topK: number,
): void {
  const allowed = new Uint8Array(V);
  for (let n = 0; n < N; n++) {
    const o = n * Tmax + pos;
    const f = fixed[o];
    if (f >= 0) {
      tokens[o] = f;
      logp[o] = 0;
      entropy[o] = 0;
      continue;
    }
    const x = n * V;
    // allowed set: j is in the top K iff fewer than K logits beat it (ties: lower index wins)
    if (topK <= 0 || topK >= V) allowed.fill(1);
    else {
      for (let j = 0; j < V; j++) {
        const lj = logits[x + j];
        let rank = 0;
        for (let i = 0; i < V; i++) {
          const li = logits[x + i];
          if (li > lj || (li === lj && i < j)) rank++;
        }
        allowed[j] = rank < topK ? 1 : 0;
      }
    }
    let max = -Infinity;
    for (let j = 0; j < V; j++) max = Math.max(max, logits[x + j] * invTemp);
    // full softmax statistics (for logp and entropy) and the truncated mass (for sampling)
    let sumAll = 0;
    let sumAllowed = 0;
    for (let j = 0; j < V; j++) {
      const e = Math.exp(logits[x + j] * invTemp - max);
      sumAll += e;
      if (allowed[j]) sumAllowed += e;
    }
    const u = uniform4(seed, step, n, pos);
    const target = u * sumAllowed;
    let cum = 0;
    let tok = -1;
    for (let j = 0; j < V; j++) {
      if (!allowed[j]) continue;
      cum += Math.exp(logits[x + j] * invTemp - max);
      tok = j; // rounding fallback: the last allowed index
      if (target < cum) break;
    }
    const lse = max + Math.log(sumAll);
    let h = 0;
    for (let j = 0; j < V; j++) {
      const lp = logits[x + j] * invTemp - lse;
      h -= Math.exp(lp) * lp;
    }
    tokens[o] = tok;
    logp[o] = logits[x + tok] * invTemp - lse;
    entropy[o] = h;
  }
}
