// The three timed measurements of `npm run bench -- kernels` (./kernels.ts): every matmul shape
// per variant, one policy-gradient train step per variant, and sampling with and without the KV
// cache; each returns the medians of its runs (timed interleaved, so noise hits all alike).

import type { GpuContext } from '../gpu/device';
import type { MatmulVariant } from '../gpu/ops';
import { readF32, readI32 } from '../gpu/buffers';
import { MatmulCase, matmulFlops, shapeLabel, timeInterleaved } from '../gpu/autotune';
import { median } from '../core/numeric';
import { initParams } from '../model/init';
import { GpuParams } from '../model/gpu-model';
import { GpuSampler } from '../model/gpu-sampler';
import type { ModelMatmul } from './models';
import { NoCacheSampler } from './nocache-sampler';
import { destroyBuffers, SAMPLE_PARAMS, samplingTemplate, setupTrainStep } from './workloads';
import { timedRun, type GpuTimer, type RunTime } from './gpu-timer';
import type { MatmulResult, SamplingResult, TimingStats, TrainStepResult } from './kernels-results';
import type { ModelBench } from './model-bench';
import type { BenchOptions } from './suite';

// ─── helpers ────────────────────────────────────────────────────────────────────────────────

function stats(runs: RunTime[], divide = 1): TimingStats {
  const samplesMs = runs.map((r) => r.wallMs / divide);
  const gpu = runs.map((r) => r.gpuMs).filter((x): x is number => x !== null);
  return {
    medianMs: median(samplesMs),
    minMs: Math.min(...samplesMs),
    samplesMs,
    gpuMedianMs: gpu.length === runs.length ? median(gpu) / divide : null,
  };
}

export function bestOf(ms: Partial<Record<MatmulVariant, number>>): MatmulVariant {
  let best: MatmulVariant | null = null;
  for (const [v, t] of Object.entries(ms) as [MatmulVariant, number][])
    if (best === null || t < (ms[best] ?? Infinity)) best = v;
  if (!best) throw new Error('no variant measured');
  return best;
}

export function ratio(ms: Partial<Record<MatmulVariant, number>>): number | null {
  return ms.naive !== undefined && ms.tuned !== undefined && ms.tuned > 0 ? ms.naive / ms.tuned : null;
}

// ─── the three measurements ─────────────────────────────────────────────────────────────────

export async function benchMatmuls(
  gpu: GpuContext,
  timer: GpuTimer | null,
  shapes: ModelMatmul[],
  variants: MatmulVariant[],
  opts: BenchOptions,
): Promise<MatmulResult[]> {
  const { device } = gpu;
  const results: MatmulResult[] = [];
  for (const s of shapes) {
    const c = new MatmulCase(device, s, variants);
    try {
      // Timing each variant once compiles its pipeline; then repeat small shapes so that a
      // submission lasts ≥ ~10 ms (20 on the full run) and submission overhead stays small.
      await c.calibrate(opts.quick ? 10 : 20);
      const runs = await timeInterleaved(
        variants.map((v) => () => timedRun(device, timer, (enc) => c.encode(enc, v))),
        { warmup: Math.max(0, opts.warmup - 1), reps: opts.reps },
      );
      const flops = matmulFlops(s);
      const per: MatmulResult['variants'] = {};
      const ms: Partial<Record<MatmulVariant, number>> = {};
      variants.forEach((v, i) => {
        const st = stats(runs[i], c.inner);
        per[v] = { ...st, gflops: flops / st.medianMs / 1e6 };
        ms[v] = st.medianMs;
      });
      results.push({
        ...s,
        shape: shapeLabel(s),
        flops,
        inner: c.inner,
        variants: per,
        tunedOverNaive: ratio(ms),
        best: bestOf(ms),
      });
    } finally {
      c.destroy();
    }
  }
  return results;
}

export async function benchTrainStep(
  { gpu, timer, layout, N, T, opts }: ModelBench,
  variants: MatmulVariant[],
  stepFlops: number,
): Promise<TrainStepResult> {
  const { device } = gpu;
  const initial = initParams(layout, 1);
  // One model and one set of plans per variant (the weights change each step; the speed does not).
  const setups = variants.map((variant) => setupTrainStep(device, layout, N, T, variant, initial));
  try {
    const runs = await timeInterleaved(
      setups.map(
        ({ plans }) =>
          () =>
            timedRun(device, timer, (enc) => plans.pgStep.encode(enc, 'pg step')),
      ),
      { warmup: opts.warmup, reps: opts.reps },
    );
    const per: TrainStepResult['variants'] = {};
    const ms: Partial<Record<MatmulVariant, number>> = {};
    variants.forEach((v, i) => {
      const st = stats(runs[i]);
      per[v] = { ...st, matmulGflops: stepFlops / st.medianMs / 1e6 };
      ms[v] = st.medianMs;
    });
    return {
      dispatches: setups[0].plans.pgStep.dispatchCount,
      variants: per,
      matmulFlops: stepFlops,
      tunedOverNaive: ratio(ms),
      best: bestOf(ms),
    };
  } finally {
    for (const setup of setups) setup.destroy();
  }
}

export async function benchSampling(
  { gpu, timer, layout, N, T, opts }: ModelBench,
  variant: MatmulVariant,
): Promise<SamplingResult> {
  const { device } = gpu;
  const model = new GpuParams(device, layout, initParams(layout, 2));
  const withCache = new GpuSampler(device, layout, model, N, T, variant);
  // The same KV-cache sampler block by block, kernel by kernel: what the fused decode_block buys, side by side.
  const unfused = new GpuSampler(device, layout, model, N, T, variant, false);
  const without = new NoCacheSampler(device, layout, model, N, T, variant);
  const template = samplingTemplate(N, T);
  for (const s of [withCache, unfused, without]) {
    s.setTemplate(template);
    s.setParams({ ...SAMPLE_PARAMS });
  }
  try {
    const [cacheRuns, plainRuns, unfusedRuns] = await timeInterleaved(
      [
        () => timedRun(device, timer, (enc) => withCache.encode(enc)),
        () => timedRun(device, timer, (enc) => without.encode(enc)),
        () => timedRun(device, timer, (enc) => unfused.encode(enc)),
      ],
      { warmup: opts.warmup, reps: opts.reps },
    );
    // Every run re-samples the same positions with the same key, so both hold their final tokens.
    const [ta, tb, la, lb] = await Promise.all([
      readI32(device, withCache.tokens, N * T),
      readI32(device, without.tokens, N * T),
      readF32(device, withCache.logp, N * T),
      readF32(device, without.logp, N * T),
    ]);
    let agree = 0;
    let maxDiff = 0;
    for (let n = 0; n < N; n++) {
      for (let t = 1; t < T; t++) {
        const i = n * T + t;
        if (ta[i] === tb[i]) {
          agree++;
          maxDiff = Math.max(maxDiff, Math.abs(la[i] - lb[i]));
        }
      }
    }
    const tokens = N * (T - 1);
    const kv = stats(cacheRuns);
    const nc = stats(plainRuns);
    const uf = stats(unfusedRuns);
    return {
      variant,
      N,
      T,
      tokens,
      kvCache: { ...kv, tokensPerS: tokens / (kv.medianMs / 1000), dispatchesPerToken: withCache.dispatchesPerToken },
      unfused: { ...uf, tokensPerS: tokens / (uf.medianMs / 1000), dispatchesPerToken: unfused.dispatchesPerToken },
      fusedSpeedup: uf.medianMs / kv.medianMs,
      noCache: { ...nc, tokensPerS: tokens / (nc.medianMs / 1000) },
      speedup: nc.medianMs / kv.medianMs,
      tokensAgree: agree / tokens,
      maxAbsLogpDiff: maxDiff,
    };
  } finally {
    model.destroy();
    destroyBuffers(withCache, unfused, without);
  }
}
