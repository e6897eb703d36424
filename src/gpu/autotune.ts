// Matmul variant choice on the current adapter: time the variants side by side on shapes the
// model uses and keep the fastest (src/gpu/ops.ts keeps a naive and tuned matmul, plus a
// shared-memory tiled one; which wins depends on the adapter: barriers are expensive on
// SwiftShader, global loads on real GPUs). The trainer calls `chooseMatmulVariant` once at
// start-up and passes the variant to its plans; `npm run bench -- kernels` reuses the timing
// helpers here for every shape of three model sizes.
//
// Timing is wall-clock: encode, submit, await queue.onSubmittedWorkDone(). Variants are
// interleaved (A B C A B C …) so that machine noise (other processes, frequency changes) hits
// them equally, and medians are compared. No model knowledge here (src/gpu).

import { MATMUL_VARIANTS, matmulOp, type MatmulVariant } from './ops';
import { createStorage, writeArray } from './buffers';
import type { Dispatch } from './dispatch';
import { matmulShapeLabel } from './kernel-work';
import { median } from '../core/numeric';

/** One matmul call: out[M,N] (= or +=) op(a)[M,K]·op(b)[K,N] (+ bias[N]), as matmulOp takes it. */
export interface MatmulShape {
  M: number;
  K: number;
  N: number;
  transA: boolean;
  transB: boolean;
  accumulate: boolean;
  bias: boolean;
  /** Where the model uses it, e.g. "fwd fc". */
  label?: string;
}

/** 2·M·K·N floating-point operations. */
export function matmulFlops(s: MatmulShape): number {
  return 2 * s.M * s.K * s.N;
}

/** "M×K×N" plus trans/accumulate flags, e.g. "512×32×128 Aᵀ +=" (the shape a profile lists). */
export function shapeLabel(s: MatmulShape): string {
  return matmulShapeLabel(s);
}

/** Wall-clock ms of one submission: encode, submit, wait for the queue to drain. */
export async function timeSubmission(device: GPUDevice, encode: (enc: GPUCommandEncoder) => void): Promise<number> {
  const t0 = performance.now();
  const enc = device.createCommandEncoder();
  encode(enc);
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
  return performance.now() - t0;
}

/**
 * Runs `warmup` untimed rounds, then `reps` rounds of every case in turn (A B C A B C …).
 * Returns samples[case][rep] (whatever each run reports, usually wall ms).
 */
export async function timeInterleaved<S>(
  runs: ReadonlyArray<() => Promise<S>>,
  opts: { warmup: number; reps: number },
): Promise<S[][]> {
  for (let w = 0; w < opts.warmup; w++) for (const run of runs) await run();
  const samples: S[][] = runs.map(() => []);
  for (let r = 0; r < opts.reps; r++) {
    for (let i = 0; i < runs.length; i++) samples[i].push(await runs[i]());
  }
  return samples;
}

/** Deterministic values in [−0.5, 0.5) (a small LCG; the values do not matter, only that they are finite). */
function fill(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let x = (seed * 2654435761) >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x / 4294967296 - 0.5;
  }
  return out;
}

/** Buffers for one shape and a dispatch per variant, encoded `inner` times per submission. */
export class MatmulCase {
  readonly dispatches: Record<MatmulVariant, Dispatch[]>;
  private readonly buffers: GPUBuffer[];
  /** Dispatches per submission (small shapes repeat so that submission overhead does not dominate). */
  inner = 1;

  constructor(
    readonly device: GPUDevice,
    readonly shape: MatmulShape,
    readonly variants: readonly MatmulVariant[] = MATMUL_VARIANTS,
  ) {
    const { M, K, N } = shape;
    const f = (n: number, label: string, seed: number) => {
      const b = createStorage(device, n * 4, label);
      writeArray(device, b, fill(n, seed));
      return b;
    };
    const out = f(M * N, 'bench out', 1);
    const a = f(M * K, 'bench a', 2);
    const b = f(K * N, 'bench b', 3);
    const bias = shape.bias ? f(N, 'bench bias', 4) : null;
    this.buffers = [out, a, b, ...(bias ? [bias] : [])];
    const d = {} as Record<MatmulVariant, Dispatch[]>;
    for (const v of variants) {
      d[v] = matmulOp(device, out, a, b, bias, shape, v);
    }
    this.dispatches = d;
  }

  /** Record `inner` calls of `variant` into one compute pass. */
  encode(enc: GPUCommandEncoder, variant: MatmulVariant, timestampWrites?: GPUComputePassTimestampWrites): void {
    const pass = enc.beginComputePass({ label: `matmul ${variant}`, timestampWrites });
    for (let i = 0; i < this.inner; i++) {
      for (const d of this.dispatches[variant]) {
        pass.setPipeline(d.pipeline);
        pass.setBindGroup(0, d.bindGroup);
        pass.dispatchWorkgroups(d.workgroups[0], d.workgroups[1], d.workgroups[2]);
      }
    }
    pass.end();
  }

  /** Wall ms of one call (one submission of `inner` calls, divided by `inner`). */
  async time(variant: MatmulVariant): Promise<number> {
    return (await timeSubmission(this.device, (enc) => this.encode(enc, variant))) / this.inner;
  }

  /**
   * Times each variant once (this compiles the pipelines and warms caches) and sets `inner`
   * so that a submission of the fastest variant lasts about `targetMs` (at most `maxInner`).
   */
  async calibrate(targetMs: number, maxInner = 64): Promise<void> {
    this.inner = 1;
    let fastest = Infinity;
    for (const v of this.variants) fastest = Math.min(fastest, await this.time(v));
    this.inner = Math.max(1, Math.min(maxInner, Math.round(targetMs / Math.max(fastest, 1e-3))));
  }

  destroy(): void {
    for (const b of this.buffers) b.destroy();
  }
}

export interface MatmulTiming {
  shape: MatmulShape;
  /** Dispatches per timed submission. */
  inner: number;
  /** Wall ms per call, one per rep, per variant (measured interleaved). */
  samplesMs: Record<MatmulVariant, number[]>;
  medianMs: Record<MatmulVariant, number>;
}

export interface MatmulTimingOptions {
  variants?: readonly MatmulVariant[];
  reps?: number;
  warmup?: number;
  /** Wall ms a submission should last (small shapes repeat the dispatch to reach it). */
  targetMs?: number;
}

/** Times every variant on one shape, interleaved. */
export async function timeMatmulShape(
  device: GPUDevice,
  shape: MatmulShape,
  opts: MatmulTimingOptions = {},
): Promise<MatmulTiming> {
  const variants = opts.variants ?? MATMUL_VARIANTS;
  const c = new MatmulCase(device, shape, variants);
  try {
    await c.calibrate(opts.targetMs ?? 10);
    const samples = await timeInterleaved(
      variants.map((v) => () => c.time(v)),
      { warmup: opts.warmup ?? 0, reps: opts.reps ?? 5 },
    );
    const samplesMs = {} as Record<MatmulVariant, number[]>;
    const medianMs = {} as Record<MatmulVariant, number>;
    variants.forEach((v, i) => {
      samplesMs[v] = samples[i];
      medianMs[v] = median(samples[i]);
    });
    return { shape, inner: c.inner, samplesMs, medianMs };
  } finally {
    c.destroy();
  }
}

/**
 * Representative shapes of the playground's default model (C = 32) on a minibatch of
 * R = N·T = 256 rows: the MLP's forward projection, and the weight gradient of the same layer
 * (a transposed read, the other access pattern of training).
 */
export const AUTOTUNE_SHAPES: readonly MatmulShape[] = [
  { M: 256, K: 32, N: 128, transA: false, transB: false, accumulate: false, bias: true, label: 'fwd fc' },
  { M: 32, K: 256, N: 128, transA: true, transB: false, accumulate: true, bias: false, label: 'dW fc' },
];

export interface MatmulTuning {
  /** The fastest variant (smallest summed median) on this device. */
  variant: MatmulVariant;
  /** Median ms per call, summed over the shapes, per variant. */
  timings: Record<MatmulVariant, number>;
  /** The per-shape measurements behind `timings`. */
  shapes: MatmulTiming[];
  /** Wall ms the whole choice took (pipeline creation included). */
  tookMs: number;
}

export interface AutotuneOptions extends MatmulTimingOptions {
  /** Shapes to time (default AUTOTUNE_SHAPES). */
  shapes?: readonly MatmulShape[];
  /** Measure again even if this device has a cached choice (the new one replaces it). */
  force?: boolean;
}

const tunings = new WeakMap<GPUDevice, Promise<MatmulTuning>>();

/**
 * The fastest matmul variant on `device`, measured once per device and cached (later calls,
 * whatever their options, get the first result unless `force`). With the defaults (two small
 * shapes, 3 interleaved reps, ~5 ms submissions) it takes ~0.75 s on an idle 2-core
 * SwiftShader, two thirds of it creating the six matmul pipelines, which have the keys the
 * training plans use and so are reused by them (pipeline cache); far less on a GPU.
 */
export function chooseMatmulVariant(device: GPUDevice, opts: AutotuneOptions = {}): Promise<MatmulTuning> {
  const cached = tunings.get(device);
  if (cached && !opts.force) return cached;
  const p = measure(device, opts);
  tunings.set(device, p);
  // A failed measurement is not cached: the next call tries again.
  p.catch(() => {
    if (tunings.get(device) === p) tunings.delete(device);
  });
  return p;
}

/** The cached choice for `device`, if `chooseMatmulVariant` has finished on it. */
export function cachedMatmulVariant(device: GPUDevice): Promise<MatmulTuning> | undefined {
  return tunings.get(device);
}

async function measure(device: GPUDevice, opts: AutotuneOptions): Promise<MatmulTuning> {
  const t0 = performance.now();
  const variants = opts.variants ?? MATMUL_VARIANTS;
  if (variants.length === 0) throw new RangeError('chooseMatmulVariant: no variants to choose from');
  const shapes = opts.shapes ?? AUTOTUNE_SHAPES;
  const timed: MatmulTiming[] = [];
  for (const s of shapes) {
    timed.push(
      await timeMatmulShape(device, s, {
        variants,
        reps: opts.reps ?? 3,
        warmup: opts.warmup ?? 0,
        targetMs: opts.targetMs ?? 5,
      }),
    );
  }
  const timings = {} as Record<MatmulVariant, number>;
  for (const v of variants) timings[v] = timed.reduce((sum, t) => sum + t.medianMs[v], 0);
  let best = variants[0];
  for (const v of variants) if (timings[v] < timings[best]) best = v;
  return { variant: best, timings, shapes: timed, tookMs: performance.now() - t0 };
}
