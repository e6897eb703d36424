// Model configuration: a GPT-2 (DESIGN.md "Model") sized for a browser tab.
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

export const LAYER_NORM_EPS = 1e-5;

export const DEFAULT_MODEL: ModelConfig = {
  vocabSize: 16,
  nPositions: 32,
  nEmbd: 32,
  nLayer: 2,
  nHead: 2,
};

export class ModelConfigError extends Error {}

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
    throw new ModelConfigError(
      `model.nEmbd (${cfg.nEmbd}) must be divisible by model.nHead (${cfg.nHead})`,
    );
  }
  if (cfg.initStd !== undefined && !(cfg.initStd > 0 && cfg.initStd <= 1)) {
    throw new ModelConfigError(`model.initStd must be a number in (0, 1], got ${String(cfg.initStd)}`);
  }
  // The tuned GPU kernels read 4 channels at a time.
  if (cfg.nEmbd % 4 !== 0) {
    throw new ModelConfigError(`model.nEmbd must be a multiple of 4, got ${cfg.nEmbd}`);
  }
  return cfg;
}

export function headDim(cfg: ModelConfig): number {
  return cfg.nEmbd / cfg.nHead;
}
