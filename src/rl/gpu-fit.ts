// Will a run fit the GPU? The buffers GpuEngine allocates for a run config (weights, optimiser
// state, a sampler and training plans per sequence length, the eval samplers), checked against
// the adapter's limits (bytes per buffer and per binding, workgroups per dimension) and a memory
// budget before any GPU work, so a config that passes validation cannot crash the engine
// half-way. A failure is a ConfigError naming a knob and the values that would fit.
//
// This mirrors the allocations of src/model/gpu-model.ts, gpu-loss.ts, gpu-sampler.ts and
// src/rl/gpu-engine.ts; a test holds it to the bytes the engine really allocates.

import {
  ConfigError,
  curriculumLevels,
  mergeConfig,
  modelConfigOf,
  taskParamsAtLevel,
  type RunConfig,
} from '../config/config';
import { findKnob } from '../config/knobs';
import { PG_STATS, splitKChunks } from '../core/abi';
import { buildLayout } from '../model/layout';
import { getTask } from '../tasks/registry';
import { tensorGroups } from './engine';

export interface GpuLimits {
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  maxComputeWorkgroupsPerDimension: number;
}

export interface GpuBudget extends GpuLimits {
  /** Total bytes of buffers the run may hold (WebGPU cannot tell how much memory there is). */
  memoryBytes: number;
}

/** The default memory budget: 4 GiB, what a discrete GPU or a shared-memory laptop GPU can hold. */
export const DEFAULT_GPU_MEMORY_BYTES = 4 * 2 ** 30;

export interface BufferNeed {
  label: string;
  bytes: number;
  /** Bound to a kernel as a storage buffer (maxStorageBufferBindingSize applies). */
  bound: boolean;
  /** What it is sized by, for messages: e.g. "training, N·T × 4·C". */
  what: string;
}

export interface Footprint {
  buffers: BufferNeed[];
  totalBytes: number;
  /** The largest row count a matmul gets (it dispatches ⌈rows/8⌉ workgroups along y at worst). */
  matmulRows: { rows: number; what: string };
}

const storage = (floats: number): number => Math.max(4, floats * 4);

/** The sequence length T (prompt + completion) at each curriculum level the run can visit. */
function lengthsOf(config: RunConfig): number[] {
  const task = getTask(config.task);
  const [lo, hi] = curriculumLevels(config);
  const out = new Set<number>();
  for (let level = lo; level <= hi; level++) {
    const shape = task.shape(taskParamsAtLevel(config, level));
    out.add(shape.promptLength + shape.completionLength);
  }
  return [...out];
}

/** What the buffer lists of one sampler or one set of training plans need to know. */
interface NeedContext {
  /** The model's widths: channels, layers, heads, vocab. */
  C: number;
  L: number;
  NH: number;
  V: number;
  /** Bytes of gradNormOp's partials for the whole parameter vector. */
  partials: number;
  add: (label: string, bytes: number, bound: boolean, what: string) => void;
}

/** Every buffer a GpuEngine holds by the end of a run with this config (each level visited). */
export function gpuFootprint(config: RunConfig): Footprint {
  const model = modelConfigOf(config);
  const layout = buildLayout(model);
  const P = layout.numParams;
  const { nEmbd: C, nLayer: L, nHead: NH, vocabSize: V } = model;
  const tensors = tensorGroups(layout);
  const groups = tensors.length;
  // gradNormOp's first stage: min(256, ⌈n / 256⌉) partial (sum, flag) pairs for a vector of n.
  const partialsOf = (n: number): number => Math.min(256, Math.ceil(n / 256)) * 8;
  const partials = partialsOf(P);
  const buffers: BufferNeed[] = [];
  const add = (label: string, bytes: number, bound: boolean, what: string) =>
    buffers.push({ label, bytes, bound, what });
  const ctx: NeedContext = { C, L, NH, V, partials, add };

  // The engine: weights, gradients, AdamW moments, decay mask, backup, norms, reference.
  for (const label of ['params', 'grads', 'adam m', 'adam v', 'decay mask', 'weights before update'])
    add(label, P * 4, true, 'the model');
  add('state backup', 3 * P * 4, false, 'the model');
  add('group grad norms', groups * 256, true, 'the model');
  add('weight and update norms', 512, true, 'the model');
  for (const g of tensors) add('gradNorm partials', partialsOf(g.size), true, `the model, ${g.name}`);
  for (const label of ['weight norm partials', 'update norm partials']) add(label, partials, true, 'the model');
  if (config.klBeta > 0) add('reference params', P * 4, true, 'the model');

  const BG = config.batchPrompts * config.groupSize;
  const mb = BG / config.minibatches;
  const passes = config.epochs * config.minibatches;
  let maxRows = { rows: 0, what: '' };
  const rows = (r: number, what: string) => {
    if (r > maxRows.rows) maxRows = { rows: r, what };
  };

  // The engine keeps one sampler and one set of training plans per (N, T): shared when equal.
  const made = new Set<string>();
  const sampler = (N: number, T: number, what: string) => {
    if (made.has(`sampler ${N}x${T}`)) return;
    made.add(`sampler ${N}x${T}`);
    samplerNeeds(ctx, N, T, what);
    rows(N, what);
  };
  const plans = (N: number, T: number, what: string, tag = '') => {
    if (made.has(`plans ${N}x${T} ${tag}`)) return;
    made.add(`plans ${N}x${T} ${tag}`);
    activationNeeds(ctx, N, T, what);
    gradientScratchNeeds(ctx, N, T, what);
    lossAndUpdateNeeds(ctx, N, T, what);
    rows(N * T, what);
  };

  for (const T of lengthsOf(config)) {
    sampler(BG, T, 'sampling batchPrompts·groupSize sequences');
    plans(mb, T, 'training batchPrompts·groupSize/minibatches sequences');
    // The warm start trains on batchPrompts·groupSize sequences in one pass, before any KL
    // reference: with one, the plans are built again once it is taken (the first set stays).
    if (config.sftSteps > 0)
      plans(BG, T, 'warm start, batchPrompts·groupSize sequences', config.klBeta > 0 ? 'before the reference' : '');
    if (config.evalEvery > 0 || config.curriculum !== 'off')
      sampler(config.evalPrompts, T, 'held-out greedy, evalPrompts sequences');
    if (config.evalEvery > 0)
      sampler(config.evalPrompts * config.groupSize, T, 'held-out sampling, evalPrompts·groupSize sequences');
  }
  // Every pass's inputs of one train call, staged in one buffer (src/rl/gpu-engine.ts): six
  // [N,T] arrays and the loss and AdamW records per pass; it grows to the largest call.
  const T = Math.max(...lengthsOf(config));
  const staged = Math.max(passes * (6 * mb * T * 4 + 96), config.sftSteps > 0 ? 6 * BG * T * 4 + 96 : 0);
  add('train inputs staging', staged, false, "the inputs of one step's passes");
  const perPass = Math.ceil((mb + mb * PG_STATS + 2) / 64) * 64;
  add('train stats readback', (passes * perPass + groups * 64 + 128) * 4, false, 'the metrics of one step');
  const totalBytes = buffers.reduce((a, b) => a + b.bytes, 0);
  return { buffers, totalBytes, matmulRows: maxRows };
}

/** The buffers of one GpuSampler of N sequences × T positions (src/model/gpu-sampler.ts). */
function samplerNeeds({ C, L, NH, V, add }: NeedContext, N: number, T: number, what: string): void {
  for (const l of ['tokens', 'logp', 'entropy', 'template']) add(`sample ${l}`, storage(N * T), true, `${what}, N·T`);
  add('sample next cursor', 4, true, what);
  add('sample positions', storage(T), true, what);
  add('sample logits', storage(N * V), true, `${what}, N × vocab`);
  add('cursor', 4, true, what);
  add('sample readback', 3 * N * T * 4, false, `${what}, 3·N·T`);
  add('decode x', storage(N * C), true, `${what}, N × C`);
  add('decode ln', storage(N * C), true, `${what}, N × C`);
  add('decode ln stats', storage(2 * N), true, `${what}, 2·N`);
  // decode_block's workgroup memory within WebGPU's minimum (16 KiB): one dispatch per block
  // and no intermediates; else the block kernel by kernel (src/model/gpu-sampler.ts).
  if ((7 * C + NH * T + 2) * 4 > 16384) {
    for (const l of ['decode x′', 'decode atty', 'decode proj', 'decode resid2'])
      add(l, storage(N * C), true, `${what}, N × C`);
    add('decode qkv', storage(N * 3 * C), true, `${what}, N × 3C`);
    add('decode fch', storage(N * 4 * C), true, `${what}, N × 4C`);
    add('decode fch gelu', storage(N * 4 * C), true, `${what}, N × 4C`);
  }
  for (let l = 0; l < L; l++) add(`kv cache h${l}`, storage(N * T * 3 * C), true, `${what}, N·T × 3C`);
}

/** The forward's activations of a set of training plans (src/model/gpu-model.ts, GpuActivations). */
function activationNeeds({ C, L, NH, add }: NeedContext, N: number, T: number, what: string): void {
  const R = N * T;
  const rc = (k: number, label: string) => add(label, storage(R * k * C), true, `${what}, N·T × ${k === 1 ? '' : k}C`);
  const stats = (label: string) => add(label, storage(2 * R), true, `${what}, 2·N·T`); // mean, rstd
  const att = (label: string) => add(label, storage(N * NH * T * T), true, `${what}, N × heads × T²`);
  rc(1, 'encoded');
  for (let l = 0; l < L; l++) {
    rc(1, `h${l}.ln1`);
    stats(`h${l}.ln1 stats`);
    rc(3, `h${l}.qkv`);
    rc(1, `h${l}.atty`);
    att(`h${l}.att`);
    rc(1, `h${l}.resid2`);
    rc(1, `h${l}.ln2`);
    stats(`h${l}.ln2 stats`);
    rc(4, `h${l}.fch`);
    rc(4, `h${l}.fch gelu`);
    rc(1, `h${l}.resid3`);
    att('attention_backward dz');
  }
  rc(1, 'lnf');
  stats('lnf stats');
}

/**
 * The backward's scratch for the parameter gradients' sums over the N·T rows: split-K's chunk
 * sums (the bias and layernorm column sums keep theirs in workgroup memory).
 */
function gradientScratchNeeds({ C, L, V, add }: NeedContext, N: number, T: number, what: string): void {
  const R = N * T;
  // The weight gradients dW += inpᵀ·dout sum over R rows: split-K chunk sums where they are split.
  // (the tied head's in matmulOp, the linear layers' in linearBackwardOp)
  const splitK = (M: number, N: number, label: string, op = 'linearBackward') => {
    const Z = splitKChunks(M, R, N, true, false);
    if (Z > 1)
      add(`${label} ${op} chunk sums`, storage(Z * M * N), true, `${what}, ${Z} chunks of the weight gradient`);
  };
  splitK(V, C, 'wte', 'matmulSplitK');
  for (let l = 0; l < L; l++) {
    splitK(4 * C, C, `h${l}.fcproj`);
    splitK(C, 4 * C, `h${l}.fc`);
    splitK(C, C, `h${l}.attproj`);
    splitK(C, 3 * C, `h${l}.qkv`);
  }
}

/** The logits and their gradients, the backward's activations, the loss inputs and outputs, the norms and the uniforms. */
function lossAndUpdateNeeds({ C, V, partials, add }: NeedContext, N: number, T: number, what: string): void {
  const R = N * T;
  const rc = (k: number, label: string) => add(label, storage(R * k * C), true, `${what}, N·T × ${k === 1 ? '' : k}C`);
  const r1 = (label: string) => add(label, storage(R), true, `${what}, N·T`);
  add('logits', storage(R * V), true, `${what}, N·T × vocab`);
  add('dlogits', storage(R * V), true, `${what}, N·T × vocab`);
  rc(1, 'dresid');
  rc(1, 'dln');
  rc(1, 'datty');
  rc(3, 'dqkv');
  rc(4, 'dfch');
  for (const l of ['tokens', 'targets', 'old logp', 'ref logp', 'advantages', 'loss mask', 'kl mask']) r1(l);
  for (const l of ['logp', 'entropy', 'dlogp', 'dent', 'ref entropy']) r1(l);
  add('seq loss', storage(N), true, what);
  add('pg stats', storage(N * PG_STATS), true, what);
  add('grad norm', 8, true, what);
  add('pg_loss per-token scratch', R * 16, true, `${what}, N·T × 4`);
  add('gradNorm partials', partials, true, what);
  add('pgLoss params', 64, false, what);
  add('ceLoss params', 32, false, what);
  add('adamw params', 64, false, what);
}

export function gpuLimitsOf(device: GPUDevice, memoryBytes = DEFAULT_GPU_MEMORY_BYTES): GpuBudget {
  const l = device.limits;
  return {
    maxBufferSize: Number(l.maxBufferSize),
    maxStorageBufferBindingSize: Number(l.maxStorageBufferBindingSize),
    maxComputeWorkgroupsPerDimension: Number(l.maxComputeWorkgroupsPerDimension),
    memoryBytes,
  };
}

const gb = (bytes: number): string =>
  bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`;

/** The first limit this config breaks, in words, or null when it fits. */
export function gpuFitProblem(config: RunConfig, budget: GpuBudget): string | null {
  const fp = gpuFootprint(config);
  // The matmul kernels give a workgroup 8 rows (the naive variant; the others 32).
  const wy = Math.ceil(fp.matmulRows.rows / 8);
  if (wy > budget.maxComputeWorkgroupsPerDimension) {
    return (
      `${fp.matmulRows.rows} rows (${fp.matmulRows.what}) need ${wy} matmul workgroups in one dimension; ` +
      `this adapter allows ${budget.maxComputeWorkgroupsPerDimension} (maxComputeWorkgroupsPerDimension)`
    );
  }
  let largest = fp.buffers[0];
  for (const b of fp.buffers) if (b.bytes > largest.bytes) largest = b;
  const bound = fp.buffers
    .filter((b) => b.bound)
    .reduce((m, b) => (b.bytes > m.bytes ? b : m), { bytes: 0 } as BufferNeed);
  if (bound.bytes > budget.maxStorageBufferBindingSize) {
    return (
      `the buffer "${bound.label}" (${bound.what}) needs ${gb(bound.bytes)}; this adapter binds at most ` +
      `${gb(budget.maxStorageBufferBindingSize)} (maxStorageBufferBindingSize)`
    );
  }
  if (largest.bytes > budget.maxBufferSize) {
    return (
      `the buffer "${largest.label}" (${largest.what}) needs ${gb(largest.bytes)}; this adapter's buffers hold at most ` +
      `${gb(budget.maxBufferSize)} (maxBufferSize)`
    );
  }
  if (fp.totalBytes > budget.memoryBytes) {
    return (
      `the run needs ${gb(fp.totalBytes)} of GPU buffers (the largest: "${largest.label}", ${largest.what}, ${gb(largest.bytes)}); ` +
      `the memory budget is ${gb(budget.memoryBytes)}`
    );
  }
  return null;
}

/** The knobs that shrink a run, in the order they are suggested. */
const SHRINK_KNOBS = ['batchPrompts', 'groupSize', 'evalPrompts', 'model.nEmbd', 'model.nLayer'] as const;

function fitsWith(config: RunConfig, budget: GpuBudget, key: string, value: number): boolean {
  let c: RunConfig;
  try {
    c = mergeConfig(config, { [key]: value });
  } catch {
    return false; // not a valid config (e.g. minibatches no longer divides the batch)
  }
  return gpuFitProblem(c, budget) === null;
}

/** The largest value of `key` below its current one that fits, or null. */
function largestFitting(config: RunConfig, budget: GpuBudget, key: string): number | null {
  const spec = findKnob(key, config.task)!;
  const current = Number(config[key as keyof RunConfig]);
  // Binary search on the footprint (it grows with every one of these knobs), then step down
  // to a value the config rules accept.
  let lo = spec.min ?? 1,
    hi = current - 1;
  if (hi < lo) return null;
  const footprintFits = (v: number) => {
    try {
      return gpuFitProblem({ ...config, [key]: v } as RunConfig, budget) === null;
    } catch {
      return false;
    }
  };
  if (!footprintFits(lo)) return null;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (footprintFits(mid)) lo = mid;
    else hi = mid - 1;
  }
  for (let v = lo; v >= (spec.min ?? 1) && v > lo - 64; v--) if (fitsWith(config, budget, key, v)) return v;
  return null;
}

/**
 * Throws a ConfigError when the run does not fit the adapter or the budget: it says what does
 * not fit, and names the largest value of each knob that would (the first one is `knob`).
 */
export function checkGpuFit(config: RunConfig, budget: GpuBudget): void {
  const problem = gpuFitProblem(config, budget);
  if (!problem) return;
  const fixes: { key: string; text: string }[] = [];
  for (const key of SHRINK_KNOBS) {
    const v = largestFitting(config, budget, key);
    if (v !== null) fixes.push({ key, text: `${key} ≤ ${v}` });
  }
  // More minibatches shrink the training plans (not the sampler).
  const n = config.batchPrompts * config.groupSize;
  for (let mbs = config.minibatches + 1; mbs <= n; mbs++) {
    if (n % mbs === 0 && fitsWith(config, budget, 'minibatches', mbs)) {
      fixes.push({ key: 'minibatches', text: `minibatches ≥ ${mbs}` });
      break;
    }
  }
  const knob = fixes[0]?.key ?? 'batchPrompts';
  const settings =
    `batchPrompts ${config.batchPrompts}, groupSize ${config.groupSize}, minibatches ${config.minibatches}, ` +
    `evalPrompts ${config.evalPrompts}, model.nEmbd ${config['model.nEmbd']}, model.nLayer ${config['model.nLayer']}`;
  throw new ConfigError(
    knob,
    `this run does not fit the GPU: ${problem} (${settings}). ` +
      (fixes.length
        ? `Values that fit, the others unchanged: ${fixes.map((f) => f.text).join(', ')}.`
        : 'No single knob makes it fit.'),
    fixes.slice(1).map((f) => f.key),
  );
}
