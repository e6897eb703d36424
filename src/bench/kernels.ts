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
//   4. the reduction kernels (logits_stats, logits_backward, grad_norm, attention_forward_rows)
//      with subgroups and with the shared-memory tree on a second device of the same adapter,
//      side by side, and attention_forward_rows with subgroups against a thread per row
//      (./kernels-reductions.ts; docs/engine.md, "Device features");
//   5. with --profile (or --parts profile), where the GPU time of one train step and of one
//      sampling run goes: every dispatch timed with timestamp queries, grouped by kernel, with
//      its share and achieved GFLOP/s or GB/s (./kernels-profile.ts).
//
// Timing: wall-clock around queue.onSubmittedWorkDone() (encode + submit + wait), after
// warm-up runs, median over --reps; variants (and the two samplers) run interleaved
// (A B C A B C …) so machine noise hits them equally. With 'timestamp-query' the GPU time
// between two timestamps around the work is reported too (wall time stays the primary number).

import type { GpuContext } from '../gpu/device';
import { MATMUL_VARIANTS, type MatmulVariant } from '../gpu/ops';
import { chooseMatmulVariant, matmulFlops, type MatmulTuning } from '../gpu/autotune';
import { buildLayout, type ParamLayout } from '../model/layout';
import { CliError, intFlag } from '../core/flags';
import { BENCH_MODELS, countParams, modelMatmuls, type BenchModel, type ModelMatmul } from './models';
import { GpuTimer } from './gpu-timer';
import { formatNumber, sig3 } from './text-table';
import type { BenchOptions, BenchSuite } from './suite';
import { DispatchProfiler } from './dispatch-profiler';
import { profileReport, profileSampling, profileTrainStep } from './kernels-profile';
import { sharesMarkdown } from './profile';
import {
  countsMarkdown,
  markdownSummary,
  matmulTable,
  reductionsLine,
  reductionsMarkdown,
  summaryTable,
} from './kernels-report';
import { countRlStep } from './step-counts';
import { countGpuCalls } from '../gpu/call-counter';
import { benchReductions } from './kernels-reductions';
import { benchMatmuls, benchSampling, benchTrainStep, bestOf, ratio } from './kernels-measure';
import type { KernelsResult, MatmulResult, ModelResult } from './kernels-results';

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

// ─── the suite ──────────────────────────────────────────────────────────────────────────────

const PARTS = ['matmul', 'train', 'sample', 'counts', 'reductions', 'profile'] as const;
type Part = (typeof PARTS)[number];
/** What runs without --parts: everything but the profile, which --profile adds. */
const DEFAULT_PARTS: readonly Part[] = ['matmul', 'train', 'sample', 'counts', 'reductions'];

/** What one run measures, and what every model's parts share (timers, the autotuner's choice). */
interface KernelsRun {
  gpu: GpuContext;
  opts: BenchOptions;
  N: number;
  T: number;
  variants: MatmulVariant[];
  timer: GpuTimer | null;
  profiler: DispatchProfiler | null;
  tuning: MatmulTuning;
}

/** The suite's own flags: batch, models, variants and parts (--profile adds the profile part). */
function parseFlags(opts: BenchOptions) {
  const N = intFlag(opts.flags, 'batch', opts.quick ? 8 : 64, 1, 4096);
  const T = intFlag(opts.flags, 'time', opts.quick ? 16 : 32, 2, 4096);
  const names = BENCH_MODELS.map((m) => m.name);
  const picked = listFlag(opts.flags.models, names, 'models');
  const models: BenchModel[] = picked ? BENCH_MODELS.filter((m) => picked.includes(m.name)) : [...BENCH_MODELS];
  const variants = listFlag(opts.flags.variants, MATMUL_VARIANTS, 'variants') ?? [...MATMUL_VARIANTS];
  const parts = new Set<Part>(listFlag(opts.flags.parts, PARTS, 'parts') ?? DEFAULT_PARTS);
  if (opts.flags.profile === true) parts.add('profile');
  return { N, T, models, variants, parts };
}

/** The variant the trainer would pick (chooseMatmulVariant), timed and printed. */
async function autotune(gpu: GpuContext, opts: BenchOptions): Promise<MatmulTuning> {
  opts.progress('autotune: timing the matmul variants on two small shapes …');
  const tuning: MatmulTuning = await chooseMatmulVariant(gpu.device);
  opts.out(
    `autotune (chooseMatmulVariant, ${tuning.tookMs.toFixed(0)} ms): ${tuning.variant}  [` +
      MATMUL_VARIANTS.map((v) => `${v} ${formatNumber(tuning.timings[v], 3)} ms`).join(', ') +
      ']',
  );
  return tuning;
}

/** The autotuner's variant where it is among those compared, else the first of them. */
function fallbackVariant(r: KernelsRun): MatmulVariant {
  return r.variants.includes(r.tuning.variant) ? r.tuning.variant : r.variants[0];
}

/** Σ calls × median per variant, over the decoding shapes (decode) or the train-step ones. */
function matmulSum(
  matmul: MatmulResult[],
  variants: MatmulVariant[],
  decode: boolean,
): Partial<Record<MatmulVariant, number>> {
  const ms: Partial<Record<MatmulVariant, number>> = {};
  for (const v of variants) {
    ms[v] = matmul
      .filter((r) => (r.phase === 'decode') === decode)
      .reduce((s, r) => s + r.calls * (r.variants[v]?.medianMs ?? NaN), 0);
  }
  return ms;
}

/** Part `matmul`: every shape × variant, then the sums for a train step and a decoded token. */
async function matmulPart(r: KernelsRun, name: string, shapes: ModelMatmul[], res: ModelResult): Promise<void> {
  const { out, progress } = r.opts;
  const { variants } = r;
  progress(`${name}: ${shapes.length} matmul shapes × ${variants.length} variants …`);
  res.matmul = await benchMatmuls(r.gpu, r.timer, shapes, variants, r.opts);
  const ms = matmulSum(res.matmul, variants, false);
  res.matmulStep = { ms, tunedOverNaive: ratio(ms), best: bestOf(ms) };
  const dec = matmulSum(res.matmul, variants, true);
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

/** Part `train`: one pgStep per variant. */
async function trainPart(
  r: KernelsRun,
  name: string,
  layout: ParamLayout,
  stepFlops: number,
  res: ModelResult,
): Promise<void> {
  const { variants, timer } = r;
  r.opts.progress(`${name}: train step × ${variants.length} variants …`);
  res.trainStep = await benchTrainStep({ ...r, layout }, variants, stepFlops);
  const ts = res.trainStep;
  r.opts.out(
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

/** Part `sample`: the KV-cache sampler (fused and block by kernel) against no cache. */
async function samplePart(r: KernelsRun, name: string, layout: ParamLayout, res: ModelResult): Promise<void> {
  // The sampler's matmuls are the decode shapes: use the variant fastest on those (else
  // the fastest train step, else the autotuner's choice).
  const variant = res.matmulDecode?.best ?? res.trainStep?.best ?? fallbackVariant(r);
  r.opts.progress(`${name}: sampling with and without KV cache (${variant}) …`);
  res.sampling = await benchSampling({ ...r, layout }, variant);
  const s = res.sampling;
  r.opts.out(
    `sampling ${s.N}×${s.T} (${s.tokens} tokens, ${variant}): KV cache ${sig3(s.kvCache.medianMs)} ms = ${sig3(s.kvCache.tokensPerS)} tok/s; ` +
      `block by kernel ${sig3(s.unfused.medianMs)} ms (${s.unfused.dispatchesPerToken} dispatches a token), fused ${s.fusedSpeedup.toFixed(2)}× faster; ` +
      `no cache ${sig3(s.noCache.medianMs)} ms = ${sig3(s.noCache.tokensPerS)} tok/s; KV ${s.speedup.toFixed(2)}× faster ` +
      `(tokens agree ${(100 * s.tokensAgree).toFixed(1)}%, max |Δlogp| ${s.maxAbsLogpDiff.toExponential(1)})`,
  );
}

/** Part `counts`: what one RL step asks of the device. */
async function countsPart(r: KernelsRun, name: string, layout: ParamLayout, res: ModelResult): Promise<void> {
  const { N, T } = r;
  const variant = res.trainStep?.best ?? fallbackVariant(r);
  r.opts.progress(`${name}: counting one RL step (sample, update) …`);
  const c = (res.counts = await countRlStep(r.gpu.device, layout, N, T, variant));
  const d = c.dispatches;
  r.opts.out(
    `counts of one RL step (N ${N} × T ${T}): dispatches ${d.perStep} = sampling ${d.sampleRun} (${d.samplePerToken}/token × ${T - 1}) + ` +
      `train step ${d.trainStep} + statistics ${d.statistics} (+ estimator ${d.estimator}, on the CPU); compute passes ${c.computePassesPerStep}; ` +
      `submitsPerStep ${c.submitsPerStep} (sample ${c.sample.submits}, update ${c.update.submits}); readbacks ${c.readbacksPerStep}; ` +
      `bytes written ${c.bytesWrittenPerStep.toLocaleString('en-US')}`,
  );
}

/** Part `reductions`: the kernels with a subgroups variant, with and without subgroups. */
async function reductionsPart(r: KernelsRun, name: string, layout: ParamLayout, res: ModelResult): Promise<void> {
  r.opts.progress(`${name}: reduction kernels with subgroups and with the tree …`);
  const { nEmbd: C, nHead: NH, vocabSize: V } = layout.config;
  res.reductions = await benchReductions(r.gpu, { N: r.N, T: r.T, C, NH, V, P: layout.numParams }, r.opts);
  r.opts.out(reductionsLine(res.reductions));
}

/** Part `profile`: the GPU time of a train step and of a sampling run, dispatch by dispatch. */
async function profilePart(r: KernelsRun, name: string, layout: ParamLayout, res: ModelResult): Promise<void> {
  const { profiler, opts } = r;
  if (!profiler) {
    res.profile = { unavailable: "the adapter has no 'timestamp-query' feature" };
    return;
  }
  const fallback = fallbackVariant(r);
  const trainVariant = res.trainStep?.best ?? fallback;
  const sampleVariant = res.matmulDecode?.best ?? res.trainStep?.best ?? fallback;
  opts.progress(`${name}: profiling a train step (${trainVariant}) and a sampling run (${sampleVariant}) …`);
  const train = await profileTrainStep({ ...r, layout }, profiler, trainVariant);
  opts.out('');
  opts.out(profileReport(train));
  const sample = await profileSampling({ ...r, layout }, profiler, sampleVariant);
  opts.out('');
  opts.out(profileReport(sample));
  res.profile = { train, sample };
}

/** One model size: its header line, then each part asked for, in order. */
async function benchModel(r: KernelsRun, bm: BenchModel, parts: Set<Part>): Promise<ModelResult> {
  const { N, T } = r;
  const layout = buildLayout(bm.config);
  const params = countParams(layout);
  const c = bm.config;
  r.opts.out('');
  r.opts.out(
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
    reductions: null,
  };
  if (parts.has('matmul')) await matmulPart(r, bm.name, shapes, res);
  if (parts.has('train')) await trainPart(r, bm.name, layout, stepFlops, res);
  if (parts.has('sample')) await samplePart(r, bm.name, layout, res);
  if (parts.has('counts')) await countsPart(r, bm.name, layout, res);
  if (parts.has('reductions')) await reductionsPart(r, bm.name, layout, res);
  if (parts.has('profile')) await profilePart(r, bm.name, layout, res);
  return res;
}

/** After all models: the summary, and the Markdown of docs/benchmarks.md (summary, counts, profiles). */
function printSummaries(results: ModelResult[], variants: MatmulVariant[], out: (line: string) => void): void {
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
  const reduced = results.flatMap((m) => (m.reductions ? [{ name: m.name, reductions: m.reductions }] : []));
  if (reduced.length > 0) {
    out('');
    out(
      '── reduction kernels, subgroups vs the shared-memory tree, as Markdown (median wall ms per call, side by side)',
    );
    out(reductionsMarkdown(reduced));
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
}

async function run(gpu: GpuContext, opts: BenchOptions): Promise<KernelsResult> {
  const { out } = opts;
  const { N, T, models, variants, parts } = parseFlags(opts);
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

  const tuning = await autotune(gpu, opts);
  out(
    `batch: N = ${N} sequences × T = ${T} positions (R = ${N * T} rows); ${opts.reps} reps, median wall ms` +
      `${timer ? ' (GPU timestamps in the JSON)' : ''}`,
  );

  const r: KernelsRun = { gpu, opts, N, T, variants, timer, profiler, tuning };
  const results: ModelResult[] = [];
  for (const bm of models) results.push(await benchModel(r, bm, parts));
  timer?.destroy();
  profiler?.destroy();

  printSummaries(results, variants, out);
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
