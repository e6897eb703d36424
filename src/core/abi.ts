// The kernel ABI: the codes, records and buffer layouts that the WGSL kernels (shaders/, built by
// src/gpu/ops.ts) and their CPU twins (src/reference/ops.ts) share, and the uniform records the
// GPU builders write. This is the TypeScript side of docs/engine.md; both twins import it, so
// neither can drift from the other. A change here is a change to the shaders' uniform structs too.

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
  count: 0,
  clippedLow: 1,
  clippedHigh: 2,
  sumRatio: 3,
  maxRatio: 4,
  sumKl: 5,
  dualClipped: 6,
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

/**
 * The shape the embedding kernels (forward, backward, decode) take, builders and CPU twins alike:
 * N sequences of T positions (decoding: Tmax, the rows of the tokens and of wpe), C channels, V
 * the vocabulary (an argument: wte is a slice of the parameter buffer, its length unknown to it).
 */
export interface EmbeddingShape {
  N: number;
  T: number;
  C: number;
  V: number;
}

/**
 * The shape the attention kernels (forward, backward, decode, the decoding block) take, builders
 * and CPU twins alike: N sequences of T positions (decoding: Tmax, the rows of the KV cache), C
 * channels, NH heads of hd = C/NH channels each.
 */
export interface AttentionShape {
  N: number;
  T: number;
  C: number;
  NH: number;
}

/**
 * A matmul's shape, as the GPU builder (matmulOp) and its CPU twin (matmul) both take it:
 * out[M,N] (= or += when accumulate) = op(a)·op(b) (+ bias[N]), op(a) [M,K] stored [K,M] when
 * transA, op(b) [K,N] stored [N,K] when transB. N here is the matmul's column count, not the
 * sequence count. The flags default to false: `{ M: R, K: C, N: OC }` is a forward linear layer.
 */
export interface MatmulShape {
  /** Rows of out and of op(a). */
  M: number;
  /** The summed dimension: columns of op(a), rows of op(b). */
  K: number;
  /** Columns of out and of op(b). */
  N: number;
  /** a is stored [K, M]. */
  transA?: boolean;
  /** b is stored [N, K]. */
  transB?: boolean;
  /** out += the product (else out = it). */
  accumulate?: boolean;
}

/**
 * The shape and constants the logits kernels (logits_stats, logits_backward) take, builders and
 * CPU twins alike: R rows of V logits, the policy softmax(logits·invTemp), and the regulator whose
 * value is each row's second statistic (REGULATOR: the entropy H, the default, or U).
 */
export interface LogitsShape {
  /** Rows: the N·T positions of a batch. */
  R: number;
  /** Logits per row: the vocabulary. */
  V: number;
  /** 1 / temperature. */
  invTemp: number;
  /** REGULATOR.entropy where absent. */
  regulator?: Regulator;
}

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

// ─── uniform records ────────────────────────────────────────────────────────────────────────

/** One 4-byte word of a uniform record: its value and its WGSL type. */
export type UniformWord = readonly [number, 'u32' | 'i32' | 'f32'];

/**
 * The uniform record of a kernel whose first `hyperWords` words change between steps (the
 * per-step parameters, rewritten by the write*Params builders of src/gpu/ops.ts); the shape, in
 * `shapeWords` words, follows and is written once. `encode` checks a record and gives its words
 * in the order of the kernel's WGSL struct.
 */
export interface ParamBlock<H> {
  name: string;
  hyperWords: number; // a multiple of 4
  shapeWords: number;
  encode(h: H): readonly UniformWord[];
}

/** pg_loss's uniform: 12 words of PgLossParams, then (N, T). */
function checkPgParams(p: PgLossParams): void {
  const bad = (field: string, why: string): never => {
    throw new RangeError(`pgLoss: params.${field} ${why}`);
  };
  const klKinds: number[] = Object.values(KL_KIND);
  const aggregations: number[] = Object.values(AGGREGATION);
  if (!klKinds.includes(p.klKind)) bad('klKind', `must be one of ${klKinds.join(', ')}, got ${String(p.klKind)}`);
  if (!aggregations.includes(p.aggregation))
    bad('aggregation', `must be one of ${aggregations.join(', ')}, got ${String(p.aggregation)}`);
  for (const k of ['epsLow', 'epsHigh', 'dualClip', 'beta', 'alpha', 'maxLen', 'totalTokens', 'totalSeqs'] as const) {
    if (!Number.isFinite(p[k])) bad(k, `must be a finite number, got ${String(p[k])}`);
  }
}

export const PG_BLOCK: ParamBlock<PgLossParams> = {
  name: 'pgLoss',
  hyperWords: 12,
  shapeWords: 2,
  encode(p) {
    checkPgParams(p);
    return [
      [p.epsLow, 'f32'],
      [p.epsHigh, 'f32'],
      [p.dualClip, 'f32'],
      [p.beta, 'f32'],
      [p.klKind, 'u32'],
      [p.alpha, 'f32'],
      [p.aggregation, 'u32'],
      [p.maxLen, 'f32'],
      [p.totalTokens, 'f32'],
      [p.totalSeqs, 'f32'],
      [0, 'u32'],
      [0, 'u32'],
    ];
  },
};

/** ce_loss's uniform: word 0 is the per-step loss scale, the shape (N, T) starts at word 4. */
export interface CeLossParams {
  /** Loss scale, e.g. 1 / (number of trained tokens in the batch). */
  scale: number;
}

export const CE_BLOCK: ParamBlock<CeLossParams> = {
  name: 'ceLoss',
  hyperWords: 4,
  shapeWords: 2,
  encode(p) {
    if (!Number.isFinite(p.scale)) throw new RangeError(`ceLoss: scale must be a finite number, got ${p.scale}`);
    return [
      [p.scale, 'f32'],
      [0, 'u32'],
      [0, 'u32'],
      [0, 'u32'],
    ];
  },
};

/** adamw's uniform: 12 words of hyperparameters and bias corrections, then P. */
export const ADAMW_BLOCK: ParamBlock<AdamwParams> = {
  name: 'adamw',
  hyperWords: 12,
  shapeWords: 1,
  encode(h) {
    if (!Number.isInteger(h.step) || h.step < 1)
      throw new RangeError(`adamw: step must be an integer ≥ 1, got ${h.step}`);
    for (const k of ['lr', 'beta1', 'beta2', 'eps', 'weightDecay', 'maxGradNorm'] as const) {
      if (!Number.isFinite(h[k])) throw new RangeError(`adamw: ${k} must be a finite number, got ${h[k]}`);
    }
    // bias corrections in double precision (as the CPU twin), rounded once to f32
    const bc1 = 1 - Math.pow(h.beta1, h.step);
    const bc2 = 1 - Math.pow(h.beta2, h.step);
    return [
      [h.lr, 'f32'],
      [h.beta1, 'f32'],
      [h.beta2, 'f32'],
      [h.eps, 'f32'],
      [h.weightDecay, 'f32'],
      [h.maxGradNorm, 'f32'],
      [bc1, 'f32'],
      [bc2, 'f32'],
      [h.step, 'u32'],
      [0, 'u32'],
      [0, 'u32'],
      [0, 'u32'],
    ];
  },
};

/** sample_token's uniform: (seed, step, invTemp, topK), then the shape. */
const u32ok = (x: number): boolean => Number.isInteger(x) && x >= 0 && x <= 0xffffffff;

export const SAMPLE_BLOCK: ParamBlock<SampleTokenParams> = {
  name: 'sampleToken',
  hyperWords: 4,
  shapeWords: 3,
  encode(h) {
    for (const k of ['seed', 'step', 'topK'] as const) {
      if (!u32ok(h[k])) throw new RangeError(`sampleToken: ${k} must be an integer in [0, 2^32), got ${h[k]}`);
    }
    if (!(h.invTemp > 0) || !Number.isFinite(h.invTemp))
      throw new RangeError(`sampleToken: invTemp must be a positive number, got ${h.invTemp}`);
    return [
      [h.seed, 'u32'],
      [h.step, 'u32'],
      [h.invTemp, 'f32'],
      [h.topK, 'u32'],
    ];
  },
};

// ─── grad_norm ──────────────────────────────────────────────────────────────────────────────

/**
 * grad_norm's split (shaders/grad_norm.wgsl): G workgroups of WG threads each sum a strided share
 * of the vector, then one workgroup sums the G partials in order. Both are fixed when the op is
 * built, so the summation order (and the bits) depends on P alone.
 */
export interface GradNormOptions {
  /** Threads per workgroup (a power of two; default 256). */
  workgroupSize?: number;
  /** Workgroups of the first stage (default gradNormGroups(P, workgroupSize)). */
  groups?: number;
}

/** Threads per workgroup of grad_norm unless asked otherwise. */
export const GRAD_NORM_WG = 256;

/** Workgroups of grad_norm's first stage unless asked otherwise: 65536 threads at most, enough to stream a few million floats. */
export function gradNormGroups(P: number, workgroupSize = GRAD_NORM_WG): number {
  return Math.min(256, Math.ceil(P / workgroupSize));
}
