// Token-level credit: how a sequence's advantage is spread over its tokens, and which tokens
// carry gradient at all. Arrays are [N*T], token (i, t) at i*T + t; a token is a policy token
// when mask ≠ 0.

/** Bounds of an EAPO weight before renormalisation (docs/estimators.md, EAPO). */
export const EAPO_MIN_WEIGHT = 0.1;
export const EAPO_MAX_WEIGHT = 10;

/**
 * EAPO ("Entropic Advantage Policy Optimization", docs/methods.md) (reading): per-token weights w [N*T]
 * with A_{i,t} = A_i · w_{i,t}. h_t = H_{i,t} / mean over the sequence's policy tokens of H;
 * w = h when A_i > 0, 1/h when A_i < 0 (confident failures are penalised most), 1 when A_i = 0.
 * w is clamped to [0.1, 10] (h = 0 gives 0.1 or 10), then renormalised to mean 1 over the
 * sequence's policy tokens, so the sequence's total advantage is A_i × its token count, as with
 * uniform credit. A sequence whose policy tokens all have zero entropy gets uniform weights.
 * Weights are 0 where mask = 0.
 */
export function eapoWeights(
  seqAdv: ArrayLike<number>,
  mask: ArrayLike<number>,
  entropy: ArrayLike<number>,
  N: number,
  T: number,
): Float64Array {
  const w = new Float64Array(N * T);
  for (let i = 0; i < N; i++) {
    const base = i * T;
    let count = 0;
    let sumH = 0;
    for (let t = 0; t < T; t++) {
      if (mask[base + t] === 0) continue;
      count++;
      sumH += entropy[base + t];
    }
    if (count === 0) continue;
    const meanH = sumH / count;
    const a = seqAdv[i];
    if (a === 0 || !(meanH > 0) || !Number.isFinite(meanH)) {
      for (let t = 0; t < T; t++) if (mask[base + t] !== 0) w[base + t] = 1;
      continue;
    }
    let sumW = 0;
    for (let t = 0; t < T; t++) {
      if (mask[base + t] === 0) continue;
      const h = entropy[base + t] / meanH;
      const raw = a > 0 ? h : 1 / h; // 1/0 = Infinity, clamped below
      const clamped = Math.min(EAPO_MAX_WEIGHT, Math.max(EAPO_MIN_WEIGHT, raw));
      w[base + t] = clamped;
      sumW += clamped;
    }
    const renorm = count / sumW;
    for (let t = 0; t < T; t++) if (mask[base + t] !== 0) w[base + t] *= renorm;
  }
  return w;
}

/**
 * Entropy threshold that keeps the top fraction q of the policy tokens ("only forking tokens",
 * Wang et al. 2025; TRL top_entropy_quantile): the ⌈q·M⌉-th largest entropy among the M policy
 * tokens. Returns -Infinity when q = 1 or there are no policy tokens (keep everything).
 */
export function topEntropyThreshold(mask: ArrayLike<number>, entropy: ArrayLike<number>, q: number): number {
  if (!(q > 0 && q <= 1)) throw new RangeError(`topEntropyQuantile must be in (0, 1], got ${q}`);
  if (q === 1) return -Infinity;
  const values: number[] = [];
  for (let j = 0; j < mask.length; j++) if (mask[j] !== 0) values.push(entropy[j]);
  if (values.length === 0) return -Infinity;
  values.sort((x, y) => y - x); // descending
  const keep = Math.ceil(q * values.length);
  return values[keep - 1];
}

/**
 * The mask after top-entropy filtering [N*T]: mask[j] where the token's entropy ≥ threshold, else
 * 0. Ties at the threshold are all kept, so at least ⌈q·M⌉ tokens survive and possibly more
 * (TRL's torch.quantile interpolates instead and can keep slightly fewer).
 */
export function topEntropyMask(mask: ArrayLike<number>, entropy: ArrayLike<number>, q: number): Float32Array {
  const threshold = topEntropyThreshold(mask, entropy, q);
  const out = new Float32Array(mask.length);
  for (let j = 0; j < mask.length; j++) if (mask[j] !== 0 && entropy[j] >= threshold) out[j] = mask[j];
  return out;
}
