// What `npm run bench -- kernels` reports, as the JSON it writes: timings per model of the
// matmuls, a training step and sampling.

import type { ReductionsResult } from './kernels-reductions';
import type { MatmulVariant } from '../gpu/ops';
import type { ModelConfig } from '../model/model-config';
import type { ModelMatmul } from './models';
import type { ProfileResult } from './kernels-profile';
import type { StepCounts } from './step-counts';

// ─── result shapes (the JSON) ───────────────────────────────────────────────────────────────

export interface TimingStats {
  /** Median wall ms (encode + submit + onSubmittedWorkDone). */
  medianMs: number;
  /** Fastest wall ms (less sensitive to other processes on a shared machine). */
  minMs: number;
  samplesMs: number[];
  /** Median GPU ms between timestamps, where the adapter has timestamp-query. */
  gpuMedianMs: number | null;
}

export interface MatmulResult extends ModelMatmul {
  shape: string;
  flops: number;
  /** Calls per timed submission (small shapes are repeated; times are per call). */
  inner: number;
  variants: Partial<Record<MatmulVariant, TimingStats & { gflops: number }>>;
  /** GFLOP/s of tuned over naive (= naive ms / tuned ms); > 1: tuned is faster. */
  tunedOverNaive: number | null;
  best: MatmulVariant;
}

export interface TrainStepResult {
  /** Kernel dispatches in one pgStep. */
  dispatches: number;
  variants: Partial<Record<MatmulVariant, TimingStats & { matmulGflops: number }>>;
  /** Matmul flops of one step (forward + backward), for the achieved-GFLOP/s column. */
  matmulFlops: number;
  tunedOverNaive: number | null;
  best: MatmulVariant;
}

export interface SamplingResult {
  variant: MatmulVariant;
  N: number;
  T: number;
  /** Tokens per run: N·(T−1) decoding positions (position 0 is the fixed BOS). */
  tokens: number;
  kvCache: TimingStats & { tokensPerS: number; dispatchesPerToken: number };
  /** The same KV-cache sampler with each block kernel by kernel (no decode_block), timed interleaved with the others. */
  unfused: TimingStats & { tokensPerS: number; dispatchesPerToken: number };
  /** unfused median ms over kvCache's (> 1: the fused decode is faster). */
  fusedSpeedup: number;
  noCache: TimingStats & { tokensPerS: number };
  /** kvCache tokens/s over noCache tokens/s. */
  speedup: number;
  /** Fraction of sampled tokens on which both samplers agree (same seed; ≈1, rounding aside). */
  tokensAgree: number;
  maxAbsLogpDiff: number;
}

export interface MatmulSum {
  ms: Partial<Record<MatmulVariant, number>>;
  tunedOverNaive: number | null;
  best: MatmulVariant;
}

export interface ModelResult {
  name: string;
  config: ModelConfig;
  params: number;
  /** Floats in the parameter buffer (with alignment padding). */
  bufferFloats: number;
  N: number;
  T: number;
  matmul: MatmulResult[] | null;
  /** Σ calls × median over the train-step shapes, per variant (ms), and the ratio tuned/naive of it. */
  matmulStep: MatmulSum | null;
  /** The same over the decoding shapes (one decoded token); picks the sampling variant. */
  matmulDecode: MatmulSum | null;
  trainStep: TrainStepResult | null;
  sampling: SamplingResult | null;
  /** Where the GPU time of a train step and of a sampling run goes (--profile). */
  profile: ProfileResult | null;
  /** The reduction kernels with subgroups and with the shared-memory tree, side by side (./kernels-reductions.ts). */
  reductions: ReductionsResult | null;
  /** What one RL step asks of the device: dispatches by phase, passes, submits, readbacks, bytes written. */
  counts: StepCounts | null;
}

export interface KernelsResult {
  N: number;
  T: number;
  reps: number;
  warmup: number;
  quick: boolean;
  variants: MatmulVariant[];
  autotune: { variant: MatmulVariant; timingsMs: Record<MatmulVariant, number>; tookMs: number };
  models: ModelResult[];
}
