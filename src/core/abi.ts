// The kernel ABI: the codes, records and buffer layouts that the WGSL kernels (shaders/, built by
// src/gpu/ops.ts) and their CPU twins (src/reference/ops.ts) share. This is the TypeScript side
// of docs/engine.md; both twins import it, so neither can drift from the other. A change here
// is a change to the shaders' uniform structs too.

/** LayerNorm's ε (layernorm_forward/backward use 1e-5 as a literal; HF GPT-2's layer_norm_epsilon). */
export const LAYER_NORM_EPS = 1e-5;

/**
 * Which per-row regulator logits_stats writes and logits_backward differentiates:
 * entropy: H = −Σ_j p_j log p_j (its gradient −p_j(log p_j + H) vanishes as the row becomes
 * one-hot); uniform: U = (1/V)·Σ_j log p_j = −CE(uniform, p), maximal at the uniform row, whose
 * gradient 1/V − p_j does not vanish, so a row collapsed on a wrong token is still pulled back.
 */
export const REGULATOR = { entropy: 0, uniform: 1 } as const;
export type Regulator = (typeof REGULATOR)[keyof typeof REGULATOR];

/** The aggregation modes of pg_loss (docs/engine.md, "Policy-gradient loss"). */
export const AGGREGATION = {
  tokenMean: 0,
  seqMeanTokenMean: 1,
  seqMeanTokenSum: 2,
  seqMeanTokenSumNorm: 3,
} as const;
export type AggregationCode = (typeof AGGREGATION)[keyof typeof AGGREGATION];

/** pg_loss's KL estimators: k1 = logp − refLogp, k3 = exp(r) − r − 1 with r = refLogp − logp. */
export const KL_KIND = { k1: 1, k3: 3 } as const;
export type KlKindCode = (typeof KL_KIND)[keyof typeof KL_KIND];

/** Scalar parameters of pg_loss (the first 12 words of its uniform). */
export interface PgLossParams {
  /** ε_low: ratios below 1−epsLow are clipped (for A < 0). */
  epsLow: number;
  /** ε_high: ratios above 1+epsHigh are clipped (for A > 0). */
  epsHigh: number;
  /** Dual clip c (active when > 1): for A < 0 the surrogate is at least c·A. */
  dualClip: number;
  /** β: weight of the KL penalty to the reference policy (0 = off). */
  beta: number;
  klKind: KlKindCode;
  /** α: weight of the regulator bonus (the loss subtracts α·reg, reg = H or U, see REGULATOR). */
  alpha: number;
  aggregation: AggregationCode;
  /** Constant length for seq-mean-token-sum-norm. */
  maxLen: number;
  /** Token-mean normaliser, shared by the minibatches of one batch. */
  totalTokens: number;
  /** Sequence-mean normaliser, shared by the minibatches of one batch. */
  totalSeqs: number;
}

/** Statistics per sequence that pg_loss writes: stats[n·PG_STATS + k]. */
export const PG_STATS = 8;
/** The meaning of k in stats[n·PG_STATS + k] (sums over the sequence's trained tokens). */
export const PG_STAT = {
  count: 0, clippedLow: 1, clippedHigh: 2, sumRatio: 3, maxRatio: 4, sumKl: 5, dualClipped: 6,
  sumLogRatio: 7,
} as const;

/** AdamW's hyperparameters of one step (docs/engine.md, adamw). */
export interface AdamwParams {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** 1-based step count (for the bias corrections). */
  step: number;
  /** Global grad-norm clip; ≤ 0 turns clipping off. */
  maxGradNorm: number;
}

/** The per-call scalars of sample_token: the random key is (seed, step, sequence, position). */
export interface SampleTokenParams {
  seed: number;
  /** RL step: part of the random key. */
  step: number;
  invTemp: number;
  /** Sample among the topK largest logits; 0 = all. */
  topK: number;
}

/** What sampling N sequences of T positions over a template gives (GPU sampler and CPU twin alike). */
export interface SampleResult {
  /** [N,T] the full sequences (template tokens and sampled ones). */
  tokens: Int32Array;
  /** [N,T] log π(token at t) under the tempered policy where sampled; 0 where fixed. */
  logp: Float32Array;
  /** [N,T] entropy of the tempered policy at the step that produced token t; 0 where fixed. */
  entropy: Float32Array;
}

/**
 * Row alignment of every teacher-forced pass: row (n,t) predicts tokens[n,t+1]; the last row of
 * each sequence has no target (−1, which the logits kernels read as "no target").
 */
export function nextTokenTargets(tokens: Int32Array, N: number, T: number): Int32Array {
  const targets = new Int32Array(N * T); // [N,T]
  for (let n = 0; n < N; n++) {
    for (let t = 0; t < T; t++) targets[n * T + t] = t + 1 < T ? tokens[n * T + t + 1] : -1;
  }
  return targets;
}

/**
 * Rows per chunk of the GPU's column sums over a batch's R = N·T rows (the bias and layernorm
 * parameter gradients, shaders/bias_backward.wgsl and layernorm_backward.wgsl): each chunk is
 * summed by a thread of its own, then the chunk sums in order. A constant, so the summation
 * order (and the bits) depends only on R, never on the adapter.
 */
export const SUM_ROWS = 64;

/** Rows of K a split-K chunk takes at least (below 2 such chunks a matmul is not split). */
export const SPLITK_MIN_CHUNK = 256;
/** At most this many chunks, and their scratch at most SPLITK_MAX_SCRATCH floats. */
export const SPLITK_MAX_CHUNKS = 16;
export const SPLITK_MAX_SCRATCH = 1 << 22;

/**
 * How many chunks of K a matmul's sum is cut into on the GPU (shaders/matmul_splitk.wgsl); 1 =
 * not split. Only the weight-gradient shape (op(a) stored transposed, no bias: dW += inpᵀ·dout,
 * K = the batch's N·T rows) is split, when K holds at least two chunks of SPLITK_MIN_CHUNK. A
 * function of the shape alone, so the summation order (and the bits) never depends on the adapter.
 */
export function splitKChunks(M: number, K: number, N: number, transA: boolean, bias: boolean): number {
  if (!transA || bias) return 1;
  const z = Math.min(SPLITK_MAX_CHUNKS, Math.floor(K / SPLITK_MIN_CHUNK), Math.floor(SPLITK_MAX_SCRATCH / (M * N)));
  return z >= 2 ? z : 1;
}
