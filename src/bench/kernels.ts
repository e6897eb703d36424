// `npm run bench -- kernels`: what the engine achieves on this adapter, for three model sizes
// (≈30K, ≈200K, ≈1M parameters; src/bench/models.ts) on an RL-sized batch (N sequences × T
// positions; default 64 × 32, --quick 8 × 16 for software adapters, where the full batch
// would take many minutes):
//
//   1. every matmul shape the model uses (forward, backward input and weight grads, decoding),
//      each for every variant (naive / tuned / tiled) side by side: median ms and GFLOP/s
//      (2·M·K·N flops per call), and the tuned/naive speed ratio;
//   2. one policy-gradient train step (forward + loss + backward + grad norm + AdamW, the
//      trainer's pgStep plan), median ms per variant;
//   3. sampling N×T tokens with GpuSampler (KV cache) and without a cache (NoCacheSampler: a
//      full teacher-forced forward per position), tokens/s and the ratio, with the variant
//      whose train step was fastest;
//   4. with --profile (or --parts profile), where the GPU time of one train step and of one
//      sampling run goes: every dispatch timed with timestamp queries, grouped by kernel, with
//      its share and achieved GFLOP/s or GB/s (./kernels-profile.ts).
//
// Timing: wall-clock around queue.onSubmittedWorkDone() (encode + submit + wait), after
// warm-up runs, median over --reps; variants (and the two samplers) run interleaved
// (A B C A B C …) so machine noise hits them equally. With 'timestamp-query' the GPU time
// between two timestamps around the work is reported too (wall time stays the primary number).

import type { GpuContext } from '../gpu/device';
import { MATMUL_VARIANTS, type MatmulVariant } from '../gpu/ops';
import { readF32, readI32 } from '../gpu/buffers';
import {
  chooseMatmulVariant,
  MatmulCase,
  matmulFlops,
  shapeLabel,
  timeInterleaved,
  type MatmulTuning,
} from '../gpu/autotune';
import { median } from '../core/stats';
import { buildLayout, type ParamLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuParams } from '../model/gpu-model';
import { GpuSampler } from '../model/gpu-sampler';
import { CliError } from '../core/flags';
import { BENCH_MODELS, countParams, modelMatmuls, type BenchModel, type ModelMatmul } from './models';
import { NoCacheSampler } from './nocache-sampler';
import { destroyBuffers, SAMPLE_PARAMS, samplingTemplate, setupTrainStep } from './workloads';
import { GpuTimer, timedRun, type RunTime } from './gpu-timer';
import { formatNumber, sig3 } from './table';
import type { BenchOptions, BenchSuite } from './suite';
import { DispatchProfiler } from './dispatch-profiler';
import { profileReport, profileSampling, profileTrainStep } from './kernels-profile';
import { sharesMarkdown } from './profile';
import { countsMarkdown, markdownSummary, matmulTable, summaryTable } from './kernels-report';
import { countRlStep } from './step-counts';
import { countGpuCalls } from '../gpu/call-counter';
import type {
  KernelsResult,
  MatmulResult,
  ModelResult,
  SamplingResult,
  TimingStats,
  TrainStepResult,
} from './kernels-results';

export type {
  KernelsResult,
  MatmulResult,
  MatmulSum,
  ModelResult,
  SamplingResult,
  TimingStats,
  TrainStepResult,
} from './kernels-results';
export { markdownSummary } from './kernels-report';

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

function bestOf(ms: Partial<Record<MatmulVariant, number>>): MatmulVariant {
  let best: MatmulVariant | null = null;
  for (const [v, t] of Object.entries(ms) as [MatmulVariant, number][])
    if (best === null || t < (ms[best] ?? Infinity)) best = v;
  if (!best) throw new Error('no variant measured');
  return best;
}

function ratio(ms: Partial<Record<MatmulVariant, number>>): number | null {
  return ms.naive !== undefined && ms.tuned !== undefined && ms.tuned > 0 ? ms.naive / ms.tuned : null;
}

function listFlag<T extends string>(raw: unknown, allowed: readonly T[], name: string): T[] | null {
  if (raw === undefined) return null;
  const items = String(raw)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const it of items) {
    if (!(allowed as readonly string[]).includes(it))
      throw new CliError(`--${name}: unknown value "${it}"; allowed: ${allowed.join(', ')}`);
  }
  if (items.length === 0) throw new CliError(`--${name} needs at least one of ${allowed.join(', ')}`);
  return items as T[];
}

function intOpt(raw: unknown, def: number, name: string, min: number, max: number): number {
  if (raw === undefined) return def;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max)
    throw new CliError(`--${name} must be an integer in [${min}, ${max}], got "${String(raw)}"`);
  return v;
}

// ─── the three measurements ─────────────────────────────────────────────────────────────────

async function benchMatmuls(
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

async function benchTrainStep(
  gpu: GpuContext,
  timer: GpuTimer | null,
  layout: ParamLayout,
  N: number,
  T: number,
  variants: MatmulVariant[],
  stepFlops: number,
  opts: BenchOptions,
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

async function benchSampling(
  gpu: GpuContext,
  timer: GpuTimer | null,
  layout: ParamLayout,
  N: number,
  T: number,
  variant: MatmulVariant,
  opts: BenchOptions,
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

// ─── the suite ──────────────────────────────────────────────────────────────────────────────

const PARTS = ['matmul', 'train', 'sample', 'counts', 'profile'] as const;
type Part = (typeof PARTS)[number];
/** What runs without --parts: everything but the profile, which --profile adds. */
const DEFAULT_PARTS: readonly Part[] = ['matmul', 'train', 'sample', 'counts'];

async function run(gpu: GpuContext, opts: BenchOptions): Promise<KernelsResult> {
  const { out, progress } = opts;
  const N = intOpt(opts.flags.batch, opts.quick ? 8 : 64, 'batch', 1, 4096);
  const T = intOpt(opts.flags.time, opts.quick ? 16 : 32, 'time', 2, 4096);
  const names = BENCH_MODELS.map((m) => m.name);
  const picked = listFlag(opts.flags.models, names, 'models');
  const models: BenchModel[] = picked ? BENCH_MODELS.filter((m) => picked.includes(m.name)) : [...BENCH_MODELS];
  const variants = listFlag(opts.flags.variants, MATMUL_VARIANTS, 'variants') ?? [...MATMUL_VARIANTS];
  const parts = new Set<Part>(listFlag(opts.flags.parts, PARTS, 'parts') ?? DEFAULT_PARTS);
  if (opts.flags.profile === true) parts.add('profile');
  const profiler = parts.has('profile') ? DispatchProfiler.create(gpu) : null;
  if (parts.has('profile') && !profiler) {
    out(
      `profile: this adapter has no 'timestamp-query' feature, so there are no per-dispatch GPU times (the other parts run)`,
    );
  }
  for (const m of models) {
    if (T > m.config.nPositions)
      throw new CliError(`--time ${T} exceeds model ${m.name}'s nPositions (${m.config.nPositions})`);
  }
  const timer = GpuTimer.create(gpu);
  // Before anything is built: readbacks are counted on buffers created after this.
  countGpuCalls(gpu.device);
  // The counts come with the train and sample parts (they cost one RL step per model).
  if (parts.has('train') || parts.has('sample')) parts.add('counts');

  progress('autotune: timing the matmul variants on two small shapes …');
  const tuning: MatmulTuning = await chooseMatmulVariant(gpu.device);
  out(
    `autotune (chooseMatmulVariant, ${tuning.tookMs.toFixed(0)} ms): ${tuning.variant}  [` +
      MATMUL_VARIANTS.map((v) => `${v} ${formatNumber(tuning.timings[v], 3)} ms`).join(', ') +
      ']',
  );
  out(
    `batch: N = ${N} sequences × T = ${T} positions (R = ${N * T} rows); ${opts.reps} reps, median wall ms` +
      `${timer ? ' (GPU timestamps in the JSON)' : ''}`,
  );

  const results: ModelResult[] = [];
  for (const bm of models) {
    const layout = buildLayout(bm.config);
    const params = countParams(layout);
    const c = bm.config;
    out('');
    out(
      `── model ${bm.name}: ${params.toLocaleString('en-US')} parameters (V ${c.vocabSize}, Tmax ${c.nPositions}, C ${c.nEmbd}, L ${c.nLayer}, NH ${c.nHead})`,
    );
    const shapes = modelMatmuls(c, N, T);
    const trainShapes = shapes.filter((s) => s.phase !== 'decode');
    const stepFlops = trainShapes.reduce((s, m) => s + m.calls * matmulFlops(m), 0);
    const res: ModelResult = {
      name: bm.name,
      config: c,
      params,
      bufferFloats: layout.numParams,
      N,
      T,
      matmul: null,
      matmulStep: null,
      matmulDecode: null,
      trainStep: null,
      sampling: null,
      profile: null,
      counts: null,
    };
    if (parts.has('matmul')) {
      progress(`${bm.name}: ${shapes.length} matmul shapes × ${variants.length} variants …`);
      res.matmul = await benchMatmuls(gpu, timer, shapes, variants, opts);
      const ms: Partial<Record<MatmulVariant, number>> = {};
      for (const v of variants) {
        ms[v] = res.matmul
          .filter((r) => r.phase !== 'decode')
          .reduce((s, r) => s + r.calls * (r.variants[v]?.medianMs ?? NaN), 0);
      }
      res.matmulStep = { ms, tunedOverNaive: ratio(ms), best: bestOf(ms) };
      const dec: Partial<Record<MatmulVariant, number>> = {};
      for (const v of variants) {
        dec[v] = res.matmul
          .filter((r) => r.phase === 'decode')
          .reduce((s, r) => s + r.calls * (r.variants[v]?.medianMs ?? NaN), 0);
      }
      res.matmulDecode = { ms: dec, tunedOverNaive: ratio(dec), best: bestOf(dec) };
      out(matmulTable(res, variants));
      out(
        `matmul time of one train step (Σ calls × median): ` +
          variants.map((v) => `${v} ${sig3(ms[v] ?? NaN)} ms`).join(', ') +
          (res.matmulStep.tunedOverNaive ? `; tuned/naive ${res.matmulStep.tunedOverNaive.toFixed(2)}×` : ''),
      );
      out(
        `matmul time of one decoded token: ` +
          variants.map((v) => `${v} ${sig3(dec[v] ?? NaN)} ms`).join(', ') +
          (res.matmulDecode.tunedOverNaive ? `; tuned/naive ${res.matmulDecode.tunedOverNaive.toFixed(2)}×` : ''),
      );
    }
    if (parts.has('train')) {
      progress(`${bm.name}: train step × ${variants.length} variants …`);
      res.trainStep = await benchTrainStep(gpu, timer, layout, N, T, variants, stepFlops, opts);
      const ts = res.trainStep;
      out(
        `train step (pgStep: forward+loss+backward+gradnorm+AdamW, ${ts.dispatches} dispatches), median wall ms` +
          `${timer ? ' [GPU ms]' : ''}: ` +
          variants
            .map((v) => {
              const s = ts.variants[v];
              if (!s) return '';
              const g = s.gpuMedianMs === null ? '' : ` [${sig3(s.gpuMedianMs)}]`;
              return `${v} ${sig3(s.medianMs)}${g}`;
            })
            .join(', ') +
          (ts.tunedOverNaive ? `; tuned/naive ${ts.tunedOverNaive.toFixed(2)}×` : ''),
      );
    }
    if (parts.has('sample')) {
      // The sampler's matmuls are the decode shapes: use the variant fastest on those (else
      // the fastest train step, else the autotuner's choice).
      const variant =
        res.matmulDecode?.best ??
        res.trainStep?.best ??
        (variants.includes(tuning.variant) ? tuning.variant : variants[0]);
      progress(`${bm.name}: sampling with and without KV cache (${variant}) …`);
      res.sampling = await benchSampling(gpu, timer, layout, N, T, variant, opts);
      const s = res.sampling;
      out(
        `sampling ${s.N}×${s.T} (${s.tokens} tokens, ${variant}): KV cache ${sig3(s.kvCache.medianMs)} ms = ${sig3(s.kvCache.tokensPerS)} tok/s; ` +
          `block by kernel ${sig3(s.unfused.medianMs)} ms (${s.unfused.dispatchesPerToken} dispatches a token), fused ${s.fusedSpeedup.toFixed(2)}× faster; ` +
          `no cache ${sig3(s.noCache.medianMs)} ms = ${sig3(s.noCache.tokensPerS)} tok/s; KV ${s.speedup.toFixed(2)}× faster ` +
          `(tokens agree ${(100 * s.tokensAgree).toFixed(1)}%, max |Δlogp| ${s.maxAbsLogpDiff.toExponential(1)})`,
      );
    }
    if (parts.has('counts')) {
      const variant = res.trainStep?.best ?? (variants.includes(tuning.variant) ? tuning.variant : variants[0]);
      progress(`${bm.name}: counting one RL step (sample, update) …`);
      const c = (res.counts = await countRlStep(gpu.device, layout, N, T, variant));
      const d = c.dispatches;
      out(
        `counts of one RL step (N ${N} × T ${T}): dispatches ${d.perStep} = sampling ${d.sampleRun} (${d.samplePerToken}/token × ${T - 1}) + ` +
          `train step ${d.trainStep} + statistics ${d.statistics} (+ estimator ${d.estimator}, on the CPU); compute passes ${c.computePassesPerStep}; ` +
          `submitsPerStep ${c.submitsPerStep} (sample ${c.sample.submits}, update ${c.update.submits}); readbacks ${c.readbacksPerStep}; ` +
          `bytes written ${c.bytesWrittenPerStep.toLocaleString('en-US')}`,
      );
    }
    if (parts.has('profile')) {
      if (!profiler) {
        res.profile = { unavailable: "the adapter has no 'timestamp-query' feature" };
      } else {
        const fallback = variants.includes(tuning.variant) ? tuning.variant : variants[0];
        const trainVariant = res.trainStep?.best ?? fallback;
        const sampleVariant = res.matmulDecode?.best ?? res.trainStep?.best ?? fallback;
        progress(`${bm.name}: profiling a train step (${trainVariant}) and a sampling run (${sampleVariant}) …`);
        const train = await profileTrainStep(gpu, profiler, timer, layout, N, T, trainVariant, opts);
        out('');
        out(profileReport(train));
        const sample = await profileSampling(gpu, profiler, timer, layout, N, T, sampleVariant, opts);
        out('');
        out(profileReport(sample));
        res.profile = { train, sample };
      }
    }
    results.push(res);
  }
  timer?.destroy();
  profiler?.destroy();

  if (results.some((m) => m.matmul || m.trainStep || m.sampling)) {
    out('');
    out(
      '── summary (median wall ms; tok/s = N·(T−1) sampled tokens per second; ratios measured side by side in this run)',
    );
    out(summaryTable(results, variants));
    out('');
    out(
      '── the same as Markdown (docs/benchmarks.md; best matmul = fastest Σ calls × median over the train-step shapes)',
    );
    out(markdownSummary(results, variants));
  }
  const counted = results.flatMap((m) => (m.counts ? [{ name: m.name, params: m.params, counts: m.counts }] : []));
  if (counted.length > 0) {
    out('');
    out(
      '── counts of one RL step as Markdown (dispatches by phase; passes, submits, readbacks and bytes written per RL step)',
    );
    out(countsMarkdown(counted));
  }
  const profiled = results.flatMap((m) =>
    m.profile && 'train' in m.profile && m.profile.train && m.profile.sample ? [{ m, p: m.profile }] : [],
  );
  if (profiled.length > 0) {
    out('');
    out('── profile of one train step as Markdown (share of the Σ of dispatch GPU times, and µs)');
    out(
      sharesMarkdown(profiled.map(({ m, p }) => ({ name: `${m.name} ${p.train!.variant}`, rows: p.train!.kernels }))),
    );
    out('');
    out(`── profile of one sampling run (N·(T−1) tokens) as Markdown`);
    out(
      sharesMarkdown(profiled.map(({ m, p }) => ({ name: `${m.name} ${p.sample!.variant}`, rows: p.sample!.kernels }))),
    );
  }
  return {
    N,
    T,
    reps: opts.reps,
    warmup: opts.warmup,
    quick: opts.quick,
    variants,
    autotune: { variant: tuning.variant, timingsMs: tuning.timings, tookMs: tuning.tookMs },
    models: results,
  };
}

export const kernelsSuite: BenchSuite = {
  name: 'kernels',
  summary:
    'matmul GFLOP/s per shape and variant, train-step ms, sampling tok/s with/without KV cache, for ≈30K/200K/1M-parameter models; --profile: GPU time per kernel',
  flags: {
    models: {
      kind: 'value',
      doc: `comma-separated subset of ${BENCH_MODELS.map((m) => m.name).join(',')} (default: all)`,
    },
    variants: {
      kind: 'value',
      doc: `comma-separated matmul variants to compare (default: ${MATMUL_VARIANTS.join(',')})`,
    },
    parts: { kind: 'value', doc: `comma-separated subset of ${PARTS.join(',')} (default: ${DEFAULT_PARTS.join(',')})` },
    profile: {
      kind: 'switch',
      doc: 'add the profile part: GPU time per dispatch of a train step and of a sampling run, by kernel (needs timestamp-query)',
    },
    batch: { kind: 'value', doc: 'N sequences per batch (default 64; --quick 8)' },
    time: { kind: 'value', doc: 'T positions per sequence (default 32; --quick 16)' },
  },
  defaultReps: () => 5,
  run,
};
