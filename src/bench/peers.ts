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
import { median } from '../core/numeric';
import type { MatmulVariant } from '../gpu/ops';
import { readF32 } from '../gpu/buffers';
import { buildLayout, type ParamLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuParams } from '../model/gpu-model';
import { CliError, intFlag } from '../core/flags';
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
import { sig3 } from './text-table';
import { peersMarkdown, summaryTable, tfjsOf } from './peers-report';
import type { PeerModelResult, PeersResult, SameWorkloadCheck, SideResult, Times } from './peers-results';
import type { BenchOptions, BenchSuite } from './suite';

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

/** TF.js's side on this model, the check of it against the engine's, or why it is left out. */
interface PeerStart {
  peer: TfjsPeer | null;
  check: SameWorkloadCheck | null;
  tfError: string | null;
}

/** TF.js's model on the engine's initial weights and batch, checked against the engine's log-probs and first step. */
async function startPeer(
  rt: TfjsRuntime | null,
  layout: ParamLayout,
  initial: Float32Array,
  N: number,
  T: number,
  engineLogp: Float32Array,
  gradNormEngine: number,
): Promise<PeerStart> {
  if (!rt) return { peer: null, check: null, tfError: 'TF.js did not start' };
  // The peer is returned even when the check fails, so that the caller disposes it.
  let peer: TfjsPeer | null = null;
  try {
    peer = tfjsPeer(rt, layout, initial, N, T);
    const mask = trainBatch(N, T, layout.config.vocabSize).mask;
    return { peer, check: await checkSameWorkload(peer, engineLogp, gradNormEngine, mask), tfError: null };
  } catch (e) {
    return { peer, check: null, tfError: errorText(e) };
  }
}

/** TF.js's train step and sampling run, each ending with its results read back (called only when TF.js runs). */
function tfjsRuns(rt: TfjsRuntime | null, peer: TfjsPeer | null, N: number, T: number) {
  const step = async () => {
    const norm = peer!.model.trainStep(peer!.batch, BENCH_ADAM);
    await norm.data();
    norm.dispose();
  };
  const sample = async () => {
    const s = peer!.model.sample(N, T, 1, SAMPLE_PARAMS.seed);
    await Promise.all([s.tokens.data(), s.logp.data(), s.entropy.data()]);
    rt!.tf.dispose([s.tokens, s.logp, s.entropy]);
  };
  return { step, sample };
}

/**
 * The engine's run and TF.js's timed interleaved; where TF.js is left out or fails, the engine's
 * alone, and TF.js's place holds the error (the first one is kept in `state.tfError`).
 */
async function measurePair(
  engineRun: () => Promise<unknown>,
  peerRun: () => Promise<void>,
  withPeer: boolean,
  state: { tfError: string | null },
  opts: BenchOptions,
): Promise<[number[], number[] | string]> {
  if (withPeer) {
    try {
      const [a, b] = await timeInterleaved([() => wall(engineRun), () => wall(peerRun)], {
        warmup: opts.warmup,
        reps: opts.reps,
      });
      return [a, b];
    } catch (e) {
      state.tfError ??= errorText(e);
    }
  }
  const [a] = await timeInterleaved([() => wall(engineRun)], { warmup: opts.warmup, reps: opts.reps });
  return [a, state.tfError ?? 'TF.js failed'];
}

/** One side's medians; tokens/s over the N·(T−1) sampled tokens. */
function sideResult(train: number[], samp: number[], tokens: number): SideResult {
  const s = times(samp);
  return { trainStep: times(train), sampling: { ...s, tokensPerS: tokens / (s.medianMs / 1000) } };
}

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
  try {
    const engineLogp = await engineLogpAndAlign(device, setup, R);
    const gradNormEngine = await step();
    const started = await startPeer(rt, layout, initial, N, T, engineLogp, gradNormEngine);
    peer = started.peer;
    const { check } = started;
    const state = { tfError: started.tfError };

    const tf = tfjsRuns(rt, peer, N, T);
    const withPeer = state.tfError === null;
    opts.progress(`train step: engine and TF.js, ${opts.reps} reps each …`);
    const [engTrain, tfTrain] = await measurePair(step, tf.step, withPeer, state, opts);
    opts.progress(`sampling: engine and TF.js, ${opts.reps} reps each …`);
    const [engSample, tfSampleMs] = await measurePair(sample, tf.sample, withPeer, state, opts);
    const tokens = N * (T - 1);
    const engine = { variant, ...sideResult(engTrain, engSample, tokens) };
    const tfjs: SideResult | { error: string } =
      typeof tfTrain === 'string' || typeof tfSampleMs === 'string'
        ? { error: state.tfError ?? 'TF.js failed' }
        : sideResult(tfTrain, tfSampleMs, tokens);
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

// ─── the suite ──────────────────────────────────────────────────────────────────────────────

async function run(gpu: GpuContext, opts: BenchOptions): Promise<PeersResult> {
  const { out, progress } = opts;
  const N = intFlag(opts.flags, 'batch', opts.quick ? 8 : 64, 1, 4096);
  const T = intFlag(opts.flags, 'time', opts.quick ? 16 : 32, 2, 32);
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
