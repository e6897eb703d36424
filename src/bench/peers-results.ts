// What `npm run bench -- peers` reports, as the JSON it writes: per model the engine's and
// TF.js's train-step and sampling times, the check that both ran the same workload, and the ratios.

import type { MatmulVariant } from '../gpu/ops';

export interface Times {
  medianMs: number;
  minMs: number;
  samplesMs: number[];
}

export interface SideResult {
  trainStep: Times;
  sampling: Times & { tokensPerS: number };
}

export interface SameWorkloadCheck {
  /** max |logp_engine − logp_tfjs| over the trained rows, same weights and batch. */
  maxAbsLogpDiff: number;
  /** Gradient norm (before clipping) of the first step on each side. */
  gradNormEngine: number;
  gradNormTfjs: number;
  /** |engine − TF.js| / engine. */
  gradNormRelDiff: number;
}

export interface PeerModelResult {
  name: string;
  params: number;
  N: number;
  T: number;
  engine: SideResult & { variant: MatmulVariant };
  tfjs: SideResult | { error: string };
  check: SameWorkloadCheck | null;
  /** TF.js train-step ms over the engine's (> 1: the engine is faster). */
  trainTfjsOverEngine: number | null;
  /** The engine's sampling tokens/s over TF.js's. */
  samplingEngineOverTfjs: number | null;
}

export interface PeersResult {
  N: number;
  T: number;
  reps: number;
  warmup: number;
  quick: boolean;
  tfjs: { version: string; backend: string; adapter: string; maxStorageBuffersPerStage: number } | { error: string };
  models: PeerModelResult[];
}
