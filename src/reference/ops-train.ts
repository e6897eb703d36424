// CPU twins of the training kernels (docs/engine.md): the logits' per-row statistics and their
// backward, the policy-gradient and cross-entropy losses, the gradient and update norms, and
// AdamW. The conventions are those of ops.ts.

import { AGGREGATION, KL_KIND, PG_STAT, PG_STATS, REGULATOR, type LogitsShape, type PgLossParams } from '../core/abi';
import type { F } from './float';

// ─── logits: per-row statistics and their backward ──────────────────────────────────────────

/**
 * With z = logits·invTemp (the tempered policy): logp[r] = log softmax(z)[targets[r]] (0 when
 * the target is outside [0,V)), reg[r] = the regulator's value: the entropy H in nats (default)
 * or U = mean_j log p_j (REGULATOR.uniform).  (=)
 */
export function logitsStats(
  logp: F, // [R] (=)
  reg: F, // [R] (=) H or U
  logits: F, // [R, V]
  targets: Int32Array, // [R]
  { R, V, invTemp, regulator = REGULATOR.entropy }: LogitsShape,
): void {
  for (let r = 0; r < R; r++) {
    const x = r * V;
    const { lse, h, u } = rowStats(logits, x, V, invTemp);
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
  dlogits: F, // [R, V] (=)
  logits: F, // [R, V]
  targets: Int32Array, // [R]
  dlogp: F, // [R]
  dreg: F, // [R]
  { R, V, invTemp, regulator = REGULATOR.entropy }: LogitsShape,
): void {
  for (let r = 0; r < R; r++) {
    const x = r * V;
    const { lse, h } = rowStats(logits, x, V, invTemp);
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

/** A row's log-sum-exp of z = logits·invTemp, its entropy H and U = mean_j log p_j. */
function rowStats(a: F, off: number, V: number, invTemp: number): { lse: number; h: number; u: number } {
  const lse = logSumExp(a, off, V, invTemp);
  let h = 0;
  let u = 0;
  for (let j = 0; j < V; j++) {
    const lp = a[off + j] * invTemp - lse; // log p_j, finite even when p_j underflows
    h -= Math.exp(lp) * lp;
    u += lp;
  }
  return { lse, h, u };
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
  dlogp: F, // [N·T] (=)
  dent: F, // [N·T] (=)
  seqLoss: F, // [N] (=)
  stats: F, // [N·8] (=)
  logp: F, // [N·T] log π(token) under the current (tempered) policy
  oldLogp: F, // [N·T] log π_old(token), from the rollout
  refLogp: F, // [N·T] log π_ref(token), frozen reference
  adv: F, // [N·T] advantages A
  mask: F, // [N·T] 1 where the token is trained, else 0
  klMask: F, // [N·T] 1 where the KL penalty applies, else 0
  entropy: F, // [N·T] the regulator value at that position (H, or U for REGULATOR.uniform)
  N: number,
  T: number,
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
    const w = sequenceWeight(mask, n, T, p);
    let loss = 0;
    let count = 0,
      clipLow = 0,
      clipHigh = 0,
      sumRatio = 0,
      maxRatio = 0,
      sumKl = 0;
    let dualCount = 0,
      sumLogRatio = 0;
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
      const { s, ds, isLow, isHigh, isDual } = clippedSurrogate(ratio, A, lo, hi, useDual, p.dualClip);
      // KL to the reference, with r = refLogp − logp
      const r = refLogp[i] - logp[i];
      const k3 = Math.exp(r) - r - 1;
      const klOn = klMask[i] !== 0;
      const { kl, dkl } = klOn && p.beta > 0 ? klPenalty(r, k3, p.klKind) : { kl: 0, dkl: 0 };
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

/** The weight of sequence n's tokens in the loss, by the aggregation (its normalisers in p). */
function sequenceWeight(mask: F, n: number, T: number, p: PgLossParams): number {
  let len = 0;
  for (let t = 0; t < T; t++) if (mask[n * T + t] !== 0) len++;
  switch (p.aggregation) {
    case AGGREGATION.tokenMean:
      return 1 / p.totalTokens;
    case AGGREGATION.seqMeanTokenMean:
      return len > 0 ? 1 / (p.totalSeqs * len) : 0;
    case AGGREGATION.seqMeanTokenSum:
      return 1 / p.totalSeqs;
    case AGGREGATION.seqMeanTokenSumNorm:
      return 1 / (p.totalSeqs * p.maxLen);
    default:
      throw new RangeError(
        `pgLoss: params.aggregation must be one of ${Object.values(AGGREGATION).join(', ')}, got ${String(p.aggregation)}`,
      );
  }
}

/**
 * One token's clipped surrogate s (the loss term is −s) and ds = ∂s/∂logp, for ratio ρ and
 * advantage A, with which clip won (low, high, dual).
 */
function clippedSurrogate(
  ratio: number,
  A: number,
  lo: number,
  hi: number,
  useDual: boolean,
  dualClip: number,
): { s: number; ds: number; isLow: boolean; isHigh: boolean; isDual: boolean } {
  // min(ρA, clip(ρ)A): the clipped (constant) branch wins exactly in these two cases
  const isLow = A < 0 && ratio < lo;
  const isHigh = A > 0 && ratio > hi;
  let s: number;
  let ds: number; // ∂s/∂logp
  if (isLow) {
    s = lo * A;
    ds = 0;
  } else if (isHigh) {
    s = hi * A;
    ds = 0;
  } else {
    s = ratio * A;
    ds = ratio * A;
  }
  const isDual = useDual && A < 0 && dualClip * A > s;
  if (isDual) {
    s = dualClip * A;
    ds = 0;
  }
  return { s, ds, isLow, isHigh, isDual };
}

/** The KL penalty kl and dkl = ∂kl/∂logp of the estimator klKind, with r = refLogp − logp and k3 = eʳ − r − 1. */
function klPenalty(r: number, k3: number, klKind: number): { kl: number; dkl: number } {
  if (klKind === KL_KIND.k1) return { kl: -r, dkl: 1 };
  return { kl: k3, dkl: 1 - Math.exp(r) };
}

/**
 * SFT / cross-entropy: loss = −scale·Σ mask·logp.  (=)
 * dlogp = −scale·mask; seqLoss[n] = −scale·Σ_t mask·logp of sequence n.
 */
export function ceLoss(
  dlogp: F, // [N·T] (=)
  seqLoss: F, // [N] (=)
  logp: F, // [N·T]
  mask: F, // [N·T]
  N: number,
  T: number,
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
  out: F, // [2] (=)
  grads: F, // [P]
  P: number,
): void {
  sumOfSquares(out, P, (i) => grads[i]);
}

/** out[0] = sqrt(Σ (a − b)²), out[1] = 1 if any a − b is not finite: how far an update moved the weights. */
export function diffNorm(
  out: F, // [2] (=)
  a: F, // [P]
  b: F, // [P]
  P: number,
): void {
  sumOfSquares(out, P, (i) => a[i] - b[i]);
}

/** The loop both norms share (as grad_norm's kernels do): out[0] = sqrt(Σ x²), out[1] = 1 if any x = at(i) is not finite. */
function sumOfSquares(out: F, P: number, at: (i: number) => number): void {
  let ss = 0;
  let bad = 0;
  for (let i = 0; i < P; i++) {
    const x = at(i);
    if (!Number.isFinite(x)) bad = 1;
    ss += x * x;
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
  grads: F, // [P]
  m: F, // [P] first moment (updated)
  v: F, // [P] second moment (updated)
  decay: F, // [P] 1 where weight decay applies, else 0
  norm: F, // [2] from gradNorm
  P: number,
  lr: number,
  beta1: number,
  beta2: number,
  eps: number,
  weightDecay: number,
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
