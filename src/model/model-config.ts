// Model configuration: a GPT-2 (pre-LayerNorm blocks, learned positions, GELU, LM head tied to
// wte; src/reference/model.ts is the whole model on the CPU) sized for a browser tab.
//
// The defaults are a ~30K-parameter policy: big enough to learn S3 chains with a scratchpad,
// small enough that a step takes milliseconds on a real GPU and seconds on SwiftShader.

export interface ModelConfig {
  /** V: vocabulary size (task tokens + PAD/BOS/SEP/EOS). */
  vocabSize: number;
  /** T_max: learned position embeddings, the longest prompt+completion. */
  nPositions: number;
  /** C: residual width. Must be divisible by nHead. */
  nEmbd: number;
  /** L: transformer blocks. */
  nLayer: number;
  /** NH: attention heads; head_dim = C / NH. */
  nHead: number;
  /**
   * Std of the normal init (HF `initializer_range`); residual projections get
   * initStd / sqrt(2·nLayer). Absent: GPT-2's 0.02.
   */
  initStd?: number;
}

/** GPT-2's initializer_range. */
export const DEFAULT_INIT_STD = 0.02;

export const DEFAULT_MODEL: ModelConfig = {
  vocabSize: 16,
  nPositions: 32,
  nEmbd: 32,
  nLayer: 2,
  nHead: 2,
};

export class ModelConfigError extends Error {}

/**
 * At most this many parameters (a 1 GiB f32 parameter buffer; the GPU holds five such buffers
 * and more). The per-field limits alone allow ≈ 13 billion.
 */
export const MAX_PARAMS = 2 ** 28;

/** Parameters of a GPT-2 with this config (the tied head counted once, no alignment padding). */
export function paramCount(cfg: Pick<ModelConfig, 'vocabSize' | 'nPositions' | 'nEmbd' | 'nLayer'>): number {
  const { vocabSize: V, nPositions: T, nEmbd: C, nLayer: L } = cfg;
  // Per block: c_attn 3C², attn c_proj C², mlp 8C² weights; 13C of biases and LayerNorm.
  return V * C + T * C + L * (12 * C * C + 13 * C) + 2 * C;
}

/** The largest value of one size field that keeps the model within MAX_PARAMS (the others fixed), or 0. */
function largestFitting(
  cfg: ModelConfig,
  key: 'nLayer' | 'nEmbd' | 'vocabSize' | 'nPositions',
  lo: number,
  step = 1,
): number {
  for (let v = Math.floor(cfg[key] / step) * step; v >= lo; v -= step) {
    if (paramCount({ ...cfg, [key]: v }) <= MAX_PARAMS) return v;
  }
  return 0;
}

const LIMITS: Record<Exclude<keyof ModelConfig, 'initStd'>, [number, number]> = {
  vocabSize: [2, 65536],
  nPositions: [2, 4096],
  nEmbd: [4, 4096],
  nLayer: [1, 64],
  nHead: [1, 64],
};

/** Throws ModelConfigError naming the first bad field and its allowed range. */
export function validateModelConfig(cfg: ModelConfig): ModelConfig {
  for (const key of Object.keys(LIMITS) as (keyof typeof LIMITS)[]) {
    const v = cfg[key];
    const [lo, hi] = LIMITS[key];
    if (!Number.isInteger(v) || v < lo || v > hi) {
      throw new ModelConfigError(`model.${key} must be an integer in [${lo}, ${hi}], got ${String(v)}`);
    }
  }
  if (cfg.nEmbd % cfg.nHead !== 0) {
    throw new ModelConfigError(`model.nEmbd (${cfg.nEmbd}) must be divisible by model.nHead (${cfg.nHead})`);
  }
  if (cfg.initStd !== undefined && !(cfg.initStd > 0 && cfg.initStd <= 1)) {
    throw new ModelConfigError(`model.initStd must be a number in (0, 1], got ${String(cfg.initStd)}`);
  }
  // The tuned GPU kernels read 4 channels at a time.
  if (cfg.nEmbd % 4 !== 0) {
    throw new ModelConfigError(`model.nEmbd must be a multiple of 4, got ${cfg.nEmbd}`);
  }
  const count = paramCount(cfg);
  if (count > MAX_PARAMS) {
    const embdStep = (4 * cfg.nHead) / gcd(4, cfg.nHead);
    const fits = [
      ['model.nLayer', largestFitting(cfg, 'nLayer', 1)],
      ['model.nEmbd', largestFitting(cfg, 'nEmbd', embdStep, embdStep)],
    ]
      .filter(([, v]) => (v as number) > 0)
      .map(([k, v]) => `${k} ≤ ${v}`);
    throw new ModelConfigError(
      `the model would have ${count.toLocaleString('en-US')} parameters (model.nEmbd ${cfg.nEmbd}, model.nLayer ${cfg.nLayer}, ` +
        `vocab ${cfg.vocabSize}, positions ${cfg.nPositions}); at most ${MAX_PARAMS.toLocaleString('en-US')} are allowed` +
        (fits.length ? ` (with the other sizes as they are: ${fits.join(' or ')})` : ''),
    );
  }
  return cfg;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

export function headDim(cfg: ModelConfig): number {
  return cfg.nEmbd / cfg.nHead;
}
