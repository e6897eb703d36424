// `npm run bench -- peers`: this engine next to TF.js (its WebGPU backend, on the same Dawn
// and the same adapter) in one run, on the GPT-2 sizes of the kernels suite (V 64, Tmax 32;
// ≈30K, 200K, 1M parameters) and its batch (N × T, default 64 × 32, --quick 8 × 16):
//
//   train step  forward, log-probs of the targets × advantages, backward, global-norm clip
//               1.0, AdamW; then the gradient norm is read back (both sides, so each run ends
//               with the GPU done and one small readback);
//   sampling    N sequences of T tokens from BOS with a KV cache: tokens, their log-probs and
//               the entropies, read back once.
//
// Runs alternate (engine, TF.js, engine, …) so that machine noise hits both; medians of wall
// ms are reported, with the ratios. Before timing, one check that both run the same model on
// the same data: the log-probs of the batch under the same initial weights, and the first
// step's gradient norm. If TF.js cannot start or fails, the error is reported in its place
// and the engine's figures stand alone. PyTorch: bench/peers/torch_gpt2.py (not run here).

import type { GpuContext } from '../gpu/device';
import { chooseMatmulVariant, timeInterleaved } from '../gpu/autotune';
import { median } from '../core/stats';
import type { MatmulVariant } from '../gpu/ops';
import { readF32 } from '../gpu/buffers';
import { buildLayout, type ParamLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuParams } from '../model/gpu-model';
import { CliError } from '../core/flags';
import { BENCH_MODELS, countParams, type BenchModel } from './models';
import {
  BENCH_ADAM,
  destroyBuffers,
  SAMPLE_PARAMS,
  setupSampler,
  setupTrainStep,
  trainBatch,
  type TrainStepSetup,
} from './workloads';
import { openTfjsWebgpu, type TfjsRuntime } from './peers/tfjs-runtime';
import { TfjsGpt2, type TfTrainBatch } from './peers/tfjs-gpt2';
import { formatTable, markdownTable, sig3, type Cell } from './table';
import type { BenchOptions, BenchSuite } from './suite';

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

function times(samplesMs: number[]): Times {
  return { medianMs: median(samplesMs), minMs: Math.min(...samplesMs), samplesMs };
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

async function wall(run: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
}

// ─── the engine's side ──────────────────────────────────────────────────────────────────────

/** One train step and the read-back of its gradient norm. */
export function engineStep(device: GPUDevice, setup: TrainStepSetup, readback: GPUBuffer): () => Promise<number> {
  const { plans } = setup;
  return async () => {
    const enc = device.createCommandEncoder();
    plans.pgStep.encode(enc, 'pg step');
    enc.copyBufferToBuffer(plans.outputs.norm, 0, readback, 0, 8);
    device.queue.submit([enc.finish()]);
    await readback.mapAsync(GPUMapMode.READ);
    const norm = new Float32Array(readback.getMappedRange().slice(0))[0];
    readback.unmap();
    return norm;
  };
}

/** The log-probs of the batch under the initial weights; then the old log-probs are set to them (ratio 1: the clipped surrogate's gradient is advantage × ∇log π, as TF.js's loss). */
export async function engineLogpAndAlign(device: GPUDevice, setup: TrainStepSetup, R: number): Promise<Float32Array> {
  const { plans } = setup;
  const enc = device.createCommandEncoder();
  plans.logProbs.encode(enc);
  enc.copyBufferToBuffer(plans.outputs.logp, 0, plans.inputs.oldLogp, 0, R * 4);
  device.queue.submit([enc.finish()]);
  return readF32(device, plans.outputs.logp, R);
}

// ─── TF.js's side ───────────────────────────────────────────────────────────────────────────

export interface TfjsPeer {
  model: TfjsGpt2;
  batch: TfTrainBatch;
  dispose(): void;
}

/** The TF.js model with the same initial weights, and the same batch as setupTrainStep's. */
export function tfjsPeer(rt: TfjsRuntime, layout: ParamLayout, initial: Float32Array, N: number, T: number): TfjsPeer {
  const { tf } = rt;
  const b = trainBatch(N, T, layout.config.vocabSize);
  const model = new TfjsGpt2(tf, layout, initial, Math.max(2, rt.maxStorageBuffers - 1));
  const batch: TfTrainBatch = {
    tokens: tf.tensor2d(b.tokens, [N, T], 'int32'),
    targets: tf.tensor1d(
      b.targets.map((t) => Math.max(t, 0)),
      'int32',
    ),
    advMask: tf.tensor1d(b.adv.map((a, i) => a * b.mask[i])),
    count: b.mask.reduce((s, m) => s + m, 0),
  };
  return {
    model,
    batch,
    dispose() {
      model.dispose();
      tf.dispose([batch.tokens, batch.targets, batch.advMask]);
    },
  };
}

/**
 * The same model on the same data: TF.js's log-probs of the batch against the engine's (same
 * initial weights), then TF.js's first step, whose gradient norm should be the engine's.
 */
export async function checkSameWorkload(
  peer: TfjsPeer,
  engineLogp: Float32Array,
  gradNormEngine: number,
  mask: Float32Array,
): Promise<SameWorkloadCheck> {
  const lp = peer.model.tokenLogp(peer.batch.tokens, peer.batch.targets);
  const tfLogp = await lp.data();
  lp.dispose();
  let maxAbsLogpDiff = 0;
  for (let i = 0; i < mask.length; i++)
    if (mask[i]) maxAbsLogpDiff = Math.max(maxAbsLogpDiff, Math.abs(tfLogp[i] - engineLogp[i]));
  const norm = peer.model.trainStep(peer.batch, BENCH_ADAM);
  const gradNormTfjs = (await norm.data())[0];
  norm.dispose();
  return {
    maxAbsLogpDiff,
    gradNormEngine,
    gradNormTfjs,
    gradNormRelDiff: Math.abs(gradNormEngine - gradNormTfjs) / gradNormEngine,
  };
}

// ─── one model size ─────────────────────────────────────────────────────────────────────────

async function benchModel(
  gpu: GpuContext,
  rt: TfjsRuntime | null,
  layout: ParamLayout,
  N: number,
  T: number,
  variant: MatmulVariant,
  opts: BenchOptions,
): Promise<Omit<PeerModelResult, 'name' | 'params'>> {
  const { device } = gpu;
  const V = layout.config.vocabSize;
  const R = N * T;
  const initial = initParams(layout, 1);
  const setup = setupTrainStep(device, layout, N, T, variant, initial);
  const readback = device.createBuffer({
    size: 8,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
    label: 'peers grad norm',
  });
  const sampleModel = new GpuParams(device, layout, initial);
  const sampler = setupSampler(device, layout, sampleModel, N, T, variant);
  const step = engineStep(device, setup, readback);
  const sample = () => sampler.sample({ ...SAMPLE_PARAMS });

  let peer: TfjsPeer | null = null;
  let tfError: string | null = null;
  let check: SameWorkloadCheck | null = null;
  try {
    const engineLogp = await engineLogpAndAlign(device, setup, R);
    const gradNormEngine = await step();
    if (rt) {
      try {
        peer = tfjsPeer(rt, layout, initial, N, T);
        check = await checkSameWorkload(peer, engineLogp, gradNormEngine, trainBatch(N, T, V).mask);
      } catch (e) {
        tfError = errorText(e);
      }
    } else {
      tfError = 'TF.js did not start';
    }

    const tfStep = async () => {
      const norm = peer!.model.trainStep(peer!.batch, BENCH_ADAM);
      await norm.data();
      norm.dispose();
    };
    const tfSample = async () => {
      const s = peer!.model.sample(N, T, 1, SAMPLE_PARAMS.seed);
      await Promise.all([s.tokens.data(), s.logp.data(), s.entropy.data()]);
      rt!.tf.dispose([s.tokens, s.logp, s.entropy]);
    };
    const withPeer = tfError === null;
    const measure = async (
      engineRun: () => Promise<unknown>,
      peerRun: () => Promise<void>,
    ): Promise<[number[], number[] | string]> => {
      if (withPeer) {
        try {
          const [a, b] = await timeInterleaved([() => wall(engineRun), () => wall(peerRun)], {
            warmup: opts.warmup,
            reps: opts.reps,
          });
          return [a, b];
        } catch (e) {
          tfError ??= errorText(e);
        }
      }
      const [a] = await timeInterleaved([() => wall(engineRun)], { warmup: opts.warmup, reps: opts.reps });
      return [a, tfError ?? 'TF.js failed'];
    };
    opts.progress(`train step: engine and TF.js, ${opts.reps} reps each …`);
    const [engTrain, tfTrain] = await measure(step, tfStep);
    opts.progress(`sampling: engine and TF.js, ${opts.reps} reps each …`);
    const [engSample, tfSampleMs] = await measure(sample, tfSample);
    const tokens = N * (T - 1);
    const side = (train: number[], samp: number[]): SideResult => {
      const s = times(samp);
      return { trainStep: times(train), sampling: { ...s, tokensPerS: tokens / (s.medianMs / 1000) } };
    };
    const engine = { variant, ...side(engTrain, engSample) };
    const tfjs: SideResult | { error: string } =
      typeof tfTrain === 'string' || typeof tfSampleMs === 'string'
        ? { error: tfError ?? 'TF.js failed' }
        : side(tfTrain, tfSampleMs);
    return {
      N,
      T,
      engine,
      tfjs,
      check,
      trainTfjsOverEngine: 'error' in tfjs ? null : tfjs.trainStep.medianMs / engine.trainStep.medianMs,
      samplingEngineOverTfjs: 'error' in tfjs ? null : engine.sampling.tokensPerS / tfjs.sampling.tokensPerS,
    };
  } finally {
    setup.destroy();
    readback.destroy();
    sampleModel.destroy();
    destroyBuffers(sampler);
    peer?.dispose();
  }
}

// ─── report ─────────────────────────────────────────────────────────────────────────────────

const f3 = (x: number | null | undefined): Cell =>
  x === null || x === undefined || !Number.isFinite(x) ? null : sig3(x);
const times2 = (x: number | null | undefined): Cell => (x === null || x === undefined ? null : `${x.toFixed(2)}×`);

function tfjsOf(m: PeerModelResult): SideResult | null {
  return 'error' in m.tfjs ? null : m.tfjs;
}

function summaryTable(models: PeerModelResult[]): string {
  const headers = [
    'model',
    'params',
    'engine step ms',
    'TF.js step ms',
    'TF.js/engine',
    'engine tok/s',
    'TF.js tok/s',
    'engine/TF.js',
    'max |Δlogp|',
    'grad norm rel Δ',
  ];
  return formatTable(
    headers,
    models.map((m) => [
      m.name,
      m.params,
      f3(m.engine.trainStep.medianMs),
      f3(tfjsOf(m)?.trainStep.medianMs),
      times2(m.trainTfjsOverEngine),
      f3(m.engine.sampling.tokensPerS),
      f3(tfjsOf(m)?.sampling.tokensPerS),
      times2(m.samplingEngineOverTfjs),
      m.check ? m.check.maxAbsLogpDiff.toExponential(1) : null,
      m.check ? m.check.gradNormRelDiff.toExponential(1) : null,
    ]),
  );
}

/** The table of docs/benchmarks.md (Markdown). */
export function peersMarkdown(models: PeerModelResult[]): string {
  const headers = [
    'model (params)',
    'train step ms: engine / TF.js',
    'TF.js ÷ engine',
    'sampling tok/s: engine / TF.js',
    'engine ÷ TF.js',
  ];
  return markdownTable(
    headers,
    models.map((m) => {
      const tf = tfjsOf(m);
      return [
        `${m.name} (${m.params.toLocaleString('en-US')})`,
        `${sig3(m.engine.trainStep.medianMs)} / ${tf ? sig3(tf.trainStep.medianMs) : '–'}`,
        times2(m.trainTfjsOverEngine),
        `${sig3(m.engine.sampling.tokensPerS)} / ${tf ? sig3(tf.sampling.tokensPerS) : '–'}`,
        times2(m.samplingEngineOverTfjs),
      ];
    }),
  );
}

// ─── the suite ──────────────────────────────────────────────────────────────────────────────

function intOpt(raw: unknown, def: number, name: string, min: number, max: number): number {
  if (raw === undefined) return def;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max)
    throw new CliError(`--${name} must be an integer in [${min}, ${max}], got "${String(raw)}"`);
  return v;
}

async function run(gpu: GpuContext, opts: BenchOptions): Promise<PeersResult> {
  const { out, progress } = opts;
  const N = intOpt(opts.flags.batch, opts.quick ? 8 : 64, 'batch', 1, 4096);
  const T = intOpt(opts.flags.time, opts.quick ? 16 : 32, 'time', 2, 32);
  const names = BENCH_MODELS.map((m) => m.name);
  const picked =
    opts.flags.models === undefined
      ? names
      : String(opts.flags.models)
          .split(',')
          .map((s) => s.trim());
  for (const p of picked)
    if (!names.includes(p)) throw new CliError(`--models: unknown model "${p}"; allowed: ${names.join(', ')}`);
  const models: BenchModel[] = BENCH_MODELS.filter((m) => picked.includes(m.name));

  progress('starting TF.js on its WebGPU backend …');
  let rt: TfjsRuntime | null = null;
  let tfInfo: PeersResult['tfjs'];
  try {
    rt = await openTfjsWebgpu();
    const a = rt.adapter;
    tfInfo = {
      version: rt.version,
      backend: rt.tf.getBackend(),
      adapter: [a.vendor, a.architecture, a.device].filter(Boolean).join(' / '),
      maxStorageBuffersPerStage: rt.maxStorageBuffers,
    };
    out(
      `TF.js ${rt.version}, backend "${tfInfo.backend}" on ${tfInfo.adapter} (its own device: ${rt.maxStorageBuffers} storage buffers per stage)`,
    );
  } catch (e) {
    tfInfo = { error: errorText(e) };
    out(`TF.js could not start its WebGPU backend here: ${tfInfo.error}`);
  }
  const { variant } = await chooseMatmulVariant(gpu.device);
  out(
    `engine: matmul variant ${variant} (chooseMatmulVariant, as the trainer); batch N = ${N} × T = ${T}; ${opts.reps} reps, median wall ms, engine and TF.js alternating`,
  );

  const results: PeerModelResult[] = [];
  try {
    for (const bm of models) {
      const layout = buildLayout(bm.config);
      const params = countParams(layout);
      out('');
      out(`── model ${bm.name}: ${params.toLocaleString('en-US')} parameters`);
      const r = { name: bm.name, params, ...(await benchModel(gpu, rt, layout, N, T, variant, opts)) };
      const tf = tfjsOf(r);
      out(
        `train step: engine ${sig3(r.engine.trainStep.medianMs)} ms, TF.js ${tf ? `${sig3(tf.trainStep.medianMs)} ms (${r.trainTfjsOverEngine!.toFixed(2)}× the engine's)` : '–'}`,
      );
      out(
        `sampling ${N}×${T}: engine ${sig3(r.engine.sampling.tokensPerS)} tok/s, TF.js ${tf ? `${sig3(tf.sampling.tokensPerS)} tok/s (engine ${r.samplingEngineOverTfjs!.toFixed(2)}×)` : '–'}`,
      );
      if (r.check) {
        out(
          `same workload: max |Δ log-prob| ${r.check.maxAbsLogpDiff.toExponential(1)} over the trained rows; first-step grad norm engine ${r.check.gradNormEngine.toPrecision(6)}, TF.js ${r.check.gradNormTfjs.toPrecision(6)}`,
        );
      }
      if ('error' in r.tfjs) out(`TF.js failed: ${r.tfjs.error}`);
      results.push(r);
    }
  } finally {
    rt?.close();
  }
  out('');
  out('── summary (median wall ms; tok/s = N·(T−1) sampled tokens per second; measured side by side in this run)');
  out(summaryTable(results));
  out('');
  out('── the same as Markdown (docs/benchmarks.md)');
  out(peersMarkdown(results));
  out('');
  out(
    `PyTorch (eager, and the step as one CUDA graph): python3 bench/peers/torch_gpt2.py --batch ${N} --time ${T} where PyTorch and a CUDA GPU are (not run by this suite)`,
  );
  return { N, T, reps: opts.reps, warmup: opts.warmup, quick: opts.quick, tfjs: tfInfo, models: results };
}

export const peersSuite: BenchSuite = {
  name: 'peers',
  summary:
    'train step and KV-cache sampling of the same GPT-2 sizes: this engine next to TF.js (WebGPU backend, same adapter), with ratios',
  flags: {
    models: {
      kind: 'value',
      doc: `comma-separated subset of ${BENCH_MODELS.map((m) => m.name).join(',')} (default: all)`,
    },
    batch: { kind: 'value', doc: 'N sequences per batch (default 64; --quick 8)' },
    time: { kind: 'value', doc: 'T positions per sequence, ≤ 32 (default 32; --quick 16)' },
  },
  // TF.js on a software adapter takes seconds per run
  defaultReps: (quick) => (quick ? 3 : 5),
  run,
};
