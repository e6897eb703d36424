// The three model sizes the kernel benchmark measures, and every matmul call the model makes
// (src/model/gpu-model.ts forward/backward, src/model/gpu-sampler.ts decoding), with the
// exact shapes and flags those plans pass to matmulOp.

import type { ModelConfig } from '../model/model-config';
import type { ParamLayout } from '../model/layout';
import type { MatmulShape } from '../gpu/autotune';

export interface BenchModel {
  name: string;
  config: ModelConfig;
}

/**
 * ≈30K, ≈200K and ≈1M parameters (exact counts: `countParams`): 28,544, 206,208 and
 * 1,003,904. Vocabulary and positions are those of the algorithmic tasks (V = 64, Tmax = 32).
 */
export const BENCH_MODELS: readonly BenchModel[] = [
  { name: '30K', config: { vocabSize: 64, nPositions: 32, nEmbd: 32, nLayer: 2, nHead: 2 } },
  { name: '200K', config: { vocabSize: 64, nPositions: 32, nEmbd: 64, nLayer: 4, nHead: 4 } },
  { name: '1M', config: { vocabSize: 64, nPositions: 32, nEmbd: 128, nLayer: 5, nHead: 4 } },
];

/** Trainable parameters (sum of tensor sizes; the buffer adds alignment padding: layout.numParams). */
export function countParams(layout: ParamLayout): number {
  return layout.slots.reduce((s, t) => s + t.size, 0);
}

export type MatmulPhase = 'forward' | 'backward' | 'decode';

export interface ModelMatmul extends MatmulShape {
  label: string;
  phase: MatmulPhase;
  /** Calls per training step (forward + backward), or per decoded token for 'decode'. */
  calls: number;
}

/**
 * Every matmul of a training pass over N sequences × T positions (R = N·T rows) and of one
 * decoding step over N sequences, as gpu-model.ts and gpu-sampler.ts call matmulOp.
 */
export function modelMatmuls(cfg: ModelConfig, N: number, T: number): ModelMatmul[] {
  const { nEmbd: C, vocabSize: V, nLayer: L } = cfg;
  const R = N * T;
  const mm = (
    phase: MatmulPhase,
    label: string,
    calls: number,
    M: number,
    K: number,
    Nc: number,
    transA: boolean,
    transB: boolean,
    accumulate: boolean,
    bias: boolean,
  ): ModelMatmul => ({ phase, label, calls, M, K, N: Nc, transA, transB, accumulate, bias });
  return [
    // forward (teacher forced): linear layers in HF Conv1D layout, tied head reads wte [V,C]
    mm('forward', 'fwd qkv', L, R, C, 3 * C, false, false, false, true),
    mm('forward', 'fwd attproj', L, R, C, C, false, false, false, true),
    mm('forward', 'fwd fc', L, R, C, 4 * C, false, false, false, true),
    mm('forward', 'fwd fcproj', L, R, 4 * C, C, false, false, false, true),
    mm('forward', 'fwd lm head', 1, R, C, V, false, true, false, false),
    // backward: input grads dx = dout·Wᵀ, weight grads dW += xᵀ·dout (a linear layer's two in one
    // linear_backward dispatch on the GPU; the head's as two matmuls)
    mm('backward', 'bwd lm head dx', 1, R, V, C, false, false, false, false),
    mm('backward', 'bwd lm head dW', 1, V, R, C, true, false, true, false),
    mm('backward', 'bwd fcproj dW', L, 4 * C, R, C, true, false, true, false),
    mm('backward', 'bwd fcproj dx', L, R, C, 4 * C, false, true, false, false),
    mm('backward', 'bwd fc dW', L, C, R, 4 * C, true, false, true, false),
    mm('backward', 'bwd fc dx', L, R, 4 * C, C, false, true, false, false),
    mm('backward', 'bwd attproj dW', L, C, R, C, true, false, true, false),
    mm('backward', 'bwd attproj dx', L, R, C, C, false, true, false, false),
    mm('backward', 'bwd qkv dW', L, C, R, 3 * C, true, false, true, false),
    mm('backward', 'bwd qkv dx', L, R, 3 * C, C, false, true, false, false),
    // decoding (KV-cache sampler): one row per sequence
    mm('decode', 'dec qkv', L, N, C, 3 * C, false, false, false, true),
    mm('decode', 'dec attproj', L, N, C, C, false, false, false, true),
    mm('decode', 'dec fc', L, N, C, 4 * C, false, false, false, true),
    mm('decode', 'dec fcproj', L, N, 4 * C, C, false, false, false, true),
    mm('decode', 'dec lm head', 1, N, C, V, false, true, false, false),
  ];
}
